import Foundation
import SpoilerCore
import SpoilerParser
import SpoilerTestSupport
import Testing

/// One case of `shared/conformance/tdlib-vectors.jsonl`: TDLib's own test-suite
/// (test/message_entities.cpp), as TDLib answers it.
struct ConformanceVector: CustomStringConvertible {
    var format: InputFormat
    var input: String
    var ok: Bool
    var text: String?
    var entities: [Entity]
    var error: String?
    var sourceLine: Int

    var description: String {
        "line \(sourceLine) \(format.rawValue) \(String(reflecting: input))"
    }

    /// Reads every vector; records an issue (so the run fails) when the file is missing.
    static func loadAll(sourceLocation: SourceLocation = #_sourceLocation) -> [ConformanceVector] {
        load(fixturesRoot.appendingPathComponent("conformance/tdlib-vectors.jsonl"), sourceLocation: sourceLocation)
    }

    /// Reads the vectors of a JSON Lines file; records an issue when it is missing.
    static func load(_ url: URL, sourceLocation: SourceLocation = #_sourceLocation) -> [ConformanceVector] {
        guard let data = try? Data(contentsOf: url) else {
            Issue.record("The conformance vectors are missing: \(url.path)", sourceLocation: sourceLocation)
            return []
        }
        var vectors: [ConformanceVector] = []
        for (index, line) in data.split(separator: UInt8(ascii: "\n")).enumerated() {
            do {
                let json = try JSONValue.parse(Array(line))
                vectors.append(try ConformanceVector(json))
            } catch {
                Issue.record("Line \(index + 1) of the vectors is unreadable: \(error)", sourceLocation: sourceLocation)
            }
        }
        return vectors
    }

    struct Unreadable: Error { var field: String }

    init(_ json: JSONValue) throws {
        guard let f = json["format"]?.stringValue, let format = InputFormat(rawValue: f) else {
            throw Unreadable(field: "format")
        }
        self.format = format
        guard let input = json["input"]?.stringValue else { throw Unreadable(field: "input") }
        self.input = input
        guard case .bool(let ok)? = json["ok"] else { throw Unreadable(field: "ok") }
        self.ok = ok
        text = json["text"]?.stringValue
        error = json["error"]?.stringValue
        sourceLine = Int(json["source_line"]?.intValue ?? 0)
        entities = try (json["entities"]?.arrayValue ?? []).map { e in
            guard let t = e["type"]?.stringValue, let type = EntityType(rawValue: t),
                let offset = e["offset"]?.intValue, let length = e["length"]?.intValue
            else { throw Unreadable(field: "entities") }
            return Entity(
                type, offset: Int(offset), length: Int(length), url: e["url"]?.stringValue,
                language: e["language"]?.stringValue, customEmojiID: e["custom_emoji_id"]?.stringValue,
                userID: e["user_id"]?.intValue, unixTime: e["unix_time"]?.intValue,
                tdlibDateFlags: e["tdlib_date_flags"]?.intValue.map { Int($0) },
                dateTimeFormat: e["date_time_format"]?.stringValue)
        }
    }

    /// Nil when our parser gives TDLib's answer, else what differs.
    func mismatch() -> String? {
        let result: Result<Message, ParseError>
        do {
            result = .success(try MessageParser.parse(input, from: format))
        } catch {
            result = .failure(error)
        }
        switch (ok, result) {
        case (true, .success(let message)):
            if message.text != text {
                return "text \(String(reflecting: message.text)), expected \(String(reflecting: text))"
            }
            // The vectors list entities in TDLib's order: by offset, then length descending,
            // then TDLib's type priority. Ours are in canonical order (offset, then length
            // descending) with ties kept in TDLib's order, so the lists must be equal as they are.
            if message.entities != entities {
                return "entities \(Message(text: "", unsortedEntities: message.entities).jsonString), "
                    + "expected \(Message(text: "", unsortedEntities: entities).jsonString)"
            }
            return nil
        case (true, .failure(let e)):
            return "error \(String(reflecting: e.reason)), expected success"
        case (false, .success(let message)):
            return "success \(message.jsonString), expected error \(String(reflecting: error))"
        case (false, .failure(let e)):
            return e.reason == error
                ? nil : "error \(String(reflecting: e.reason)), expected \(String(reflecting: error))"
        }
    }
}

@Suite("TDLib conformance")
struct ConformanceTests {
    static let vectors = ConformanceVector.loadAll()

    @Test("Every TDLib vector gives TDLib's answer")
    func allVectors() {
        let vectors = Self.vectors
        #expect(vectors.count == 342, "expected the 342 vectors of the conformance set")
        var passed = 0
        for vector in vectors {
            if let why = vector.mismatch() {
                Issue.record("\(vector): \(why)")
            } else {
                passed += 1
            }
        }
        print("TDLib conformance: \(passed) of \(vectors.count) vectors pass")
    }

    @Test("TDLib's entity order agrees with the canonical order but for ties")
    func orderIsCanonicalButForTies() {
        for vector in Self.vectors where vector.ok {
            #expect(Message.sorted(vector.entities) == vector.entities, "\(vector)")
        }
    }

    @Test("Both formats are covered", arguments: [InputFormat.markdownV2, .html])
    func formatCovered(format: InputFormat) {
        #expect(Self.vectors.contains { $0.format == format && $0.ok })
        #expect(Self.vectors.contains { $0.format == format && !$0.ok })
    }
}
