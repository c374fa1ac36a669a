import Foundation
import SpoilerCore
import Testing

/// An entity is 16 bytes, and keeps its value semantics: the type and the rare fields
/// read back as set, equality and hashing see every field, and decoding refuses offsets
/// it cannot hold.
@Suite struct EntityTests {
    @Test func anEntityTakesSixteenBytes() {
        // A message can hold millions of entities: 16 bytes each, not 32.
        #expect(MemoryLayout<Entity>.stride == 16)
    }

    @Test func typeOffsetLengthAndFieldsReadBackAsSet() {
        var e = Entity(.textLink, offset: 7, length: 3, url: "https://example.com")
        #expect(e.type == .textLink && e.offset == 7 && e.length == 3 && e.end == 10)
        #expect(e.url == "https://example.com")
        e.type = .pre
        #expect(e.type == .pre && e.url == "https://example.com")
        e.url = nil
        #expect(e.type == .pre && e.url == nil)
        #expect(e == Entity(.pre, offset: 7, length: 3))
        e.language = "swift"
        e.type = .code
        #expect(e.type == .code && e.language == "swift")
        e.offset = -2
        e.length = Entity.maxUTF16Offset
        #expect(e.offset == -2 && e.length == Int(Int32.max))
        e.reason = "why"
        e.language = nil
        #expect(e.type == .code && e.reason == "why" && e.language == nil)
    }

    @Test func equalityAndHashingSeeEveryField() {
        let base = Entity(.spoiler, offset: 1, length: 2, reason: "r")
        let others = [
            Entity(.spoiler, offset: 1, length: 2),
            Entity(.spoiler, offset: 1, length: 2, reason: "s"),
            Entity(.bold, offset: 1, length: 2, reason: "r"),
            Entity(.spoiler, offset: 0, length: 2, reason: "r"),
            Entity(.spoiler, offset: 1, length: 3, reason: "r"),
        ]
        for other in others { #expect(other != base) }
        #expect(Set(others + [base, Entity(.spoiler, offset: 1, length: 2, reason: "r")]).count == 6)
        // Made in two steps, the same value as made at once.
        var stepped = Entity(.spoiler, offset: 1, length: 2)
        stepped.reason = "r"
        #expect(stepped == base && stepped.hashValue == base.hashValue)
    }

    @Test func decodingRefusesOffsetsPastThirtyOneBits() throws {
        let ok = #"{"type":"bold","offset":2147483647,"length":-2147483647}"#
        let e = try JSONDecoder().decode(Entity.self, from: Data(ok.utf8))
        #expect(e.offset == Int(Int32.max) && e.length == -Int(Int32.max))
        for bad in [
            #"{"type":"bold","offset":2147483648,"length":1}"#, #"{"type":"bold","offset":0,"length":-4294967296}"#,
        ] {
            #expect(throws: DecodingError.self) { try JSONDecoder().decode(Entity.self, from: Data(bad.utf8)) }
        }
    }
}
