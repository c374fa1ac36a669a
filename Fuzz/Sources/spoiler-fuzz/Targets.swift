import SpoilerCore
import SpoilerEffect
import SpoilerLayout
import SpoilerParser
import SpoilerRender
import SpoilerTerminal

/// Every fuzz target. A new input format gets a line here (a parser, its seeds, and the
/// property it keeps); `scripts/fuzz` asks the binary for this list.
let fuzzTargets: [FuzzTarget] = [
    FuzzTarget(
        name: "plain", summary: "PlainParser: entities in range; plain-markup reads back the same message",
        seeds: [.lines("cli/mixed.ndjson"), .literal(["a ||b|| `c`", "||||x||", "`a || b`", "\\\\||x\\\\||"])],
        run: { parseTarget("plain", $0, format: .plain, back: .plainMarkup) }),
    FuzzTarget(
        name: "markdownv2", summary: "MarkdownV2Parser: entities in range; the serializer's output reads back the same",
        seeds: [.jsonField("markdownv2/tdlib-oracle.jsonl", key: "input")],
        run: { parseTarget("markdownv2", $0, format: .markdownV2, back: .markdownV2) }),
    FuzzTarget(
        name: "html", summary: "HTMLParser: entities in range; the serializer's output reads back the same",
        seeds: [.jsonField("html/tdlib-oracle.jsonl", key: "input")],
        run: { parseTarget("html", $0, format: .html, back: .html) }),
    FuzzTarget(
        name: "markdown", summary: "MarkdownParser (cmark-gfm and the || extension): entities in range",
        seeds: [.files("markdown/corpus", suffix: ".md")],
        run: { parseTarget("markdown", $0, format: .markdown, back: nil) }),
    FuzzTarget(
        name: "botapi", summary: "BotAPIParser: entities in range; its JSON output parses back the same",
        seeds: [.file("botapi/message.json"), .file("botapi/message.expected.json")],
        run: { parseTarget("botapi", $0, format: .botAPI, back: .json) }),
    FuzzTarget(
        name: "export",
        summary: "ExportReader: the same items and error (its position too) whether fed whole or cut in two",
        seeds: [.files("export", suffix: ".json")],
        run: exportTarget),
    FuzzTarget(
        name: "ndjson",
        summary:
            "NDJSON lines in the format the first byte picks: one valid JSON record a line, offsets in range",
        seeds: [
            .prefixed(ndjsonSelectors, .file("cli/mixed.ndjson")),
            .prefixed(ndjsonSelectors, .file("cli/convert-plain-markup.ndjson")),
            .prefixed(ndjsonSelectors, .lines("cli/mixed.ndjson")),
            .prefixed(
                ndjsonSelectors,
                .literal([
                    #"{"id":"m","msgtype":"m.text","body":"x","format":"org.matrix.custom.html","formatted_body":"a <span data-mx-spoiler>b</span>"}"#,
                    #"{"id":2,"body":"the butler","bodyRanges":[{"start":4,"length":6,"style":"SPOILER"}]}"#,
                    "\"*a* ||b|| [c](t.me)\"\n\n  \n{\"text\":\"x\",\"entities\":[]}\r\n\"||r|t||\"",
                ])),
        ],
        run: ndjsonTarget),
    FuzzTarget(
        name: "bdf", summary: "BitmapFont.parse on BDF: a loaded font lays out text inside its bounds",
        seeds: [.file("layout/tiny.bdf")],
        run: { fontTarget("bdf", $0, magic: Array("STARTFONT".utf8)) }),
    FuzzTarget(
        name: "psf", summary: "BitmapFont.parse on PSF1/PSF2: a loaded font lays out text inside its bounds",
        seeds: [.literal(["\u{36}\u{04}\u{00}\u{08}"])],
        run: { fontTarget("psf", $0, magic: nil) }),
    FuzzTarget(
        name: "hex", summary: "BitmapFont.parse on Unifont .hex: a loaded font lays out text inside its bounds",
        seeds: [
            .literal([
                "0041:0000000018242442427E424242420000\n4E00:00800080008000800080FFFE0080008000800080008000800080008000800080\n"
            ])
        ],
        run: { fontTarget("hex", $0, magic: nil) }),
    FuzzTarget(
        name: "gzip", summary: "gzip font files: decompressed in bounded memory, then parsed",
        seeds: [.file("layout/subset.hex.gz")],
        run: { fontTarget("gzip", $0, magic: [0x1F, 0x8B]) }),
    FuzzTarget(
        name: "preset", summary: "Preset.parse(json:): a preset's JSON parses back to the same preset",
        seeds: [.literal([Preset.dust.json, Preset.confetti.json, Preset.snow.json])],
        run: presetTarget),
    FuzzTarget(
        name: "input-decoder", summary: "InputDecoder: the same events whether fed at once or byte by byte",
        seeds: [
            .literal([
                "\u{1B}[A\u{1B}[<0;3;4M\u{1B}[<0;3;4mq", "\u{1B}[200~pasted\u{1B}[201~", "\u{1B}O", "é\u{1B}[1;5C",
            ])
        ],
        run: inputDecoderTarget),
    // The other chat platforms: entities in range (their writers are lossy by design).
    FuzzTarget(
        name: "matrix", summary: "Matrix m.room.message content: entities in range",
        seeds: [
            .literal([
                #"{"msgtype":"m.text","body":"x","format":"org.matrix.custom.html","formatted_body":"the <span data-mx-spoiler=\"plot\">butler</span> did it"}"#
            ])
        ],
        run: { parseTarget("matrix", $0, format: .matrix, back: nil) }),
    FuzzTarget(
        name: "discord", summary: "Discord markdown: entities in range",
        seeds: [.literal(["the ||butler|| **did** it", "||reason|text||", "> quote\n`code`"])],
        run: { parseTarget("discord", $0, format: .discord, back: nil) }),
    FuzzTarget(
        name: "reddit", summary: "Reddit markdown: entities in range",
        seeds: [.literal([">!the butler!< did it", "**b** *i* ~~s~~ `c`"])],
        run: { parseTarget("reddit", $0, format: .reddit, back: nil) }),
    FuzzTarget(
        name: "signal", summary: "Signal body ranges: entities in range",
        seeds: [.literal([#"{"body":"the butler did it","bodyRanges":[{"start":4,"length":6,"style":"SPOILER"}]}"#])],
        run: { parseTarget("signal", $0, format: .signal, back: nil) }),
    FuzzTarget(
        name: "layout-unchecked",
        summary:
            "layout --ndjson's unchecked UTF-8: a line read and laid out unchecked gives the checked bytes or nothing",
        seeds: [
            .lines("cli/mixed.ndjson"),
            .literal([
                "\"a ||b|| `c` 映画 😀 🇺🇦 👩‍👩‍👧 e\u{301} Привет\"", "{\"id\":7,\"text\":\"x\\n||y z||\"}",
                "\"映||画 `é`||\"",
            ]),
        ],
        run: uncheckedLayoutTarget),
    FuzzTarget(
        name: "plain-chunks",
        summary: "spoiler read's chunks of plain text: joined, they hide and show what the whole text's parse does",
        seeds: [
            .lines("cli/mixed.ndjson"),
            .literal([
                "\u{10}a ||b\n\nc|| d", "\u{31}`a ||b\n\nc|| d", "\u{22}||x\n\n`y\n\nz`||\n\n\\||",
                "\u{7F}a ||b\r\n\r\nc||||d\n\n||",
            ]),
        ],
        run: plainChunksTarget),
    FuzzTarget(
        name: "html-chunks",
        summary:
            "spoiler read's chunks of Telegram HTML, cut inside tags too: joined, they read as the whole text's parse does",
        seeds: [
            .prefixed([0x10, 0x31, 0x7F, 0xF3], .jsonField("html/tdlib-oracle.jsonl", key: "input")),
            .literal([
                "\u{10}a <b>bold <i>both\n\nitalic</i> <tg-spoiler>hidden\nstill</tg-spoiler></b> after",
                "\u{31}<a href=\"https://example.com/?a=1&amp;b=2\">link <tg-spoiler>x &lt; y</tg-spoiler></a>\n\nz",
                "\u{7F}<pre><code class=\"language-swift\">let a = 1\n\nlet b = 2</code></pre>\n\n<u>u</u>",
                "\u{22}<blockquote expandable>q <s>s\n\nt</s></blockquote><span class=\"tg-spoiler\">h</span>",
            ]),
        ],
        run: htmlChunksTarget),
    FuzzTarget(
        name: "markdownv2-chunks",
        summary: "spoiler read's chunks of MarkdownV2: joined, they read as the whole text's parse does",
        seeds: [
            .prefixed([0x10, 0x31, 0x7F, 0xF3], .jsonField("markdownv2/tdlib-oracle.jsonl", key: "input")),
            .literal([
                "\u{10}a *bold _both\n\nitalic_* ||hidden\nstill|| after", "\u{31}[link ||x||](https://t.me/x)\n\nz",
                "\u{7F}```swift\nlet a = 1\n\nlet b = 2\n```\n\n__u__ ~s~", "\u{22}>q\n**>r ||h||\n\nt\\_",
                // Entities longer than the chunks (at most 9 and 25 bytes), nested.
                "\u{10}*bold __under _it ||hidden words\nhere and more words|| more_ x__ y* after",
                "\u{30}_it __under ~struck ||a spoiler of many words\n\nacross a blank line|| z~ w__ v_ u",
            ]),
        ],
        run: markdownV2ChunksTarget),
    FuzzTarget(
        name: "markdown-chunks",
        summary:
            "spoiler read's chunks of Markdown with fenced code longer than a chunk: no secret shown; joined, they "
            + "read as the whole parse does where the reading follows every fence",
        seeds: [
            .literal([
                "\u{10}\u{01}\u{00}\u{05}\u{06}\u{07}\u{08}\u{09}\u{0A}\u{0B}\u{0C}\u{0D}\u{F0}\u{02}",
                "\u{05}\u{11}\u{04}\u{01}\u{02}\u{03}\u{05}\u{06}\u{F1}\u{21}\u{0D}",
                "\u{7F}\u{08}\u{01}\u{01}\u{01}\u{03}\u{03}\u{03}\u{02}\u{02}\u{02}\u{01}\u{03}\u{02}",
            ])
        ],
        run: markdownChunksTarget),
    FuzzTarget(
        name: "hidden", summary: "plain -> layout -> SVG still: changing the hidden letters changes no byte",
        seeds: [.lines("cli/mixed.ndjson"), .literal(["the butler ||did it|| in the library", "a ||b c\nd|| e"])],
        run: hiddenTarget),
]

/// Entities lie inside the text, with positive lengths.
func checkEntities(_ target: String, _ m: Message) {
    let length = m.utf16Length
    for e in m.entities where e.offset < 0 || e.length <= 0 || e.offset + e.length > length {
        violated(target, "entity \(e) outside a text of \(length) UTF-16 units")
    }
}

/// Parses `bytes`; when it parses, checks the entities and that writing the message in
/// `back` and parsing that gives the same message.
func parseTarget(_ target: String, _ bytes: [UInt8], format: InputFormat, back: OutputFormat?) {
    guard let m = try? MessageParser.parse(bytes, from: format) else { return }
    checkEntities(target, m)
    guard let back else { return }
    // MarkdownV2 cannot write an entity inside another of its own type (the README lists
    // what it cannot say; Fixtures/fuzz/markdownv2 holds the input that showed it).
    if back == .markdownV2 && hasSameTypeNesting(m) { return }
    // A text link to tg://user?id=N is read as a mention of N, in both markup formats (the
    // README says so): TDLib trims the link it keeps but not the one it looks for a user
    // in, so `[a](tg:user?id=5\0)` gives such a link (Fixtures/fuzz/markdownv2).
    if m.entities.contains(where: { $0.type == .textLink && ($0.url ?? "").hasPrefix("tg://user") }) { return }
    let written = MessageSerializer.serialize(m, to: back)
    let readFormat: InputFormat
    switch back {
    case .json: readFormat = .botAPI
    case .markdownV2: readFormat = .markdownV2
    case .html: readFormat = .html
    case .plainMarkup: readFormat = .plain
    default: return
    }
    do {
        let again = try MessageParser.parse(written, from: readFormat)
        if again != m { violated(target, "\(m) was written as \(written.debugDescription) and read back as \(again)") }
    } catch {
        violated(target, "\(m) was written as \(written.debugDescription), which fails: \(error)")
    }
}

/// Whether an entity lies inside another of the same type.
func hasSameTypeNesting(_ m: Message) -> Bool {
    for (i, a) in m.entities.enumerated() {
        for b in m.entities[(i + 1)...] where a.type == b.type && b.offset < a.offset + a.length { return true }
    }
    return false
}

func exportTarget(_ bytes: [UInt8]) {
    func read(_ chunks: [[UInt8]]) -> (items: [ExportItem], error: ParseError?) {
        let reader = ExportReader()
        var items: [ExportItem] = []
        do {
            for c in chunks { try reader.feed(c, into: &items) }
            try reader.finish(into: &items)
        } catch {
            return (items, error)
        }
        return (items, nil)
    }
    let whole = read([bytes])
    for item in whole.items { if case .success(let m) = item.result { checkEntities("export", m) } }
    // The error, its position included, is the same however the input is cut
    // (FuzzRegressionTests.exportErrorPositionDoesNotDependOnReads): cut where the first
    // and last bytes say, and in the middle.
    let n = bytes.count
    let cuts = n == 0 ? [0] : [Int(bytes[0]) % (n + 1), n / 2, (Int(bytes[n - 1]) &* 31) % (n + 1)]
    for cut in cuts {
        let split = read([Array(bytes[..<cut]), Array(bytes[cut...])])
        if whole.items != split.items || whole.error?.position != split.error?.position
            || whole.error?.reason != split.error?.reason
        {
            violated("export", "fed whole: \(whole), cut at \(cut): \(split)")
        }
    }
}

/// The formats `--ndjson` reads lines in (every `--from` but `export`, which is a stream of
/// its own), and the first bytes of the seeds: one for each format, with and without
/// `--spoiler-reasons`.
let ndjsonFormats = InputFormat.allCases.filter { $0 != .export }
let ndjsonSelectors: [UInt8] = (0..<ndjsonFormats.count).flatMap { [UInt8($0), UInt8($0) | 0x80] }

/// The first byte picks the format (its low seven bits, modulo the number of formats) and
/// `--spoiler-reasons` (its high bit); the rest is NDJSON input, cut into lines as
/// `spoiler parse --ndjson` cuts it, each line written as the command writes it: the message
/// with its id, or an error record. Checked: one output record per input line (none holds a
/// line break), each a JSON object with an `id`; a message's entities inside its text and its
/// text read back from the record, an error record's `line` its line's number and its
/// `offset` inside the line.
func ndjsonTarget(_ bytes: [UInt8]) {
    guard let selector = bytes.first else { return }
    let format = ndjsonFormats[Int(selector & 0x7F) % ndjsonFormats.count]
    let options = ParseOptions(spoilerReasons: selector & 0x80 != 0)
    let input = bytes.dropFirst()
    var lines = input.isEmpty ? [] : input.split(separator: 0x0A, omittingEmptySubsequences: false)
    if input.last == 0x0A { lines.removeLast() }
    var records: [(bytes: [UInt8], message: Message?)] = []
    for (index, line) in lines.enumerated() {
        let number = index + 1
        guard let record = NDJSONRecord(line: line, format: format, options: options) else {
            records.append((NDJSONRecord.errorRecord(id: nil, line: number, error: NDJSONRecord.emptyLineError), nil))
            continue
        }
        switch record.result {
        case .success(let m):
            checkEntities("ndjson", m)
            var w = JSONWriter()
            m.write(to: &w, id: record.id ?? Array(String(number).utf8))
            records.append((w.bytes, m))
        case .failure(let e):
            if let offset = e.position?.utf8Offset, offset < 0 || offset > line.count {
                violated("ndjson", "error offset \(offset) outside line \(number) of \(line.count) bytes: \(e)")
            }
            records.append((NDJSONRecord.errorRecord(id: record.id, line: number, error: e), nil))
        }
    }
    for (index, (out, message)) in records.enumerated() {
        let text = String(decoding: out, as: UTF8.self).debugDescription
        if out.contains(0x0A) { violated("ndjson", "line \(index + 1) gave a record of more than one line: \(text)") }
        guard let value = try? JSONValue.parse(out), case .object = value, value["id"] != nil else {
            violated("ndjson", "line \(index + 1) gave a record that is no JSON object with an id: \(text)")
        }
        if let line = value["line"], line != .number(String(index + 1)) {
            violated("ndjson", "line \(index + 1) gave an error record for another line: \(text)")
        }
        if let message, value["text"]?.stringValue != message.text {
            violated("ndjson", "line \(index + 1) gave a record whose text is not its message's: \(text)")
        }
    }
}

/// Parses a font (with `magic` put in front when the input lacks it, so the fuzzer stays
/// in one format) and lays out a line with it: every word box inside the layout.
func fontTarget(_ target: String, _ bytes: [UInt8], magic: [UInt8]?) {
    var data = bytes
    if let magic, !data.starts(with: magic) { data = magic + data }
    guard let font = try? BitmapFont.parse(data, file: "fuzz.\(target)") else { return }
    let message = Message(text: "Ab 漢 é x", entities: [Entity(.spoiler, offset: 3, length: 3)])
    let layout = LayoutEngine(model: .font(font), wrapWidth: 40).layout(message)
    for w in layout.words {
        let r = w.rect
        if !(r.minX.isFinite && r.maxX.isFinite && r.minY.isFinite && r.maxY.isFinite) || r.maxX < r.minX
            || r.maxY < r.minY
        {
            violated(target, "word box \(r) in a font of \(font.lineHeight) px lines")
        }
    }
}

func presetTarget(_ bytes: [UInt8]) {
    guard let p = try? Preset.parse(json: bytes) else { return }
    do {
        let again = try Preset.parse(json: Array(p.json.utf8))
        if again != p { violated("preset", "\(p.json) read back as \(again.json)") }
    } catch {
        violated("preset", "\(p.json) does not read back: \(error)")
    }
}

func inputDecoderTarget(_ bytes: [UInt8]) {
    var whole = InputDecoder()
    let a = whole.feed(bytes) + whole.finish()
    var single = InputDecoder()
    var b: [InputEvent] = []
    for byte in bytes { b += single.feed(CollectionOfOne(byte)) }
    b += single.finish()
    if a != b { violated("input-decoder", "whole: \(a), byte by byte: \(b)") }
}

/// The message read as plain text, and a twin with every ASCII letter inside a spoiler
/// replaced by the next letter: the SVG still of both must be the same bytes.
func hiddenTarget(_ bytes: [UInt8]) {
    guard let m = try? MessageParser.parse(bytes, from: .plain), m.utf16Length < 2000 else { return }
    var units = Array(m.text.utf16)
    for e in m.entities where e.type == .spoiler {
        for i in e.offset..<(e.offset + e.length) {
            let u = units[i]
            if u >= 0x61 && u <= 0x7A { units[i] = 0x61 + (u - 0x61 + 1) % 26 }
            if u >= 0x41 && u <= 0x5A { units[i] = 0x41 + (u - 0x41 + 1) % 26 }
        }
    }
    let twin = Message(text: String(decoding: units, as: UTF16.self), entities: m.entities)
    func svg(_ message: Message) -> [UInt8] {
        let layout = LayoutEngine(wrapWidth: 30).layout(message)
        var scene = SpoilerScene(layout: layout, preset: .dust, seed: 3)
        scene.advance(to: 0.5)
        var out: [UInt8] = []
        SVGRenderer.renderStill(scene: scene, layout: layout, formatting: message.entities, into: &out)
        return out
    }
    if svg(m) != svg(twin) { violated("hidden", "hidden letters show in the SVG of \(m)") }
}

/// One NDJSON line of plain markup (the input, without line breaks), read and laid out as
/// `spoiler layout --ndjson` reads it, with the text's UTF-8 left to the layout
/// (``NDJSONRecord/readPlainMessage(line:format:options:buffers:uncheckedUTF8:)`` and
/// ``LayoutEngine/appendGeometryJSON(uncheckedUTF8:entities:id:redact:to:)``), and the
/// checked way: the same answer and the same bytes. The input alone, as a text, laid out
/// unchecked: written exactly when it is valid UTF-8. The text is copied into a buffer of
/// its own size, so that the address sanitizer sees any read past it.
func uncheckedLayoutTarget(_ bytes: [UInt8]) {
    let line = bytes.filter { $0 != 0x0A }
    let engine = LayoutEngine()
    var buffers = NDJSONLineBuffers()
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
                let copy = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: text.count)
                defer { copy.deallocate() }
                _ = copy.initialize(from: text)
                return engine.appendGeometryJSON(
                    uncheckedUTF8: UnsafeBufferPointer(copy), entities: entities, id: id, redact: false, to: &unchecked)
            })
        let same = checked.withUnsafeBytes { a in unchecked.withUnsafeBytes { b in a.elementsEqual(b) } }
        if uncheckedRead != checkedRead || !same {
            violated("layout-unchecked", "line \(Array(line)) read unchecked \(uncheckedRead), checked \(checkedRead)")
        }
    }
    let text = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: bytes.count)
    defer { text.deallocate() }
    _ = text.initialize(from: bytes)
    var out = JSONOutputBuffer()
    let written = engine.appendGeometryJSON(
        uncheckedUTF8: UnsafeBufferPointer(text), entities: [Entity(.spoiler, offset: 1, length: 3)], id: nil,
        redact: false, to: &out)
    if written != (UTF8Validation.firstInvalidOffset(in: bytes) == nil) || (!written && out.count != 0) {
        violated("layout-unchecked", "text \(bytes) laid out unchecked: \(written)")
    }
}

/// Plain text read as `spoiler read` reads a long file, a chunk at a time
/// (``ChunkedDocument`` with ``ChunkBoundaryScanner/Rule/plainText``; the first byte picks
/// the chunks' least and greatest lengths): the chunks' texts, joined by the line breaks
/// they were cut after, are the whole text's, and the same units are inside spoilers and
/// code.
func plainChunksTarget(_ bytes: [UInt8]) {
    guard let first = bytes.first else { return }
    let text = Array(bytes.dropFirst())
    guard let whole = try? PlainParser.parse(text) else { return }
    let minimum = Int(first & 0x0F) + 1
    let maximum = minimum + Int(first >> 4) * 8
    let document = ChunkedDocument(
        bytes: text, rule: .plainText, minimumBytes: minimum, maximumBytes: maximum, separator: "\n"
    ) { chunk, _ in
        (try? PlainParser.parse(chunk)) ?? Message(text: "[could not be read]")
    }
    /// Per UTF-16 unit: bit 0 inside a spoiler, bit 1 inside code.
    func marks(_ m: Message) -> [UInt8] {
        var marks = [UInt8](repeating: 0, count: m.utf16Length)
        for e in m.entities {
            for k in e.offset..<(e.offset + e.length) { marks[k] |= e.type == .spoiler ? 1 : 2 }
        }
        return marks
    }
    let wholeMarks = marks(whole)
    let (joined, joinedMarks) = joinedChunks(of: document, text, wholeMarks: wholeMarks, marks: marks)
    if joined != whole.text || joinedMarks != wholeMarks {
        violated("plain-chunks", "chunks of \(text) (\(minimum)–\(maximum) bytes) read \(joined.debugDescription)")
    }
}

/// `spoiler read`'s chunks of Telegram HTML (the first byte picks the chunk sizes, as for
/// `plain-chunks`): ``entityChunksTarget(_:_:rule:leastMaximum:parse:)`` with chunks that hold
/// at least twice the longest tag or character reference (which are at most a few kilobytes
/// in a file the reader cuts every 64 KB), so that a place to cut always comes before the
/// reader gives up looking for one.
func htmlChunksTarget(_ bytes: [UInt8]) {
    entityChunksTarget(
        "html-chunks", bytes, rule: .htmlText,
        leastMaximum: { text in
            var longest = 0
            var tokenStart: Int?
            for (k, b) in text.enumerated() {
                if b == 0x3C || b == 0x26 { tokenStart = tokenStart ?? k }
                let ends = b == 0x3E || (text[tokenStart ?? k] == 0x26 && !(b == 0x26 || b == 0x23 || b.isASCIIAlnum))
                if let start = tokenStart, ends || k == text.count - 1 {
                    longest = max(longest, k - start + 1)
                    tokenStart = nil
                }
            }
            return 2 * longest + 16
        }
    ) { bytes throws(ParseError) in try HTMLParser.parse(bytes) }
}

/// `spoiler read`'s chunks of MarkdownV2 (the first byte picks the chunk sizes):
/// ``entityChunksTarget(_:_:rule:leastMaximum:parse:)``, cut inside lines and entities too.
/// The chunks on either side of a cut where what is open cannot be opened again (a link's
/// text, code) say they cannot be read, which ends the check.
func markdownV2ChunksTarget(_ bytes: [UInt8]) {
    // (Not quotations: the lines of one are cut apart where a chunk must be, and each part is
    // a quotation of its own, and a line cut inside is one no more after the cut: known
    // differences.)
    guard !bytes.contains(0x3E) else { return }
    entityChunksTarget("markdownv2-chunks", bytes, rule: .markdownV2Text, leastMaximum: { _ in 4 }) {
        bytes throws(ParseError) in try MarkdownV2Parser.parse(bytes)
    }
}

/// An entity's type, link and language, as `*-chunks` targets compare them; a quotation's
/// type without whether it expands (MarkdownV2: the `||` that makes a quotation expandable
/// ends its last line, which may be in a later chunk).
func chunkMark(_ e: Entity) -> String {
    let type = e.type == .expandableBlockquote ? EntityType.blockquote : e.type
    return "\(type.rawValue) \(e.url ?? "") \(e.language ?? "")"
}

/// Chunks of a text with entities, as `spoiler read` cuts them (`rule`, sizes picked by the
/// first byte, the largest at least `leastMaximum` of the text): where the whole text
/// parses and every chunk could be read, the chunks' texts, joined with the line breaks
/// they were cut after, are the whole text's, and every UTF-16 unit is under the same
/// entities (``chunkMark(_:)``) as in the whole parse, and every chunk the document parses
/// parses. The whole text is read as every
/// command reads a file (`MessageParser.parseWholeInput`): the line break that ends it is no
/// part of the message (a backslash before it escapes nothing). A chunk that cannot be read
/// (one the reader cut where what is open cannot be opened again) ends the check.
func entityChunksTarget(
    _ name: String, _ bytes: [UInt8], rule: ChunkBoundaryScanner.Rule, leastMaximum: ([UInt8]) -> Int,
    parse: @escaping @Sendable ([UInt8]) throws(ParseError) -> Message
) {
    guard let first = bytes.first else { return }
    let text = Array(bytes.dropFirst())
    var body = text[...]
    if body.last == 0x0A {
        body.removeLast()
        if body.last == 0x0D { body.removeLast() }
    }
    let finalBreak = String(decoding: text[body.endIndex...], as: UTF8.self)
    guard let whole = try? parse(Array(body)) else { return }
    let minimum = Int(first & 0x0F) + 1
    let maximum = max(minimum + Int(first >> 4) * 8, leastMaximum(text))
    let (unreadable, didNotParse) = ("could not be read", "did not parse")
    let document = ChunkedDocument(
        bytes: text, rule: rule, minimumBytes: minimum, maximumBytes: maximum, separator: "\n"
    ) { chunk, _ in
        (try? parse(chunk)) ?? sentinel(didNotParse)
    } failed: { _ in
        sentinel(unreadable)
    }
    /// Per UTF-16 unit: the entities over it, each as its type, link and language.
    func marks(_ m: Message) -> [[String]] {
        var marks = [[String]](repeating: [], count: m.utf16Length)
        for e in m.entities {
            let mark = chunkMark(e)
            for k in e.offset..<(e.offset + e.length) { marks[k].append(mark) }
        }
        return marks.map { $0.sorted() }
    }
    let wholeMarks = marks(whole)
    let chunks = (0..<document.chunkCount).compactMap { document.chunk(at: $0) }
    // A chunk parsed as the document decided (with the markup that reopens what is open
    // at its ends) parses, as the whole text does.
    if let k = chunks.firstIndex(where: { isSentinel($0.message, didNotParse) }) {
        violated(
            name,
            "chunk \(k) (bytes \(chunks[k].bytes)) of \(String(decoding: text, as: UTF8.self).debugDescription) "
                + "(\(minimum)–\(maximum) bytes) does not parse, the whole does")
    }
    if chunks.contains(where: { isSentinel($0.message, unreadable) || isSentinel($0.message, didNotParse) }) { return }
    let (joined, joinedMarks) = joinedChunks(of: document, text, wholeMarks: wholeMarks, marks: marks)
    // (The last chunk's line break is joined after it as any other's.)
    if joined != whole.text + finalBreak || joinedMarks != wholeMarks {
        violated(
            name,
            "chunks of \(String(decoding: text, as: UTF8.self).debugDescription) (\(minimum)–\(maximum) bytes) read "
                + "\(joined.debugDescription), the whole \(whole.text.debugDescription)")
    }
}

/// The message that stands for a chunk that did not parse or could not be read: no text and
/// one empty spoiler whose reason says which. The Telegram parsers read here give no entity a
/// reason, so no text of the fuzzer's can pass for it (a text of `[did not parse]`, the
/// marker's text before, was taken for a chunk that did not parse).
func sentinel(_ reason: String) -> Message {
    Message(text: "", entities: [Entity(.spoiler, offset: 0, length: 0, reason: reason)])
}

/// Whether `message` is ``sentinel(_:)`` of `reason`.
func isSentinel(_ message: Message, _ reason: String) -> Bool {
    message.text.isEmpty && message.entities.count == 1 && message.entities[0].length == 0
        && message.entities[0].reason == reason
}

/// The texts of `document`'s chunks of `text`, joined with the line breaks they were cut
/// after, and the marks of each UTF-16 unit: `marks` of each chunk's message, and for the
/// line breaks between chunks those of the whole text (`wholeMarks`), which says what is
/// over them.
func joinedChunks<Mark>(
    of document: ChunkedDocument, _ text: [UInt8], wholeMarks: [Mark], marks: (Message) -> [Mark]
) -> (String, [Mark]) {
    var joined = ""
    var joinedMarks: [Mark] = []
    var k = 0
    while let chunk = document.chunk(at: k) {
        joined += chunk.message.text
        joinedMarks += marks(chunk.message)
        var end = chunk.bytes.upperBound
        if end > chunk.bytes.lowerBound && text[end - 1] == 0x0A {
            end -= 1
            if end > chunk.bytes.lowerBound && text[end - 1] == 0x0D { end -= 1 }
        }
        let separator = String(decoding: text[end..<chunk.bytes.upperBound], as: UTF8.self)
        joined += separator
        let units = separator.utf16.count
        guard joinedMarks.count + units <= wholeMarks.count else { break }
        joinedMarks += wholeMarks[joinedMarks.count..<(joinedMarks.count + units)]
        k += 1
    }
    return (joined, joinedMarks)
}

extension UInt8 {
    /// An ASCII letter or digit.
    var isASCIIAlnum: Bool {
        (0x30...0x39).contains(self) || (0x41...0x5A).contains(self) || (0x61...0x7A).contains(self)
    }
}
