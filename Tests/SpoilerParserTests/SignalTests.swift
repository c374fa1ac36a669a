import SpoilerCore
import SpoilerParser
import Testing

/// signal-cli's JSON (AsamK/signal-cli: `JsonTextStyle(style, start, length)` in a received
/// `dataMessage.textStyles`; `send --text-style start:length:STYLE`).
@Suite struct SignalTests {
    func parse(_ s: String) throws -> Message { try MessageParser.parse(s, from: .signal) }

    @Test func readsAReceivedEnvelope() throws {
        let json =
            #"{"envelope":{"source":"+1555","timestamp":1,"dataMessage":{"timestamp":1,"message":"the butler did it","textStyles":[{"style":"SPOILER","start":11,"length":6},{"style":"BOLD","start":0,"length":3}]}},"account":"+1556"}"#
        #expect(
            try parse(json)
                == Message(
                    text: "the butler did it",
                    entities: [Entity(.bold, offset: 0, length: 3), Entity(.spoiler, offset: 11, length: 6)]))
    }

    @Test func readsJSONRPCReceiveAndSend() throws {
        let receive =
            #"{"jsonrpc":"2.0","method":"receive","params":{"envelope":{"dataMessage":{"message":"a😀b","textStyles":[{"style":"ITALIC","start":1,"length":2}]}}}}"#
        #expect(try parse(receive) == Message(text: "a😀b", entities: [Entity(.italic, offset: 1, length: 2)]))
        let send =
            #"{"jsonrpc":"2.0","method":"send","params":{"message":"x y","textStyle":["0:1:MONOSPACE","2:1:STRIKETHROUGH"]}}"#
        #expect(
            try parse(send)
                == Message(
                    text: "x y",
                    entities: [Entity(.code, offset: 0, length: 1), Entity(.strikethrough, offset: 2, length: 1)]))
    }

    @Test(arguments: [
        (
            #"{"message":"abc","textStyles":[{"style":"SPOILER","start":2,"length":5}]}"#,
            "textStyles[0] (SPOILER): start 2 + length 5 = 7 is past the end of the text (3 UTF-16 code units)"
        ),
        (
            #"{"message":"a😀","textStyles":[{"style":"BOLD","start":0,"length":2}]}"#,
            "textStyles[0] (BOLD): start 0 + length 2 = 2 splits a surrogate pair"
        ),
        (
            #"{"message":"a😀","textStyles":[{"style":"BOLD","start":2,"length":1}]}"#,
            "textStyles[0] (BOLD): start 2 splits a surrogate pair"
        ),
        (#"{"message":"ab","textStyles":[{"style":"BOLD","start":-1,"length":1}]}"#, "start -1 is negative"),
        (#"{"message":"ab","textStyles":[{"style":"BOLD","start":0,"length":0}]}"#, "length 0 is not positive"),
        (#"{"message":"ab","textStyles":[{"style":"BLINK","start":0,"length":1}]}"#, "unknown style 'BLINK'"),
        (#"{"message":"ab","textStyle":["0:x:BOLD"]}"#, "textStyle[0]: expected 'start:length:STYLE'"),
        (#"{"textStyles":[]}"#, "'message' is required"),
    ])
    func badRangesAreErrors(json: String, reason: String) {
        #expect {
            try parse(json)
        } throws: { error in
            (error as? ParseError)?.reason.contains(reason) ?? false
        }
    }

    @Test func writesTextStylesAndDropsWhatSignalCannotSay() throws {
        let m = Message(
            text: "a b c d",
            entities: [
                Entity(.spoiler, offset: 0, length: 1, reason: "r"), Entity(.underline, offset: 2, length: 1),
                Entity(.pre, offset: 4, length: 1),
            ])
        let out = MessageSerializer.serialize(m, to: .signal, options: SerializationOptions())
        #expect(
            out.output
                == #"{"message":"a b c d","textStyles":[{"style":"SPOILER","start":0,"length":1},{"style":"MONOSPACE","start":4,"length":1}]}"#
        )
        #expect(out.warnings.map(\.description) == [#"entity 0 (spoiler): reason "r" dropped: signal cannot carry it"#])
        #expect(
            try parse(out.output)
                == Message(
                    text: "a b c d",
                    entities: [Entity(.spoiler, offset: 0, length: 1), Entity(.code, offset: 4, length: 1)]))
    }
}
