import SpoilerCore
import SpoilerParser
import SpoilerTerminal

/// `spoiler read`'s chunks of Markdown with fenced code longer than a chunk, the document
/// built from the input's bytes (the first picks the chunks' least and greatest lengths,
/// each other one block or line of code): where the document has nothing the reading does
/// not follow, the chunks' texts, joined as the reader shows them (a line break before a
/// chunk that goes on with the block before it, a blank line before any other), are the
/// whole document's, every UTF-16 unit is under a spoiler, in code or neither as in the
/// whole parse. In every document whose whole parse shows no `secret` outside a spoiler,
/// no chunk does: where the document has what the reading does not follow (a line of
/// backticks in an HTML block, fenced code opened on a list item's first line), the chunks
/// after it that cannot be shown as the whole shows them say so. (Not checked where such a
/// document is also cut at a line that is not blank: README, a known limit.)
func markdownChunksTarget(_ bytes: [UInt8]) {
    guard let first = bytes.first else { return }
    let (text, inStep, exact) = markdownChunksDocument(bytes.dropFirst())
    let minimum = Int(first & 0x3F) + 1
    let maximum = minimum + 64 + Int(first >> 6) * 48
    let utf8 = Array(text.utf8)
    guard let whole = try? MessageParser.parse(utf8, from: .markdown, options: ParseOptions()) else { return }
    let document = ChunkedDocument(
        bytes: utf8, rule: .markdownBlocks, minimumBytes: minimum, maximumBytes: maximum, separator: "\n\n"
    ) { (chunk, part) throws(ParseError) in
        try ChunkedDocument.message(ofChunk: chunk, part: part, format: .markdown, options: ParseOptions())
    }
    var joined = ""
    var kinds: [UInt8] = []
    // Whether a chunk other than a fence's part starts after a line that is not blank (cut
    // where a block runs on for longer than a chunk may be).
    var forcedCut = false
    var k = 0
    while let chunk = document.chunk(at: k) {
        let start = chunk.bytes.lowerBound
        if k > 0 && !chunk.joinsPrevious && !(start >= 2 && utf8[start - 1] == 0x0A && utf8[start - 2] == 0x0A) {
            forcedCut = true
        }
        if k > 0 {
            let separator = chunk.joinsPrevious ? "\n" : "\n\n"
            joined += separator
            kinds += Array(repeating: UInt8(ascii: "."), count: separator.utf16.count)
        }
        joined += chunk.message.text
        kinds += markdownChunkKinds(chunk.message)
        k += 1
    }
    let units = Array(joined.utf16)
    let wholeKinds = markdownChunkKinds(whole)
    // Where the whole parse shows no `secret` (a document the reading does not follow may
    // put one in code, there as in its chunks), no chunk may; unless a chunk was cut where a
    // block other than a paragraph or fenced code ran on for longer than a chunk may be
    // (README: a known limit), checked in documents the reading follows only.
    if (inStep || !forcedCut) && !showsSecret(Array(whole.text.utf16), wholeKinds) && showsSecret(units, kinds) {
        violated("markdown-chunks", "chunks of \(text.debugDescription) (\(minimum)–\(maximum)) show a secret")
    }
    guard inStep && exact else { return }
    func withoutCodeOnLineBreaks(_ kinds: [UInt8], _ units: [UInt16]) -> [UInt8] {
        zip(kinds, units).map { kind, unit in unit == 0x0A && kind == UInt8(ascii: "c") ? UInt8(ascii: ".") : kind }
    }
    if joined != whole.text
        || withoutCodeOnLineBreaks(kinds, units) != withoutCodeOnLineBreaks(wholeKinds, Array(whole.text.utf16))
    {
        violated(
            "markdown-chunks",
            "chunks of \(text.debugDescription) (\(minimum)–\(maximum)) read \(joined.debugDescription), "
                + "the whole \(whole.text.debugDescription)")
    }
}

/// A Markdown document made from `bytes`, whether the reading follows all of it, and whether
/// its chunks' text is to be the whole's exactly (not where it has a list or a quotation that
/// goes on with lines indented by four): each byte a block (a paragraph, a heading, fenced
/// code), or a line of the fenced code open. Fences open and close as the bytes say, some
/// never closed.
func markdownChunksDocument(_ bytes: ArraySlice<UInt8>) -> (String, Bool, Bool) {
    let blocks = [
        "a ||secret|| word", "*em* and ||more secret||", "# Heading ||secret h||", "plain words",
        "x ||secret\nz|| w", "``` a`b\n||secret after a line that opens no fence||", "> quoted ||secret q||",
    ]
    // (Not followed by the reading: the first makes it take the line of backticks for a
    // fence, the second makes it miss one.)
    let outOfStep = ["<div>\n```\n</div>", "- ```sh\n  code ||in a list||\n\n  more\n  ```"]
    // Lines that read alone otherwise than in the whole: a list item's paragraph indented by
    // four after a blank line, lazy lines indented by four, a line that starts with `<` in a
    // paragraph. A chunk must not start with one (its text read as code or HTML); the
    // reader's text of a list may differ from the whole's (its items' separation), so a
    // document with one is checked for secrets only.
    let indented = [
        "- item ||secret i||\n\n    ||secret para|| of the item", "a line\n    ||secret lazy|| line",
        "> quoted\n    ||secret ql|| lazy", "a line\n<span>||secret html||</span> inline",
        "- item\n\n\t||secret tab|| para",
    ]
    var exact = true
    let fences = [
        ("```", "```"), ("```swift", "```"), ("~~~", "~~~"), ("````c++ x", "````"), ("  ```", "```"),
        ("~~~~ info `x`", "~~~~~"),
    ]
    let codeLines = [
        "let x = 1", "||shown in code||", "*not emphasis*", "", "    indented", "``", "`inline`", "~~", "é 漢字 😀",
        "<div>", "# not a heading", "``` not a closing fence", "\t tab", "~~~ x",
    ]
    var text = ""
    var inStep = true
    var fence: (open: String, close: String)?
    for b in bytes {
        if let f = fence {
            switch b {
            case 0xF0...0xFF:
                // The fence closes.
                text += f.close + "\n\n"
                fence = nil
            default:
                text += codeLines[Int(b) % codeLines.count] + (b & 0x80 != 0 ? "\r\n" : "\n")
            }
        } else if b & 0x03 == 0 {
            fence = fences[Int(b >> 2) % fences.count]
            text += fence!.open + "\nfirst\n"
        } else if b == 0x11 || b == 0x21 {
            text += outOfStep[b == 0x11 ? 0 : 1] + "\n\n"
            inStep = false
        } else if b & 0x0F == 0x0D {
            text += indented[Int(b >> 4) % indented.count] + "\n\n"
            exact = false
        } else {
            text += blocks[Int(b >> 2) % blocks.count] + "\n\n"
        }
    }
    if fence != nil {
        // Never closed: the last line not blank (which the whole parse keeps in the code,
        // and a chunk's, of a text without the last line break, does not).
        while text.hasSuffix("\n") { text.removeLast() }
        text += "\nend\n"
    }
    return (text, inStep, exact)
}

/// The kind of each UTF-16 unit of `message`'s text: `s` under a spoiler, `c` in code
/// (`pre`), `.` neither.
/// Whether `units` hold a `secret` whose first unit is not under a spoiler (`kinds`, as
/// ``markdownChunkKinds(_:)`` marks them).
func showsSecret(_ units: [UInt16], _ kinds: [UInt8]) -> Bool {
    let secret = Array("secret".utf16)
    guard units.count >= secret.count else { return false }
    return (0...(units.count - secret.count)).contains { u in
        units[u..<(u + secret.count)].elementsEqual(secret) && kinds[u] != UInt8(ascii: "s")
    }
}

func markdownChunkKinds(_ message: Message) -> [UInt8] {
    var kinds = Array(repeating: UInt8(ascii: "."), count: message.text.utf16.count)
    for e in message.entities where e.type == .pre || e.type == .spoiler {
        let kind = e.type == .spoiler ? UInt8(ascii: "s") : UInt8(ascii: "c")
        for u in max(0, e.offset)..<min(kinds.count, e.offset + e.length) where kinds[u] != UInt8(ascii: "s") {
            kinds[u] = kind
        }
    }
    return kinds
}
