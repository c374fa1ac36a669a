import SpoilerCore
import Testing

@Suite struct JSONValueTests {
    @Test func parsesAndReencodes() throws {
        let v = try JSONValue.parse(#" {"a": [1, -2.5e3, true, null], "b": "x\u00e9\ud83d\ude00\n"} "#)
        #expect(v.jsonString == #"{"a":[1,-2.5e3,true,null],"b":"xé😀\n"}"#)
    }

    @Test(arguments: [
        (#"{"a" 1}"#, 1, 6), ("[1,\n 2,]", 2, 4), (#""abc"#, 1, 1), ("[1] x", 1, 5), (#""\ud800""#, 1, 2),
    ])
    func errorsNamePosition(input: String, line: Int, column: Int) {
        #expect(throws: JSONError.self) { try JSONValue.parse(input) }
        do {
            _ = try JSONValue.parse(input)
        } catch {
            #expect(error.position.line == line)
            #expect(error.position.column == column)
        }
    }

    @Test func deepNestingIsAnErrorNotACrash() {
        let deep = String(repeating: "[", count: 100_000)
        #expect(throws: JSONError.self) { try JSONValue.parse(deep) }
    }
}

@Suite struct TextOffsetTests {
    @Test func conversionsRoundTrip() {
        let s = "a😀é漢👩‍👩‍👧"
        for (u16, u8) in [(0, 0), (1, 1), (3, 5), (4, 7), (5, 10)] {
            #expect(s.utf8Offset(forUTF16Offset: u16) == u8)
            #expect(s.utf16Offset(forUTF8Offset: u8) == u16)
        }
        #expect(s.utf8Offset(forUTF16Offset: 2) == nil)  // inside the surrogate pair of 😀
        #expect(s.utf16Offset(forUTF8Offset: 2) == nil)  // inside 😀's UTF-8
    }

    @Test func invalidUTF8Offsets() {
        #expect(UTF8Validation.firstInvalidOffset(in: Array("héllo".utf8)) == nil)
        #expect(UTF8Validation.firstInvalidOffset(in: [0x61, 0xFF]) == 1)
        #expect(UTF8Validation.firstInvalidOffset(in: [0x61, 0xE2, 0x82]) == 1)
        #expect(UTF8Validation.firstInvalidOffset(in: [0xC0, 0x80]) == 0)  // overlong
        #expect(UTF8Validation.firstInvalidOffset(in: [0xED, 0xA0, 0x80]) == 0)  // surrogate
    }

    @Test func numbersAreFixed() {
        var w = JSONWriter()
        w.array { w in
            for d in [0.0, 1.5, -0.03333333, 2, 1e-9, 123456.78904] { w.number(d) }
        }
        #expect(w.string == "[0,1.5,-0.0333,2,0,123456.789]")
    }
}
