import Foundation
import SpoilerKit
import Testing

/// The models are Codable in the shapes the command line writes.
@Suite("Codable models")
struct CodableTests {
    @Test("A message decodes from and encodes to the Bot API's JSON")
    func message() throws {
        let json =
            #"{"text":"hi there","entities":[{"type":"text_link","offset":0,"length":2,"url":"http://t.me/"},{"type":"spoiler","offset":3,"length":5}]}"#
        let decoded = try JSONDecoder().decode(Message.self, from: Data(json.utf8))
        #expect(decoded == (try Message(parsing: json, as: .botAPI)))
        #expect(decoded.entities[0].url == "http://t.me/")
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let back = String(decoding: try encoder.encode(decoded), as: UTF8.self)
        #expect(back.contains(#"{"length":2,"offset":0,"type":"text_link","url":"http:\/\/t.me\/"}"#))
        #expect(try JSONDecoder().decode(Message.self, from: encoder.encode(decoded)) == decoded)
    }

    @Test("A layout survives a round trip, geometry keys as in the geometry JSON")
    func layout() throws {
        let layout = try Message(parsing: "the butler ||did it||").layout(width: 12)
        let data = try JSONEncoder().encode(layout)
        #expect(try JSONDecoder().decode(TextLayout.self, from: data) == layout)
        let rect = String(decoding: try JSONEncoder().encode(layout.words[0].rect), as: UTF8.self)
        #expect(rect.contains(#""x":0"#) && rect.contains(#""y":16"#) && rect.contains(#""width":24"#))
    }
}

/// What a host copies out of a view's cells.
@Suite("CellCanvas text")
struct CellCanvasTextTests {
    @Test("A cell gives its grapheme: one scalar, a wide one, a cluster, a control made visible")
    func cellText() {
        var canvas = CellCanvas(width: 8, height: 1)
        var column = 0
        for (text, columns) in [("a", 1), ("漢", 2), ("👩‍👩‍👧", 2), ("\u{1B}", 1)] {
            column += canvas.put(text, column: column, row: 0, columns: columns, style: .plain)
        }
        #expect(canvas.text(column: 0, row: 0) == "a")
        #expect(canvas.text(column: 1, row: 0) == "漢")
        #expect(canvas.text(column: 2, row: 0) == "", "the trailing cell of a wide character")
        #expect(canvas.text(column: 3, row: 0) == "👩‍👩‍👧")
        #expect(canvas.text(column: 5, row: 0) == "␛")
        #expect(canvas.text(row: 0) == "a漢👩‍👩‍👧␛")
    }
}
