import SpoilerCore
import SpoilerLayout
import SpoilerParser
import Testing

/// Geometry of texts whose UTF-8 nobody checked before
/// (``LayoutEngine/appendGeometryJSON(uncheckedUTF8:entities:id:redact:to:)``), and NDJSON
/// lines read with the check left to the layout
/// (``NDJSONRecord/readPlainMessage(line:format:options:buffers:uncheckedUTF8:)``), against
/// the checked ways: the same bytes for valid text, nothing at all for invalid.
@Suite struct UncheckedUTF8Tests {
    /// Bytes that are not valid UTF-8 where they stand: stray continuation bytes, lead
    /// bytes cut short, C0, C1, F5 and FF, overlong forms, surrogates, a value past
    /// U+10FFFF, and a lead whose length runs into the next scalar.
    static let badPieces: [[UInt8]] = [
        [0x80], [0xBF], [0xC3], [0xE4, 0xB8], [0xF0, 0x9F, 0x98], [0xC0, 0xAF], [0xC1, 0xBF], [0xE0, 0x80, 0xAF],
        [0xE0, 0x9F, 0xBF], [0xED, 0xA0, 0x80], [0xED, 0xBF, 0xBF], [0xF0, 0x8F, 0xBF, 0xBF], [0xF4, 0x90, 0x80, 0x80],
        [0xF5, 0x80, 0x80, 0x80], [0xFF], [0xE0, 0xE4, 0xB8, 0x80], [0xF0, 0x9F, 0x87], [0xF0, 0x9F, 0x87, 0xE6],
        [0xE4, 0xB8, 0xC3], [0xE2, 0x80], [0xEF, 0xB8],
    ]

    /// A text of ``GeometryStreamTests/pieces``, with a bad piece at a random place in some.
    static func text(_ rng: inout SplitMix64) -> [UInt8] {
        var bytes: [UInt8] = []
        let count = Int(rng.next() % 30)
        let bad = rng.next() % 2 == 0 ? Int(rng.next() % UInt64(count + 1)) : -1
        for k in 0...count {
            if k == bad { bytes += badPieces[Int(rng.next() % UInt64(badPieces.count))] }
            if k < count {
                bytes += Array(
                    GeometryStreamTests.pieces[Int(rng.next() % UInt64(GeometryStreamTests.pieces.count))].utf8)
            }
        }
        return bytes
    }

    static func bytes(_ out: JSONOutputBuffer) -> [UInt8] { out.withUnsafeBytes { Array($0) } }

    @Test func uncheckedLayoutWritesTheCheckedBytesOrNothing() {
        var rng = SplitMix64(seed: 0x5EED_0F_0BAD)
        var invalid = 0
        for round in 0..<20_000 {
            let bytes = Self.text(&rng)
            let units = String(decoding: bytes, as: UTF8.self).utf16.count
            let entities = GeometryStreamTests.entities(&rng, utf16Count: units)
            let engine = GeometryStreamTests.engines[round % GeometryStreamTests.engines.count]
            let valid = UTF8Validation.firstInvalidOffset(in: bytes) == nil
            // The text alone in a buffer of its own size, so that a read past it would be
            // a read past the allocation.
            let text = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: bytes.count)
            defer { text.deallocate() }
            _ = text.initialize(from: bytes)
            var unchecked = JSONOutputBuffer()
            let written = engine.appendGeometryJSON(
                uncheckedUTF8: UnsafeBufferPointer(text), entities: entities, id: nil, redact: round % 3 == 0,
                to: &unchecked)
            #expect(written == valid, "round \(round): \(bytes)")
            if valid {
                var checked = JSONOutputBuffer()
                engine.appendGeometryJSON(
                    utf8: UnsafeBufferPointer(text), entities: entities, id: nil, redact: round % 3 == 0, to: &checked)
                #expect(Self.bytes(unchecked) == Self.bytes(checked), "round \(round): \(bytes)")
            } else {
                invalid += 1
                #expect(unchecked.count == 0, "round \(round): \(bytes)")
            }
        }
        #expect(invalid > 5_000)
    }

    /// An NDJSON line of plain markup whose text holds the pieces, spoiler delimiters
    /// between any two of them (`||` may then come between two parts of a sequence), JSON
    /// escapes and plain escapes, and sometimes a bad piece.
    static func line(_ rng: inout SplitMix64) -> [UInt8] {
        let extra: [[UInt8]] = [
            Array("||".utf8), Array(#"\\|"#.utf8), Array(#"\n"#.utf8), Array(#"\""#.utf8), Array("`".utf8),
            Array(#"\\\\"#.utf8), Array(" ".utf8), Array(#"\\`"#.utf8), Array("|".utf8),
        ]
        var text: [UInt8] = []
        for _ in 0..<Int(rng.next() % 24) {
            switch rng.next() % 8 {
            case 0, 1, 2: text += extra[Int(rng.next() % UInt64(extra.count))]
            case 3 where rng.next() % 3 == 0: text += badPieces[Int(rng.next() % UInt64(badPieces.count))]
            case 5 where rng.next() % 4 == 0:
                // Any byte from 80 on: part of a sequence, or none.
                text.append(UInt8(0x80 + rng.next() % 0x80))
            case 4:
                // A sequence cut in two by a delimiter the text leaves out: a spoiler's or a
                // code span's.
                let whole = Array(["é", "映", "😀", "Ж"][Int(rng.next() % 4)].utf8)
                let cut = 1 + Int(rng.next() % UInt64(whole.count - 1))
                text += whole[..<cut] + Array((rng.next() % 2 == 0 ? "||" : "`").utf8) + whole[cut...]
            default:
                let piece = GeometryStreamTests.pieces[Int(rng.next() % UInt64(GeometryStreamTests.pieces.count))]
                // JSON-escaped: controls, quotes and backslashes.
                var w = JSONWriter()
                w.string(piece)
                text += w.bytes.dropFirst().dropLast()
            }
        }
        let quoted = [UInt8(ascii: "\"")] + text + [UInt8(ascii: "\"")]
        return rng.next() % 2 == 0 ? quoted : Array(#"{"id":7,"text":"#.utf8) + quoted + [UInt8(ascii: "}")]
    }

    @Test func linesReadUncheckedGiveTheCheckedGeometry() {
        var rng = SplitMix64(seed: 0xBAD_11E5)
        var buffers = NDJSONLineBuffers()
        let engine = LayoutEngine()
        var joined = 0
        for round in 0..<20_000 {
            let line = Self.line(&rng)
            line.withUnsafeBufferPointer { line in
                var checked = JSONOutputBuffer()
                let checkedRead = NDJSONRecord.readPlainMessage(line: line, format: .plain, buffers: &buffers) {
                    text, entities, id in
                    engine.appendGeometryJSON(utf8: text, entities: entities, id: id, redact: false, to: &checked)
                }
                var unchecked = JSONOutputBuffer()
                let uncheckedRead = NDJSONRecord.readPlainMessage(
                    line: line, format: .plain, buffers: &buffers,
                    uncheckedUTF8: { text, entities, id in
                        engine.appendGeometryJSON(
                            uncheckedUTF8: text, entities: entities, id: id, redact: false, to: &unchecked)
                    })
                #expect(uncheckedRead == checkedRead, "round \(round): \(Array(line))")
                #expect(Self.bytes(unchecked) == Self.bytes(checked), "round \(round): \(Array(line))")
                if !checkedRead && UTF8Validation.firstInvalidOffset(in: line) != nil { joined += 1 }
            }
        }
        #expect(joined > 2_000)
    }
}
