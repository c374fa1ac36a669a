public import SpoilerCore

/// Reads a Signal message in signal-cli's JSON (`--from signal`).
///
/// signal-cli (github.com/AsamK/signal-cli) writes a received message's body ranges as
/// `textStyles`, objects of its `JsonTextStyle` record (`style`, `start`, `length`), in the
/// `dataMessage` of an `envelope` (`signal-cli -o json receive`, and the JSON-RPC `receive`
/// notification); its `send` takes them as `--text-style start:length:STYLE`, the JSON-RPC
/// parameter `textStyle` holding such strings. All these are read:
///
/// ```json
/// {"message": "the butler did it", "textStyles": [{"style": "SPOILER", "start": 11, "length": 6}]}
/// {"envelope": {"dataMessage": {"message": …, "textStyles": […]}}}
/// {"jsonrpc": "2.0", "method": "send", "params": {"message": …, "textStyle": ["11:6:SPOILER"]}}
/// ```
///
/// Styles: `BOLD`, `ITALIC`, `STRIKETHROUGH`, `MONOSPACE` (`code`), `SPOILER`; `NONE` gives no
/// entity. `start` and `length` count UTF-16 code units, as Signal's protocol does. A range
/// must be whole numbers with `start ≥ 0`, `length ≥ 1`, inside the text and not splitting a
/// surrogate pair; the first that is not is an error naming it (`textStyles[1] (SPOILER):
/// start 3 + length 9 = 12 is past the end of the text (8 UTF-16 code units)`).
public enum SignalParser {
    static func parse(_ bytes: [UInt8]) throws(ParseError) -> Message {
        if let m = plainMessage(bytes) { return m }
        return try message(from: ParseError.parsingJSON(bytes))
    }

    /// The message of `{"message": …, "textStyles": [{"style": …, "start": …, "length": …}]}`
    /// (members in any order, each once) with valid ranges, read by ``FlatJSONReader``;
    /// nil for anything else, which ``message(from:)`` then reads or names the error of.
    static func plainMessage(_ bytes: [UInt8]) -> Message? {
        var reader = FlatJSONReader(bytes)
        var text: JSONStringRange?
        // The styles' entities (nil for `NONE`), in order.
        var styles: [Entity?]?
        let read = reader.members { r, key in
            if r.range(key, is: "message") {
                guard text == nil, let t = r.stringRange() else { return false }
                text = t
                return true
            }
            guard r.range(key, is: "textStyles"), styles == nil else { return false }
            var list: [Entity?] = []
            let ok = r.array { r in
                var type: EntityType??
                var start: Int64?
                var length: Int64?
                let ok = r.members { r, key in
                    if r.range(key, is: "style"), type == nil, let v = r.stringRange() {
                        // An unknown style makes the message the full reader's.
                        guard let t = styleType(r, v) else { return false }
                        type = t
                    } else if r.range(key, is: "start"), start == nil, let v = r.integer() {
                        start = v
                    } else if r.range(key, is: "length"), length == nil, let v = r.integer() {
                        length = v
                    } else {
                        return false
                    }
                    return true
                }
                guard ok, let type, let start, let length else { return false }
                list.append(type.map { Entity($0, offset: Int(start), length: Int(length)) })
                return true
            }
            styles = list
            return ok
        }
        guard read, reader.atEnd(), let text else { return nil }
        let textBytes = reader.bytes(of: text)
        var entities: [Entity] = []
        if let styles, !styles.isEmpty {
            entities.reserveCapacity(styles.count)
            for e in styles {
                guard let e else { continue }
                guard e.length >= 1 else { return nil }
                entities.append(e)
            }
            guard textBytes.withUnsafeBufferPointer({ rangesFit(entities, in: $0) }) else { return nil }
        }
        return Message(text: String(decoding: textBytes, as: UTF8.self), entities: entities)
    }

    /// The entity type of a style name (`.some(nil)` for `NONE`), nil for any other name.
    static func styleType(_ r: FlatJSONReader, _ v: JSONStringRange) -> EntityType?? {
        if r.range(v, is: "SPOILER") { return .spoiler }
        if r.range(v, is: "BOLD") { return .bold }
        if r.range(v, is: "ITALIC") { return .italic }
        if r.range(v, is: "STRIKETHROUGH") { return .strikethrough }
        if r.range(v, is: "MONOSPACE") { return .code }
        if r.range(v, is: "NONE") { return .some(nil) }
        return nil
    }

    /// Whether every entity (UTF-16 offsets) ends inside the text `p` (UTF-8) and neither
    /// starts nor ends inside a surrogate pair: the entities' edges sorted, then one pass
    /// over the text, eight bytes at a time where no four-byte scalar starts.
    static func rangesFit(_ entities: [Entity], in p: UnsafeBufferPointer<UInt8>) -> Bool {
        guard !entities.isEmpty else { return true }
        var edges: [Int] = []
        edges.reserveCapacity(2 * entities.count)
        for e in entities {
            edges.append(e.offset)
            edges.append(e.end)
        }
        edges.sort()
        let high: UInt64 = 0x8080_8080_8080_8080
        var units = 0
        var next = 0
        // Whether the four-byte scalar at `unit` has an edge inside it (at its second unit).
        func splits(_ unit: Int) -> Bool {
            while next < edges.count && edges[next] <= unit { next += 1 }
            return next < edges.count && edges[next] == unit + 1
        }
        var i = 0
        let n = p.count
        guard let base = p.baseAddress else { return edges.last! <= 0 }
        while i < n {
            if i + 8 <= n {
                let w = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
                if w & (w &<< 1) & (w &<< 2) & (w &<< 3) & high == 0 {
                    units += UTF8Message.utf16Units(inWord: w, bytes: 8)
                    i += 8
                    continue
                }
            }
            // A word with a four-byte scalar (or the last bytes): one byte at a time.
            let stop = min(i + 8, n)
            while i < stop {
                let c = base[i]
                if c & 0xC0 != 0x80 {
                    if c >= 0xF0 {
                        if splits(units) { return false }
                        units += 2
                    } else {
                        units += 1
                    }
                }
                i += 1
            }
        }
        return edges.last! <= units
    }

    /// The message in an already parsed signal-cli JSON value.
    ///
    /// - Throws: ``ParseError`` of kind `invalidJSON` for the wrong shape, `invalidEntity`
    ///   naming the bad range.
    public static func message(from value: JSONValue) throws(ParseError) -> Message {
        var v = value
        for _ in 0..<4 {
            guard case .object = v else { break }
            if v["message"] != nil { break }
            if let inner = v["params"] ?? v["envelope"] ?? v["dataMessage"] ?? v["syncMessage"]?["sentMessage"] {
                v = inner
            } else if let inner = v["syncMessage"] {
                v = inner
            } else {
                break
            }
        }
        guard case .object = v else {
            throw ParseError(
                .invalidJSON, "expected a signal-cli message object: {\"message\": …, \"textStyles\": […]}")
        }
        guard let textValue = v["message"] else {
            throw ParseError(.invalidJSON, "Signal message: 'message' is required")
        }
        let text: String
        switch textValue {
        case .string(let s): text = s
        case .null: text = ""
        default: throw ParseError(.invalidJSON, "Signal message: 'message' must be a string")
        }
        let key = v["textStyles"] != nil ? "textStyles" : "textStyle"
        var entities: [Entity] = []
        switch v[key] {
        case nil, .null?: break
        case .array(let items)?:
            let units = UTF16Units(text)
            for (index, item) in items.enumerated() {
                if let e = try range(item, key: key, index: index, units: units) { entities.append(e) }
            }
        default:
            throw ParseError(.invalidJSON, "Signal message: '\(key)' must be an array")
        }
        return Message(text: text, entities: entities)
    }

    /// The UTF-16 length of a text and where its surrogate pairs are, without making the
    /// UTF-16 view (which costs more than the rest of reading a message).
    struct UTF16Units {
        var count = 0
        /// The offsets of the second units of surrogate pairs, in order.
        var trails: [Int] = []

        init(_ text: String) {
            var text = text
            var n = 0
            var pairs: [Int] = []
            text.withUTF8 { bytes in
                for b in bytes where b & 0xC0 != 0x80 {
                    if b >= 0xF0 {
                        pairs.append(n + 1)
                        n += 2
                    } else {
                        n += 1
                    }
                }
            }
            count = n
            trails = pairs
        }

        /// Whether offset `k` is inside a surrogate pair.
        func splitsPair(_ k: Int) -> Bool {
            var lo = 0
            var hi = trails.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if trails[mid] < k { lo = mid + 1 } else { hi = mid }
            }
            return lo < trails.count && trails[lo] == k
        }
    }

    static func range(_ item: JSONValue, key: String, index: Int, units: UTF16Units) throws(ParseError) -> Entity? {
        var styleName: String?
        func fail(_ reason: String) -> ParseError {
            ParseError(.invalidEntity, "\(key)[\(index)]\(styleName.map { " (\($0))" } ?? ""): \(reason)")
        }
        let style: String
        let start: Int64
        let length: Int64
        switch item {
        case .string(let s):
            // signal-cli's `--text-style` form, `start:length:STYLE`.
            let parts = s.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 3, let a = Int64(parts[0]), let b = Int64(parts[1]) else {
                throw fail("expected 'start:length:STYLE', got '\(s)'")
            }
            style = String(parts[2])
            start = a
            length = b
        case .object:
            guard let s = item["style"]?.stringValue else { throw fail("'style' must be a string") }
            guard case .number? = item["start"], let a = item["start"]?.intValue else {
                throw fail("'start' must be a whole number")
            }
            guard case .number? = item["length"], let b = item["length"]?.intValue else {
                throw fail("'length' must be a whole number")
            }
            style = s
            start = a
            length = b
        default:
            throw fail("expected an object with 'style', 'start' and 'length'")
        }
        styleName = style
        let type: EntityType
        switch style == "SPOILER" ? style : style.uppercased() {
        case "BOLD": type = .bold
        case "ITALIC": type = .italic
        case "STRIKETHROUGH": type = .strikethrough
        case "MONOSPACE": type = .code
        case "SPOILER": type = .spoiler
        case "NONE": return nil
        default: throw fail("unknown style '\(style)' (expected BOLD, ITALIC, SPOILER, STRIKETHROUGH, MONOSPACE)")
        }
        guard start >= 0 else { throw fail("start \(start) is negative") }
        guard length >= 1 else { throw fail("length \(length) is not positive") }
        let count = Int64(units.count)
        guard start <= count, length <= count - start else {
            throw fail(
                "start \(start) + length \(length) = \(start &+ length) is past the end of the text (\(count) UTF-16 code units)"
            )
        }
        if units.splitsPair(Int(start)) {
            throw fail("start \(start) splits a surrogate pair")
        }
        let end = Int(start + length)
        if units.splitsPair(end) {
            throw fail("start \(start) + length \(length) = \(end) splits a surrogate pair")
        }
        return Entity(type, offset: Int(start), length: Int(length))
    }
}
