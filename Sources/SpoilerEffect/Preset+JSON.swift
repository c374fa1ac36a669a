import SpoilerCore

extension Preset {
    /// Reads a preset from JSON with Core Animation's field names.
    ///
    /// The object may hold the emitter's fields (`emitterShape`: point, line, rectangle,
    /// circle; `emitterMode`: points, outline, surface or volume; `birthRate`, `lifetime`,
    /// `seed`, `emitterCells`), the preset's own (`name`, `inset` in pixels,
    /// `confinement`: none, bounce, wrap), and `emitterPosition`/`emitterSize`, which are
    /// accepted and ignored (every word's emitter is placed on the word). Each cell takes
    /// ``EmitterCell``'s fields, `color` as `"#rrggbb"`, `contents` as a shape name.
    /// A field left out keeps Core Animation's default; an unknown field is an error, so
    /// that a misspelt name does not pass silently. Numbers are read to six decimal places,
    /// the precision ``json`` writes, so that a preset read back from its JSON is the same.
    ///
    /// ```json
    /// {"name": "embers", "emitterShape": "rectangle", "confinement": "bounce",
    ///  "emitterCells": [{"birthRate": 20, "lifetime": 1, "velocityRange": 20,
    ///                    "emissionRange": 6.2832, "color": "#ff8800"}]}
    /// ```
    ///
    /// - Parameter bytes: the file's bytes (UTF-8 JSON).
    /// - Throws: ``PresetError`` naming the line, column and field.
    /// - Complexity: O(n).
    public static func parse(json bytes: [UInt8]) throws(PresetError) -> Preset {
        let value: JSONValue
        do {
            value = try JSONValue.parse(bytes)
        } catch {
            throw PresetError(reason: error.reason, field: "", position: error.position)
        }
        let reader = PresetReader(bytes: bytes, offsets: JSONOffsets.scan(bytes))
        return try reader.preset(value)
    }

    /// The preset as JSON with Core Animation's field names (what ``parse(json:)`` reads).
    public var json: String {
        var w = JSONWriter()
        w.object { w in
            w.key("name"); w.string(name)
            w.key("emitterShape"); w.string(emitter.emitterShape.rawValue)
            w.key("emitterMode"); w.string(emitter.emitterMode.rawValue)
            w.key("birthRate"); w.number(emitter.birthRate, decimals: 6)
            w.key("lifetime"); w.number(emitter.lifetime, decimals: 6)
            w.key("seed"); w.number(emitter.seed)
            w.key("inset"); w.number(inset, decimals: 6)
            w.key("confinement"); w.string(confinement.rawValue)
            w.key("emitterCells")
            w.array { w in
                for c in emitter.emitterCells {
                    w.object { w in
                        if let n = c.name {
                            w.key("name"); w.string(n)
                        }
                        for (k, v) in c.numberFields {
                            w.key(k); w.number(v, decimals: 6)
                        }
                        w.key("color"); w.string(c.color.hexString)
                        w.key("contents"); w.string(c.contents.rawValue)
                        w.key("alphaOverLife")
                        w.array { w in for v in c.alphaOverLife { w.number(v, decimals: 6) } }
                    }
                }
            }
        }
        return w.string
    }
}

extension EmitterCell {
    /// The numeric fields, by their JSON names, with their bounds.
    static var numberFieldSpecs:
        [(name: String, path: WritableKeyPath<EmitterCell, Double>, range: ClosedRange<Double>)]
    {
        [
            ("birthRate", \.birthRate, 0...100_000), ("lifetime", \.lifetime, 0...3600),
            ("lifetimeRange", \.lifetimeRange, 0...3600), ("velocity", \.velocity, -100_000...100_000),
            ("velocityRange", \.velocityRange, 0...100_000), ("emissionLongitude", \.emissionLongitude, -1000...1000),
            ("emissionRange", \.emissionRange, 0...1000), ("xAcceleration", \.xAcceleration, -1e6...1e6),
            ("yAcceleration", \.yAcceleration, -1e6...1e6), ("spin", \.spin, -1e4...1e4),
            ("spinRange", \.spinRange, 0...1e4),
            ("scale", \.scale, 0...1000), ("scaleRange", \.scaleRange, 0...1000),
            ("scaleSpeed", \.scaleSpeed, -1000...1000),
            ("alpha", \.alpha, 0...1), ("alphaRange", \.alphaRange, 0...1), ("alphaSpeed", \.alphaSpeed, -1000...1000),
            ("redRange", \.redRange, 0...1), ("greenRange", \.greenRange, 0...1), ("blueRange", \.blueRange, 0...1),
            ("contentsSize", \.contentsSize, 0...1000),
        ]
    }

    var numberFields: [(String, Double)] { EmitterCell.numberFieldSpecs.map { ($0.name, self[keyPath: $0.path]) } }
}

/// Converts a parsed preset document, naming the field and its position on errors.
struct PresetReader {
    let bytes: [UInt8]
    let offsets: [String: Int]

    func error(_ reason: String, _ field: String) -> PresetError {
        // The closest field with a known position: the field, else its parents.
        var path = field
        while offsets[path] == nil, let cut = path.lastIndex(where: { $0 == "." || $0 == "[" }) {
            path = String(path[..<cut])
        }
        return PresetError(
            reason: reason, field: field, position: TextPosition(utf8Offset: offsets[path] ?? 0, in: bytes))
    }

    func members(_ v: JSONValue, _ field: String, allowed: [String]) throws(PresetError) -> [(
        key: String, value: JSONValue
    )] {
        guard case .object(let m) = v else { throw error("expected an object", field) }
        for (k, _) in m where !allowed.contains(k) {
            let sub = field.isEmpty ? k : "\(field).\(k)"
            var reason = "unknown field '\(k)'"
            if let best = Spelling.suggestion(for: k, among: allowed, maxDistance: 3) {
                reason += "; did you mean '\(best)'?"
            }
            throw error(reason, sub)
        }
        return m
    }

    func number(_ v: JSONValue, _ field: String, in range: ClosedRange<Double>) throws(PresetError) -> Double {
        guard let d = v.doubleValue, d.isFinite else { throw error("expected a number", field) }
        guard range.contains(d) else {
            throw error("\(v.jsonString) is out of range (\(range.lowerBound) to \(range.upperBound))", field)
        }
        return Self.sixDecimals(d)
    }

    /// `d` as ``Preset/json`` writes it (`JSONWriter.number(_:decimals:)` with 6 decimals):
    /// rounded to a millionth, or to a whole number where a millionth is past exact range.
    static func sixDecimals(_ d: Double) -> Double {
        let scaled = (d.magnitude * 1_000_000).rounded()
        guard scaled < 9.0e15 else { return d.rounded() }
        return (d < 0 ? -scaled : scaled) / 1_000_000
    }

    func string(_ v: JSONValue, _ field: String) throws(PresetError) -> String {
        guard let s = v.stringValue else { throw error("expected a string", field) }
        return s
    }

    func choice<T: RawRepresentable & CaseIterable>(_ v: JSONValue, _ field: String, _: T.Type) throws(PresetError) -> T
    where T.RawValue == String {
        let s = try string(v, field)
        guard let t = T(rawValue: s) else {
            throw error(
                "unknown value '\(s)' (expected one of: \(T.allCases.map(\.rawValue).joined(separator: ", ")))", field)
        }
        return t
    }

    func preset(_ v: JSONValue) throws(PresetError) -> Preset {
        let allowed = [
            "name", "emitterShape", "emitterMode", "emitterPosition", "emitterSize", "birthRate", "lifetime", "seed",
            "emitterCells", "inset", "confinement",
        ]
        var e = Emitter()
        var name = "custom"
        var inset = 0.0
        var confinement = Confinement.none
        var sawCells = false
        for (k, value) in try members(v, "", allowed: allowed) {
            switch k {
            case "name": name = try string(value, k)
            case "emitterShape": e.emitterShape = try choice(value, k, EmitterShape.self)
            case "emitterMode":
                if value.stringValue == "volume" {
                    e.emitterMode = .surface
                } else {
                    e.emitterMode = try choice(value, k, EmitterMode.self)
                }
            case "birthRate": e.birthRate = try number(value, k, in: 0...100_000)
            case "lifetime": e.lifetime = try number(value, k, in: 0...3600)
            case "seed": e.seed = UInt32(try number(value, k, in: 0...4_294_967_295).rounded(.down))
            case "inset": inset = try number(value, k, in: 0...10_000)
            case "confinement": confinement = try choice(value, k, Confinement.self)
            case "emitterCells":
                guard case .array(let cells) = value else { throw error("expected an array of cells", k) }
                guard cells.count <= 64 else { throw error("\(cells.count) cells; at most 64 are allowed", k) }
                e.emitterCells = []
                for (i, c) in cells.enumerated() { e.emitterCells.append(try cell(c, "emitterCells[\(i)]")) }
                sawCells = true
            default: break  // emitterPosition, emitterSize: placed per word
            }
        }
        if !sawCells { throw error("a preset needs 'emitterCells'", "") }
        return Preset(name: name, emitter: e, inset: inset, confinement: confinement)
    }

    func cell(_ v: JSONValue, _ field: String) throws(PresetError) -> EmitterCell {
        let specs = EmitterCell.numberFieldSpecs
        let allowed = specs.map(\.name) + ["name", "color", "contents", "alphaOverLife"]
        var c = EmitterCell()
        for (k, value) in try members(v, field, allowed: allowed) {
            let sub = "\(field).\(k)"
            if let spec = specs.first(where: { $0.name == k }) {
                c[keyPath: spec.path] = try number(value, sub, in: spec.range)
                continue
            }
            switch k {
            case "name": c.name = try string(value, sub)
            case "color":
                let s = try string(value, sub)
                guard let rgb = RGBColor(hex: s) else {
                    throw error("expected a colour as \"#rrggbb\", got '\(s)'", sub)
                }
                c.color = rgb
            case "contents": c.contents = try choice(value, sub, ParticleShape.self)
            case "alphaOverLife":
                guard case .array(let keys) = value, keys.count <= 64 else {
                    throw error("expected an array of at most 64 numbers", sub)
                }
                c.alphaOverLife = []
                for (i, key) in keys.enumerated() {
                    c.alphaOverLife.append(try number(key, "\(sub)[\(i)]", in: -10...10))
                }
            default: break
            }
        }
        return c
    }
}

/// The byte offset of every value in a JSON document that is already known to be valid,
/// by path (`emitterCells[0].velocity`; "" is the document), for error positions.
enum JSONOffsets {
    static func scan(_ bytes: [UInt8]) -> [String: Int] {
        var out: [String: Int] = [:]
        var i = 0
        skipSpace(bytes, &i)
        value(bytes, &i, "", &out, depth: 0)
        return out
    }

    static func skipSpace(_ b: [UInt8], _ i: inout Int) {
        while i < b.count, b[i] == 0x20 || b[i] == 0x09 || b[i] == 0x0A || b[i] == 0x0D { i += 1 }
    }

    /// Skips a string at `i` and returns its raw contents (escapes left as written).
    static func string(_ b: [UInt8], _ i: inout Int) -> String {
        i += 1
        let start = i
        while i < b.count, b[i] != UInt8(ascii: "\"") {
            i += b[i] == UInt8(ascii: "\\") ? 2 : 1
        }
        let s = String(decoding: b[start..<min(i, b.count)], as: UTF8.self)
        i += 1
        return s
    }

    static func value(_ b: [UInt8], _ i: inout Int, _ path: String, _ out: inout [String: Int], depth: Int) {
        guard i < b.count, depth < 600 else { return }
        out[path] = i
        switch b[i] {
        case UInt8(ascii: "{"):
            i += 1
            while i < b.count {
                skipSpace(b, &i)
                guard i < b.count else { return }
                if b[i] == UInt8(ascii: "}") {
                    i += 1
                    return
                }
                if b[i] == UInt8(ascii: ",") {
                    i += 1
                    continue
                }
                let keyStart = i
                let key = string(b, &i)
                let sub = path.isEmpty ? key : "\(path).\(key)"
                skipSpace(b, &i)
                i += 1  // ':'
                skipSpace(b, &i)
                value(b, &i, sub, &out, depth: depth + 1)
                out[sub] = keyStart  // point at the key, which names the field
            }
        case UInt8(ascii: "["):
            i += 1
            var n = 0
            while i < b.count {
                skipSpace(b, &i)
                guard i < b.count else { return }
                if b[i] == UInt8(ascii: "]") {
                    i += 1
                    return
                }
                if b[i] == UInt8(ascii: ",") {
                    i += 1
                    continue
                }
                value(b, &i, "\(path)[\(n)]", &out, depth: depth + 1)
                n += 1
            }
        case UInt8(ascii: "\""):
            _ = string(b, &i)
        default:
            while i < b.count, !",]} \t\r\n".utf8.contains(b[i]) { i += 1 }
        }
    }
}
