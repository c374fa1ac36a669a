/// Reads Glyph Bitmap Distribution Format 2.1 fonts (Adobe's BDF specification, version
/// 2.1, 1993).
///
/// What is used: `FONT` (the name), `FONTBOUNDINGBOX`, the properties `FONT_ASCENT`,
/// `FONT_DESCENT` and `DEFAULT_CHAR`, and for each glyph `ENCODING`, `DWIDTH` (else the
/// font-wide `DWIDTH`, else the `BBX` width), `BBX` and `BITMAP`. Encodings are taken as
/// Unicode scalars (true for ISO10646 fonts, and for ISO8859-1 below 256); glyphs with
/// `ENCODING -1` are skipped. Without `FONT_ASCENT`/`FONT_DESCENT` the font bounding box
/// gives them. The default glyph is `DEFAULT_CHAR`'s, else U+FFFD's; the default advance
/// is the default glyph's, else the bounding box width. Errors carry 1-based line numbers.
struct BDFParser {
    let data: [UInt8]
    let file: String
    let decompressed: Bool

    func corrupt(_ line: Int, _ reason: String) -> LayoutError {
        .corruptFont(file: file, at: .line(line, decompressed: decompressed), reason: reason)
    }

    func truncated(_ line: Int, _ reason: String) -> LayoutError {
        .truncatedFont(file: file, at: .line(line, decompressed: decompressed), reason: reason)
    }

    /// The glyph being read.
    struct PendingGlyph {
        var name: String
        var startLine: Int
        var encoding: Int?
        var advance: Int?
        var box: (w: Int, h: Int, x: Int, y: Int)?
        var rows: [UInt8] = []
        var rowsRead = 0
        var inBitmap = false
    }

    func parse() throws(LayoutError) -> BitmapFont {
        var name: String?
        var boundingBox: (w: Int, h: Int, x: Int, y: Int)?
        var fontAdvance: Int?
        var ascent: (value: Int, line: Int)?
        var descent: (value: Int, line: Int)?
        var boxLine = 0
        var defaultChar: Int?
        var inProperties = false
        var glyph: PendingGlyph?
        var ended = false
        var glyphs: [(encoding: Int, advance: Int, box: (w: Int, h: Int, x: Int, y: Int), rows: [UInt8])] = []

        var lineNumber = 0
        var start = 0
        let n = data.count
        while start < n && !ended {
            var end = start
            while end < n && data[end] != 0x0A { end += 1 }
            lineNumber += 1
            var lineEnd = end
            if lineEnd > start && data[lineEnd - 1] == 0x0D { lineEnd -= 1 }
            let line = data[start..<lineEnd]
            start = end + 1
            let words = line.split(whereSeparator: { $0 == 0x20 || $0 == 0x09 })
            guard let keywordBytes = words.first else { continue }
            let keyword = String(decoding: keywordBytes, as: UTF8.self)
            let l = lineNumber
            func int(_ k: Int) throws(LayoutError) -> Int {
                guard k < words.count else { throw corrupt(l, "\(keyword) needs \(k) number\(k == 1 ? "" : "s")") }
                guard let v = Int(String(decoding: words[k], as: UTF8.self)), abs(v) < 1 << 20 else {
                    throw corrupt(l, "\(keyword): '\(String(decoding: words[k], as: UTF8.self))' is not a number")
                }
                return v
            }
            /// A DWIDTH's x advance: text runs left to right, so an advance is 0 to 1024 pixels.
            func advance() throws(LayoutError) -> Int {
                let v = try int(1)
                guard v >= 0, v <= 1024 else { throw corrupt(l, "DWIDTH \(v) is out of range (0 to 1024)") }
                return v
            }
            func rest() -> String {
                let text = String(decoding: line.dropFirst(keywordBytes.count), as: UTF8.self)
                var s = Substring(text)
                while s.first == " " || s.first == "\t" { s = s.dropFirst() }
                if s.count >= 2 && s.first == "\"" && s.last == "\"" { s = s.dropFirst().dropLast() }
                return String(s)
            }

            if lineNumber == 1 {
                guard keyword == "STARTFONT" else { throw corrupt(l, "expected STARTFONT") }
                continue
            }
            if var g = glyph {
                if g.inBitmap {
                    if keyword == "ENDCHAR" {
                        guard let box = g.box, g.rowsRead == box.h else {
                            throw corrupt(
                                l, "glyph '\(g.name)' has \(g.rowsRead) bitmap rows, BBX says \(g.box?.h ?? 0)")
                        }
                        if let e = g.encoding, e >= 0 {
                            glyphs.append((e, g.advance ?? fontAdvance ?? box.w, box, g.rows))
                        }
                        glyph = nil
                        continue
                    }
                    guard let box = g.box, g.rowsRead < box.h else {
                        throw corrupt(l, "glyph '\(g.name)' has more bitmap rows than its BBX height \(g.box?.h ?? 0)")
                    }
                    let rowBytes = (box.w + 7) / 8
                    guard line.count >= rowBytes * 2 else {
                        throw corrupt(
                            l,
                            "bitmap row '\(String(decoding: line, as: UTF8.self))' is shorter than \(rowBytes * 2) hex digits"
                        )
                    }
                    var k = line.startIndex
                    for _ in 0..<rowBytes {
                        guard let hi = hexValue(line[k]), let lo = hexValue(line[k + 1]) else {
                            throw corrupt(l, "bitmap row '\(String(decoding: line, as: UTF8.self))' is not hexadecimal")
                        }
                        g.rows.append(hi << 4 | lo)
                        k += 2
                    }
                    g.rowsRead += 1
                    glyph = g
                    continue
                }
                switch keyword {
                case "ENCODING":
                    g.encoding = try int(1)  // -1 (a non-standard encoding): skipped
                case "DWIDTH": g.advance = try advance()
                case "BBX":
                    let box = (w: try int(1), h: try int(2), x: try int(3), y: try int(4))
                    guard box.w >= 0, box.h >= 0, box.w <= 1024, box.h <= 1024 else {
                        throw corrupt(l, "BBX size \(box.w)×\(box.h) is out of range")
                    }
                    g.box = box
                case "BITMAP":
                    guard g.box != nil else { throw corrupt(l, "BITMAP before BBX in glyph '\(g.name)'") }
                    g.inBitmap = true
                case "ENDCHAR":
                    throw corrupt(l, "glyph '\(g.name)' has no BITMAP")
                case "STARTCHAR", "ENDFONT":
                    throw corrupt(
                        l, "\(keyword) inside glyph '\(g.name)' (begun at line \(g.startLine)); ENDCHAR is missing")
                default: break  // SWIDTH, SWIDTH1, DWIDTH1, VVECTOR, comments
                }
                glyph = g
                continue
            }
            if inProperties {
                switch keyword {
                case "ENDPROPERTIES": inProperties = false
                case "FONT_ASCENT": ascent = (try int(1), l)
                case "FONT_DESCENT": descent = (try int(1), l)
                case "DEFAULT_CHAR": defaultChar = try int(1)
                default: break
                }
                continue
            }
            switch keyword {
            case "FONT": name = rest()
            case "FONTBOUNDINGBOX":
                let box = (w: try int(1), h: try int(2), x: try int(3), y: try int(4))
                guard box.w >= 0, box.h >= 0, box.w <= 1024, box.h <= 1024 else {
                    throw corrupt(l, "FONTBOUNDINGBOX size \(box.w)×\(box.h) is out of range")
                }
                boundingBox = box
                boxLine = l
            case "DWIDTH": fontAdvance = try advance()
            case "STARTPROPERTIES": inProperties = true
            case "STARTCHAR":
                guard boundingBox != nil else { throw corrupt(l, "STARTCHAR before FONTBOUNDINGBOX") }
                glyph = PendingGlyph(name: rest(), startLine: l)
            case "ENDFONT": ended = true
            default: break  // COMMENT, SIZE, CHARS, CONTENTVERSION, METRICSSET, …
            }
        }
        if let g = glyph {
            throw truncated(lineNumber + 1, "the file ends inside glyph '\(g.name)' begun at line \(g.startLine)")
        }
        if inProperties { throw truncated(lineNumber + 1, "the file ends inside STARTPROPERTIES") }
        guard ended else { throw truncated(lineNumber + 1, "the file ends before ENDFONT") }
        guard let box = boundingBox else { throw corrupt(lineNumber, "FONTBOUNDINGBOX is missing") }

        // The line's metrics, given or taken from the bounding box: each 0 to 1024 pixels,
        // and a line at least a pixel high, so that no word box is upside down.
        let fontAscent = ascent?.value ?? (box.h + box.y)
        let fontDescent = descent?.value ?? -box.y
        for (name, value, line) in [
            ("ascent", fontAscent, ascent?.line ?? boxLine), ("descent", fontDescent, descent?.line ?? boxLine),
        ] where value < 0 || value > 1024 {
            throw corrupt(line, "a font \(name) of \(value) pixels is out of range (0 to 1024)")
        }
        guard fontAscent + fontDescent >= 1 else {
            throw corrupt(
                max(ascent?.line ?? boxLine, descent?.line ?? boxLine), "the font's lines are 0 pixels high")
        }
        var font = BitmapFont(
            format: .bdf, name: name ?? file, ascent: fontAscent, descent: fontDescent, defaultAdvance: box.w)
        for g in glyphs {
            let index = font.addGlyph(
                advance: g.advance, width: g.box.w, height: g.box.h, xOffset: g.box.x, yOffset: g.box.y,
                bitmap: g.rows)
            if g.encoding <= 0x10FFFF { font.map(UInt32(g.encoding), to: index) }
        }
        if let d = defaultChar, d >= 0, d <= 0x10FFFF, let r = font.record(for: UInt32(d)) {
            font.defaultRecord = r
        } else {
            font.defaultRecord = font.record(for: 0xFFFD)
        }
        if let r = font.defaultRecord { font.defaultAdvance = font.advance(of: r) }
        return font
    }
}

/// The value of an ASCII hex digit, or nil.
@inline(__always)
func hexValue(_ b: UInt8) -> UInt8? {
    switch b {
    case 0x30...0x39: return b - 0x30
    case 0x41...0x46: return b - 0x41 + 10
    case 0x61...0x66: return b - 0x61 + 10
    default: return nil
    }
}
