/// Follows the tags of Telegram HTML as its bytes go by, without parsing it: which tags are
/// open at each place, exactly as ``HTMLParser`` reads them (the same tag grammar, the same
/// attributes), so that a long text can be cut where tags are open and each part parsed
/// between the start tags of what is open at its start and the end tags of what is open at
/// its end (`spoiler read` of a long file).
///
/// A part cut so reads as the whole text's parse reads there, text and entities unit by unit,
/// when the cut is one ``isSafeCut(before:)`` allows and every open tag can be opened again
/// with the same meaning (``OpenTag/startTag`` is not nil): an `<a>` without `href` takes its
/// text as its link, and a `<code class="language-x">` may turn the `<pre>` around it into a
/// `pre` with a language only where both end together, so neither is opened again.
///
/// A tag the whole parse rejects (an unknown tag, an end tag that does not match, a tag not
/// closed by `>`) makes the whole parse fail; the tracker passes over it, leaving what is open
/// as it was, so a part that holds it fails to parse too. A tag still open at the end of the
/// text is also an error for the whole parse (``unclosed``).
package struct HTMLTagTracker: Sendable, Equatable {
    /// One open tag.
    package struct OpenTag: Sendable, Equatable {
        /// Which tag it is (its end tag must name it).
        let tag: HTMLScanner.Tag
        /// The start tag as written, when it can be opened again and is not `<name>` in
        /// lower case (that one needs no room of its own: ``bareStartTags``).
        private let written: [UInt8]?
        private let reopens: Bool
        /// The byte offset of its `<`.
        package let byteOffset: Int

        /// `tag` opened by `startTag` (`<` to `>`; nil when it cannot be opened again) at
        /// `byteOffset`.
        init(_ tag: HTMLScanner.Tag, startTag: UnsafeBufferPointer<UInt8>?, byteOffset: Int) {
            self.tag = tag
            self.byteOffset = byteOffset
            reopens = startTag != nil
            guard let startTag else {
                written = nil
                return
            }
            let bare = HTMLTagTracker.bareStartTags[Int(tag.rawValue)]
            let same = bare.withUnsafeBufferPointer { bare in
                guard bare.count == startTag.count else { return false }
                for k in 0..<bare.count where bare[k] != startTag[k] { return false }
                return true
            }
            written = same ? nil : Array(startTag)
        }

        /// The name that closes it (`</name>`), in lower case.
        package var name: String { tag.name }

        /// The start tag as written, `<` to `>`; nil when opening it again would change what
        /// the text means, or when it is too long to keep (``maximumTagBytes``).
        package var startTag: [UInt8]? {
            reopens ? written ?? HTMLTagTracker.bareStartTags[Int(tag.rawValue)] : nil
        }
    }

    /// `<name>` of each tag, in lower case: most start tags are written so.
    static let bareStartTags: [[UInt8]] = (0...HTMLScanner.Tag.blockquote.rawValue).map { raw in
        [0x3C] + Array((HTMLScanner.Tag(rawValue: raw)?.name ?? "").utf8) + [0x3E]
    }

    /// The longest start tag kept to be opened again.
    package static let maximumTagBytes = 4096

    private enum State: Sendable, Equatable {
        case text
        /// After `<`.
        case afterLess
        case startName
        /// The top of the attribute loop: spaces, then `>` or an attribute's name.
        case beforeAttribute
        case attributeName
        /// After an attribute's name: spaces, then `=` or the next attribute.
        case afterAttributeName
        /// After `=`: spaces, then a quote or a name token.
        case beforeValue
        case quoted(UInt8)
        /// After a quoted value's closing quote.
        case afterQuoted
        case token
        case endName
        case afterEndName
    }

    /// The tags open after the bytes taken so far, outermost first.
    package private(set) var open: [OpenTag] = []
    /// How many times ``open`` has changed.
    package private(set) var changes = 0
    private var state = State.text
    /// The tag being read: its bytes (up to ``maximumTagBytes``, then `overflow`) and offset.
    private var raw: [UInt8] = []
    private var overflow = false
    private var tagStart = -1
    /// A character reference may still go on (`&`, then letters, digits or `#`).
    private var inReference = false
    /// Whether the last byte taken was text (not a tag's).
    package private(set) var lastWasText = false
    /// How many tags the tracker passed over as the whole parse rejects them (an end tag
    /// with nothing open, or not the innermost open tag's, an unknown tag, a tag not
    /// closed right): where it started inside a text, an end tag of what was open before.
    package private(set) var rejections = 0
    /// The tag the last change closed; nil when it opened one.
    private var closedLast: OpenTag?

    /// A tracker at the start of a text.
    package init() {}

    /// Whether the bytes taken so far end in text (not inside a tag).
    package var isInText: Bool { state == .text }

    /// Whether nothing is open: no tag, and no tag being read.
    package var isOutside: Bool { open.isEmpty && state == .text }

    /// Whether every open tag can be opened again with the same meaning.
    package var canReopen: Bool { open.allSatisfy { $0.startTag != nil } }

    /// `<` and `&`.
    package static var markupBytes: (UInt8, UInt8) { (0x3C, 0x26) }

    /// Only a tag's `>` opens or closes anything.
    @inline(__always)
    package static func mayChangeOpen(_ b: UInt8) -> Bool { b == 0x3E }

    /// Takes a run of text bytes, none of them `<` or `&`.
    package mutating func takeText(_ run: UnsafeBufferPointer<UInt8>.SubSequence) {
        guard !run.isEmpty else { return }
        if inReference && run.contains(where: { !Self.continuesReference($0) }) { inReference = false }
        lastWasText = true
    }

    @inline(__always)
    static func continuesReference(_ b: UInt8) -> Bool { TDLibText.isAlnum(b) || b == 0x23 }

    /// Whether a part may end before the byte `next` (nil at the end of the text) and the
    /// next part start with it, where start and end tags may go: between two characters of
    /// text (not inside a tag, a character reference or a UTF-8 sequence, and not right
    /// before or after a tag, where a tag put there would meet it).
    package func isSafeCut(before next: UInt8?) -> Bool {
        guard state == .text, lastWasText, let b = next else { return false }
        if b == 0x3C || b & 0xC0 == 0x80 { return false }
        if inReference && (Self.continuesReference(b) || b == 0x3B) { return false }
        return true
    }

    /// The start tags that open what is open, outermost first (empty when nothing is); nil
    /// when one of them cannot be opened again.
    package var openingMarkup: [UInt8]? { Self.openingMarkup(of: open[...]) }

    /// The end tags that close what is open, innermost first.
    package var closingMarkup: [UInt8] { Self.closingMarkup(of: open[...], then: nil) }

    /// The tags open before the last change: all but the last (it opened one), or these
    /// and the one it closed, ``closedLast``.
    private var openBeforeLastChange: (kept: ArraySlice<OpenTag>, closed: OpenTag?) {
        closedLast.map { (open[...], $0) } ?? (open.dropLast(), nil)
    }

    /// ``openingMarkup`` of what was open before the last change (``changes``): nil when
    /// it could not be opened again.
    package var openingMarkupBeforeLastChange: [UInt8]? {
        let (kept, closed) = openBeforeLastChange
        guard var bytes = Self.openingMarkup(of: kept) else { return nil }
        guard let closed else { return bytes }
        guard let start = closed.startTag else { return nil }
        bytes += start
        return bytes
    }

    /// ``closingMarkup`` of what was open before the last change.
    package var closingMarkupBeforeLastChange: [UInt8] {
        let (kept, closed) = openBeforeLastChange
        return Self.closingMarkup(of: kept, then: closed)
    }

    /// The start tags of `tags`, outermost first; nil when one cannot be opened again.
    private static func openingMarkup(of tags: ArraySlice<OpenTag>) -> [UInt8]? {
        var bytes: [UInt8] = []
        for tag in tags {
            guard let start = tag.startTag else { return nil }
            bytes += start
        }
        return bytes
    }

    /// The end tags of `innermost` (if any) and then of `tags`, innermost first.
    private static func closingMarkup(of tags: ArraySlice<OpenTag>, then innermost: OpenTag?) -> [UInt8] {
        var bytes: [UInt8] = []
        func close(_ tag: OpenTag) {
            bytes += [0x3C, 0x2F]
            bytes += tag.name.utf8
            bytes.append(0x3E)
        }
        if let innermost { close(innermost) }
        for tag in tags.reversed() { close(tag) }
        return bytes
    }

    /// The tag the whole parse finds open at the end of the text, and the sentence it fails
    /// with, when the tracker has taken the whole text; nil when none is.
    package var unclosed: (reason: String, byteOffset: Int)? {
        guard let top = open.last else { return nil }
        return ("Can't find end tag corresponding to start tag \"\(top.name)\"", top.byteOffset)
    }

    /// Takes the bytes of `bytes[from..<before]` (the first at `offset`) while inside a tag
    /// (not ``isInText``), stopping before one that may end it or change what is open, and
    /// before a line break, carriage return, space or tab; returns the index it stopped at.
    package mutating func takeInsideMarkup(
        _ bytes: UnsafeBufferPointer<UInt8>, from: Int, before: Int, at offset: Int
    ) -> Int {
        var j = from
        while j < before && state != .text {
            let b = bytes[j]
            if b == 0x3E || b == 0x0A || b == 0x0D || b == 0x20 || b == 0x09 { break }
            take(b, at: offset + (j - from))
            j += 1
        }
        return j
    }

    /// Takes at once a tag of the two plainest forms, `<name>` and `</name>` (a name of ASCII
    /// letters, digits and `-`), whose bytes are `bytes[from..<end]` (`<` to `>`), the first
    /// at `offset`, while ``isInText``: what taking them one at a time with
    /// ``take(_:at:)`` does (`spoiler read`'s index of a long HTML file meets a tag every
    /// few bytes). Returns false, having taken nothing, for any other tag, and for an end
    /// tag where nothing is open (whose bytes after `</` are text): take those a byte at a
    /// time.
    package mutating func takeSimpleTag(_ bytes: UnsafeBufferPointer<UInt8>, from: Int, end: Int, at offset: Int)
        -> Bool
    {
        guard state == .text, end - from >= 3, bytes[from] == 0x3C, bytes[end - 1] == 0x3E else { return false }
        let base = bytes.baseAddress!
        let isEnd = base[from + 1] == 0x2F
        let nameStart = isEnd ? from + 2 : from + 1
        guard nameStart < end - 1, !isEnd || !open.isEmpty else { return false }
        let tag = HTMLScanner.Tag.named(base + nameStart, count: end - 1 - nameStart)
        if tag == nil {
            // A name no tag has is the whole tag's only if nothing else is between `<` and
            // `>` (a known name is letters and `-`).
            for k in nameStart..<(end - 1) {
                let b = base[k]
                guard TDLibText.isAlnum(b) || b == 0x2D else { return false }
            }
        }
        // As the `<` does.
        tagStart = offset
        overflow = false
        inReference = false
        lastWasText = false
        if !raw.isEmpty { raw.removeAll(keepingCapacity: true) }
        if isEnd {
            // The name must be the innermost open tag's.
            guard let tag, tag == open.last?.tag else {
                reject()
                return true
            }
            closedLast = open.removeLast()
        } else {
            guard let tag, let reopens = HTMLTagTracker.bareTagReopens(tag) else {
                reject()
                return true
            }
            let written = UnsafeBufferPointer(rebasing: bytes[from..<end])
            open.append(OpenTag(tag, startTag: reopens ? written : nil, byteOffset: offset))
            closedLast = nil
        }
        changes += 1
        return true
    }

    /// Takes the byte `b` at `offset`.
    package mutating func take(_ b: UInt8, at offset: Int) {
        switch state {
        case .text:
            if b == 0x3C {
                state = .afterLess
                tagStart = offset
                // (The bytes of the last tag go, their room kept: no allocation per tag.)
                raw.removeAll(keepingCapacity: true)
                raw.append(b)
                overflow = false
                inReference = false
                lastWasText = false
                return
            }
            if inReference && (b == 0x3B || !Self.continuesReference(b)) { inReference = false }
            if b == 0x26 { inReference = true }
            lastWasText = true
            return
        default:
            break
        }
        if raw.count < Self.maximumTagBytes {
            raw.append(b)
        } else {
            overflow = true
        }
        step(b)
    }

    /// One byte of a tag, in `state` (the attribute loop of `HTMLScanner.startTag()` and
    /// `endTag()`, byte by byte).
    private mutating func step(_ b: UInt8) {
        let space = TDLibText.isSpace(b)
        switch state {
        case .text:
            break
        case .afterLess:
            if b == 0x2F {
                // An end tag closes the innermost open tag: none is an error.
                if open.isEmpty { return reject() }
                state = .endName
            } else if space || b == 0x3E {
                // No name: not a tag TDLib knows.
                reject()
            } else {
                state = .startName
            }
        case .startName:
            guard space || b == 0x3E else { return }
            if b == 0 { return reject() }
            if b == 0x3E {
                finishStartTag()
            } else {
                state = .beforeAttribute
            }
        case .beforeAttribute:
            if b == 0x3E { return finishStartTag() }
            if space && b != 0 { return }
            // An attribute's name: empty (a quote, `=`, `/`) is an error.
            if HTMLScanner.endsAttributeName(b) { return reject() }
            state = .attributeName
        case .attributeName:
            guard HTMLScanner.endsAttributeName(b) else { return }
            state = .afterAttributeName
            step(b)
        case .afterAttributeName:
            if space && b != 0 { return }
            if b == 0x3D {
                state = .beforeValue
            } else if b == 0 {
                reject()
            } else {
                state = .beforeAttribute
                step(b)
            }
        case .beforeValue:
            if space && b != 0 { return }
            if b == 0 { return reject() }
            if b == 0x22 || b == 0x27 {
                state = .quoted(b)
            } else {
                state = .token
                step(b)
            }
        case .quoted(let quote):
            if b == quote {
                state = .afterQuoted
            } else if b == 0 {
                reject()
            }
        case .afterQuoted:
            if b == 0 { return reject() }
            state = .beforeAttribute
            step(b)
        case .token:
            if TDLibText.isAlnum(b) || b == 0x2E || b == 0x2D { return }
            if b == 0 || (!space && b != 0x3E) { return reject() }
            state = .beforeAttribute
            step(b)
        case .endName:
            guard space || b == 0x3E else { return }
            state = .afterEndName
            step(b)
        case .afterEndName:
            if space && b != 0 { return }
            if b != 0x3E { return reject() }
            finishEndTag()
        }
    }

    /// A tag the whole parse rejects: what is open stays as it was.
    private mutating func reject() {
        rejections += 1
        state = .text
        raw.removeAll(keepingCapacity: true)
        lastWasText = false
    }

    /// Whether a start tag written `<name>`, with no attributes, opens its entity again
    /// with the same meaning: the name says it all, but for an `<a>`, which takes its text
    /// as its link (opened again around a part, it would link that part's text). Nil for a
    /// `<span>`, which the whole parse rejects without its class. The one rule for both
    /// ways a start tag is taken (``takeSimpleTag(_:from:end:at:)`` and a byte at a time).
    static func bareTagReopens(_ tag: HTMLScanner.Tag) -> Bool? {
        switch tag {
        case .span: nil
        case .a: false
        default: true
        }
    }

    private mutating func finishStartTag() {
        state = .text
        lastWasText = false
        let nameEnd = raw.firstIndex(where: { TDLibText.isSpace($0) || $0 == 0x3E }) ?? raw.count
        let name = raw[1..<nameEnd]
        guard let tag = name.withUnsafeBufferPointer({ HTMLScanner.Tag.named($0.baseAddress!, count: $0.count) })
        else { return reject() }
        // Whether the tag as written (`raw`) opens it again with the same meaning.
        var reopens = false
        if nameEnd == raw.count - 1 {
            guard let bare = HTMLTagTracker.bareTagReopens(tag) else { return reject() }
            reopens = bare
        } else if !overflow {
            // The start tag as the parser reads it: an error there is one for the whole parse.
            guard let (read, attributes) = HTMLScanner.readStartTag(raw), read == tag else { return reject() }
            switch tag {
            case .a where attributes.argument.isEmpty: reopens = false
            case .code where !attributes.argument.isEmpty: reopens = false
            default: reopens = true
            }
        }
        raw.withUnsafeBufferPointer { open.append(OpenTag(tag, startTag: reopens ? $0 : nil, byteOffset: tagStart)) }
        changes += 1
        closedLast = nil
        raw.removeAll(keepingCapacity: true)
    }

    private mutating func finishEndTag() {
        state = .text
        lastWasText = false
        // `</` name spaces `>`: the name must be the innermost open tag's, or empty.
        let nameEnd = raw.indices.dropFirst(2).first { TDLibText.isSpace(raw[$0]) || raw[$0] == 0x3E } ?? raw.count
        let name = raw[2..<nameEnd]
        if !name.isEmpty {
            let tag = name.withUnsafeBufferPointer { HTMLScanner.Tag.named($0.baseAddress!, count: $0.count) }
            guard let tag, tag == open.last?.tag else { return reject() }
        }
        closedLast = open.removeLast()
        changes += 1
        raw.removeAll(keepingCapacity: true)
    }
}

extension HTMLScanner {
    /// The tag and attributes of the start tag `raw` (`<` to `>`), read as the parse reads
    /// one; nil when it is an error, or does not end where `raw` does.
    static func readStartTag(_ raw: [UInt8]) -> (Tag, Attributes)? {
        raw.withUnsafeBufferPointer { buffer -> (Tag, Attributes)? in
            var scanner = HTMLScanner(buffer, original: raw)
            defer { scanner.deallocate() }
            do {
                try scanner.startTag()
            } catch {
                return nil
            }
            guard scanner.i == raw.count, !scanner.stack.isEmpty, let tag = Tag(rawValue: scanner.stack.top.kind)
            else { return nil }
            let index = Int(scanner.stack.top.attributes)
            return (tag, index >= 0 ? scanner.attributeTable[index] : Attributes())
        }
    }
}
