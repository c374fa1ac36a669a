import Glibc
import SpoilerCore
public import SpoilerParser

/// Finds where a document may be cut into chunks that are parsed on their own, reading
/// it forward a block of bytes at a time (``ChunkedDocument`` builds its index with it).
///
/// A chunk is at least ``minimumBytes`` long (the last may be shorter) and is cut at
/// the first place the ``Rule`` allows after that; a run with no such place is cut after
/// ``maximumBytes`` at the last line break (for ``Rule/paragraphs`` also at a space, or
/// between two characters), so that no chunk grows without bound.
///
/// - Complexity: O(n) time for n bytes, O(1) memory.
public struct ChunkBoundaryScanner: Sendable {
    /// Where a chunk may end.
    public enum Rule: Sendable, Equatable {
        /// Text: after a blank line.
        case paragraphs
        /// Telegram MarkdownV2: after a blank line where no entity is open (its markers
        /// read in outline, as TDLib pairs them: `EntityBalance`), so that an entity across a
        /// blank line stays in one chunk. A chunk that has to be cut where one is open (after
        /// ``maximumBytes``) is cut at a line break, space or between two characters with
        /// text on both sides, and its parts are parsed after the markers that open what is
        /// open at their start and before those that close what is open at their end
        /// (``ChunkedDocument`` does), where those are bold, italic, underline, strikethrough
        /// and spoilers outside a quotation; where they are not (a link's text, code, a
        /// quotation) a chunk waits up to twice ``maximumBytes`` for them to close, and is
        /// then cut as before: ``ChunkedDocument`` says the chunks on either side cannot be
        /// read (parsed on their own, those inside a spoiler would show it).
        case markdownV2Text
        /// Telegram HTML: after a blank line outside every tag, as the parse of the whole text
        /// reads its tags (`HTMLTagTracker`). A chunk that has to be cut inside tags (after
        /// ``maximumBytes``: one entity longer than that, or a tag never closed) is cut
        /// between two characters of text, and its parts are parsed between the start tags
        /// of what is open at their start and the end tags of what is open at their end
        /// (``ChunkedDocument`` does), where those tags can be opened again with the same
        /// meaning; where they cannot (inside an `<a>` without `href`, a `<code>` with a
        /// language, or a start tag longer than 4 KB) a chunk waits up to twice
        /// ``maximumBytes`` for them to close, and is then cut as before: its parts do not
        /// parse.
        case htmlText
        /// Plain chat text (``PlainParser``): after a blank line outside every spoiler and
        /// code span, as the parse of the whole text has them (``PlainMarkupTracker``), so
        /// that a spoiler across blank lines stays whole. A chunk that has to be cut where
        /// one is open (after ``maximumBytes``) is reported with what is open there
        /// (``scan(_:emitCut:)``), for its parts to be parsed with the markers that open
        /// and close it.
        case plainText
        /// Markdown: after a blank line outside fenced code (``` or ~~~), before a line
        /// indented by less than four (one indented by four may go on with a list item,
        /// which read alone it would not). A fenced code block longer than ``maximumBytes``
        /// is cut at a line break inside it, and the part after the cut is parsed after its
        /// opening fence line (``ChunkedDocument`` does), so that each part is the same code;
        /// the part before needs no closing fence (the end of a document closes one). Any
        /// other block that long is cut before its last line indented by less than four that
        /// does not start with `<`, or, with none, at its last line break.
        case markdownBlocks
        /// A Telegram Desktop export: between the objects of its top-level `messages` array,
        /// or in a whole-account export of each chat's (`chats.list[].messages`,
        /// `left_chats.list[].messages`), where each chat's first message starts a chunk.
        case exportMessages
    }

    /// The rule.
    public let rule: Rule
    /// The least length of a chunk in bytes.
    public let minimumBytes: Int
    /// The length after which a chunk is cut at the next possible place, in bytes.
    public let maximumBytes: Int
    /// Where the chunk being scanned starts; for an export, nil until the first message.
    public private(set) var chunkStart: Int?
    /// For an export: the byte after the last message seen (its closing brace).
    public private(set) var contentEnd: Int?
    /// The offset of the next byte to scan.
    public private(set) var position = 0
    /// Whether the scan goes straight through a line's text and a JSON string (off only to
    /// check that it finds what a byte-by-byte scan finds).
    package var skipsAhead = true
    /// Where a chunk starts whatever the length of the one before it, if a chunk may start
    /// there (an export's message, a line after a blank line outside fenced code; -1: none),
    /// so that the chunks after it are those of a scan begun there
    /// (``exportTail(at:minimumBytes:maximumBytes:)``, ``textTail(at:rule:minimumBytes:maximumBytes:)``).
    package var cutsAt = -1

    // Text: the current line and the last places to cut.
    private var lineHasText = false
    private var afterNewline = -1
    /// Markdown: the start of the last line whose text begins within its first four columns,
    /// other than with `<` (-1: none since the chunk started): the place a chunk that runs on
    /// without a blank line is cut first. Read alone from there, the line is what the whole
    /// reads it as, or more hidden, never less: a line indented by four could read as code,
    /// and one that starts with `<` as an HTML block, where the whole has the text of a list
    /// item or a paragraph, with its spoilers.
    private var afterTextNewline = -1
    /// Markdown: the start of the line after the last blank line, where a chunk is cut once
    /// that line is known to be indented by less than four (-1: none). A line indented by
    /// four after a blank line may go on with a list item, which read alone it would not (a
    /// paragraph of a list item would read as code).
    private var pendingBlankCut = -1
    private var afterSpace = -1
    /// MarkdownV2: whether an entity is open at `afterNewline`, at `afterSpace`.
    private var afterNewlineOpen = false
    /// MarkdownV2: where the last carriage return a backslash escapes is (-1: none). A line
    /// break after it, or one escaped itself, is no place to cut: the chunk is parsed
    /// without its last line break, and the backslash would show.
    private var escapedReturnAt = -1
    private var afterSpaceOpen = false
    private var lineIndent = 0
    private var lineLead: UInt8 = 0
    private var lineLeadRun = 0
    private var lineInLead = true
    private var fence: (mark: UInt8, length: Int)?
    /// Markdown: what the line being read has after a run of three or more backticks or
    /// tildes that starts it: ``restText`` (a byte other than a space, tab or carriage
    /// return: no closing fence), ``restBacktick`` (a backtick: no opening fence of
    /// backticks), as CommonMark reads fence lines.
    private var lineRest: UInt8 = 0
    private static let restText: UInt8 = 1
    private static let restBacktick: UInt8 = 2
    /// Markdown: the line being read, from its start, while it may open a fence (its
    /// indentation, then a backtick or tilde first): at most ``fenceLineLimit`` bytes.
    private var fenceLine: [UInt8] = []
    /// Markdown: whether the line being read is kept in ``fenceLine``.
    private var keepsFenceLine = false
    /// Markdown: the line that opened the fence open now, without its line break (only its
    /// indentation and fence if the line is longer than ``fenceLineLimit``).
    private var fenceOpener: [UInt8] = []
    /// Markdown: the offset of the line break that ends the fence's opening line.
    private var fenceOpenedAt = -1
    /// Markdown: whether a line that may open or close fenced code has been scanned.
    private var sawFenceLine = false
    /// Markdown: whether the last line ended had nothing but white space.
    private var lastLineBlank = false
    /// Markdown: the offset of the line break of the first line this scan may read other
    /// than Markdown does. Outside fenced code: a run of three backticks or tildes after a
    /// list item's or a quotation's marker, or indented by four or more (in a list item
    /// either opens code, which the scan does not follow), or any line that may open a
    /// fence after a line that starts with `<` (inside an HTML block it opens nothing).
    /// Inside fenced code whose opening line is indented: a line indented less (in a list
    /// item it ends the item, and the code, where the scan goes on with it). Before it,
    /// where the scan says a chunk starts outside fenced code, so does Markdown; from it
    /// on, the reader checks (`ChunkedDocument.readsInStep`). Nil while there is none.
    package private(set) var firstDoubt: Int?
    /// Markdown: whether a line outside fenced code has started with `<` (an HTML block
    /// may be open).
    private var sawHTMLStart = false
    /// Markdown: the indentation of the line that opened the fence open now.
    private var fenceIndent = 0
    /// Markdown, outside fenced code: where the line being read is in the markers of a list
    /// item or a quotation it starts with (``MarkerState``), and the run of backticks or
    /// tildes after them.
    private var markerState = MarkerState.none
    private var markerMark: UInt8 = 0
    private var markerRun = 0

    /// Where a line is in the markers it starts with, as CommonMark writes them: `-`, `*` or
    /// `+` and a space, digits (CommonMark allows up to nine; more are taken too, which only
    /// notes a doubt more), `.` or `)` and a space, `>` (a space after it optional), any of
    /// them in turn.
    private enum MarkerState: UInt8 {
        /// No marker read (or the line is past them).
        case none
        /// After a quotation's `>`, or a list item's marker and its space: another marker
        /// or a fence may come.
        case markerOrFence
        /// In the digits of an ordered list item's marker.
        case digits
        /// After a list item's marker: a space must come.
        case space
    }
    /// The longest opening fence line kept whole.
    static let fenceLineLimit = 4096
    /// MarkdownV2: what is open (`followsBalance`; kept for every rule, so that it is
    /// changed in place, never copied out of an optional).
    private var balance = EntityBalance(.markdownV2)
    private let followsBalance: Bool
    /// MarkdownV2: what was open at `afterNewline` and `afterSpace` (``EntityBalance/depth``)
    /// and whether it could be opened again there (``EntityBalance/canReopen``), and whether
    /// the bytes on both sides of each are text (``EntityBalance/isPlain(_:)``), the one
    /// after known when it comes.
    private var newlineDepth = EntityBalance.Depth()
    private var spaceDepth = EntityBalance.Depth()
    private var newlineReopens = false
    private var spaceReopens = false
    private var newlineBeforePlain = false
    private var newlinePlain = false
    private var spacePlain = false
    /// The last byte taken (by ``scanText(_:emit:)``), and for MarkdownV2 the last of the
    /// line before its line break (not a carriage return; the line break before a blank line).
    private var previousByte: UInt8 = 0x0A
    private var lineLastByte: UInt8 = 0x0A
    /// HTML: the tags open, as the whole text's parse has them.
    package private(set) var tags: HTMLTagTracker?
    // HTML: places a cut after ``maximumBytes`` may go where something is open (after a line
    // break, after a space); the same, waiting for the byte after them.
    private var entityNewline = EntityPlace()
    private var entitySpace = EntityPlace()
    private var pendingEntityNewline = EntityPlace()
    private var pendingEntitySpace = EntityPlace()
    /// HTML: whether the text before the carriage return at `returnAt` ended in text.
    private var returnAfterText = false
    /// HTML: where the last line break is (-1: none yet).
    private var newlineAt = -1
    // Plain text: what is open (the spoilers and code of the text so far), the byte before
    // the next, and the places a cut after ``maximumBytes`` may go with what is open there.
    /// What is open after the bytes scanned (``Rule/plainText``); once the whole document
    /// is scanned, ``PlainMarkupTracker/resolve(_:)`` says what is open for certain at each
    /// place a chunk was cut where something looked open.
    public private(set) var markup = PlainMarkupTracker()
    /// Plain text, MarkdownV2 and HTML: the last offset the scan found nothing open at (-1:
    /// none yet).
    /// What looked open at a cut before it is known for certain: it closed.
    public private(set) var lastOutside = -1
    /// HTML: the last offset the scan found something open at, a tag or a tag being read
    /// (-1: none yet). A cut after it is where nothing is open.
    private var lastInside = -1
    private var lastByte: UInt8?
    private var returnSafe = false
    private var returnAt = -1
    private var newlinePlace: PlainMarkupTracker.Place?
    /// Where the chunk cut at ``newlinePlace`` ends as it is parsed (before its line break).
    private var newlineEnd = -1
    private var pendingNewlineEnd = -1
    private var spacePlace: PlainMarkupTracker.Place?
    private var pendingNewline: PlainMarkupTracker.Place?
    private var pendingSpace: PlainMarkupTracker.Place?
    // Export: the JSON structure.
    private var depth = 0
    private var inString = false
    private var escaped = false
    /// Whether the string being read may be a key that matters (``JSONKey``), and its
    /// bytes so far.
    private var stringMatchesKey = false
    private var keyBytes: [UInt8] = []
    /// The key just read, while its value has not begun.
    private var expectedKey = JSONKey.none
    /// The depth of the array of messages being read (2: one chat's export, top level; 5: a
    /// chat's in a whole-account export); -1 once a one-chat export's has closed.
    private var messagesDepth: Int?
    /// A whole-account export: the depth of the `chats` (or `left_chats`) object being
    /// read (2), and of its `list` array (3).
    private var accountDepth: Int?
    private var listDepth: Int?
    /// A whole-account export: a chat's `messages` array has opened and its first message
    /// not yet come (each chat's messages start a chunk).
    private var opensChat = false
    /// Whether a `messages` array has been found.
    private var sawMessages = false
    /// Whether the messages are a whole-account export's (`chats.list[].messages`).
    package private(set) var isWholeAccount = false

    /// The keys the scan of an export follows.
    private enum JSONKey {
        case none
        /// `messages`, at the top (one chat) or in a chat of a list (a whole account).
        case messages
        /// `chats` or `left_chats`, at the top.
        case chats
        /// `list`, in the `chats` object.
        case list
    }

    /// A scanner for `rule`, with chunks of at least `minimumBytes` and cut after at most
    /// `maximumBytes` where possible.
    public init(rule: Rule, minimumBytes: Int = 4096, maximumBytes: Int = 65536) {
        self.rule = rule
        self.minimumBytes = max(1, minimumBytes)
        self.maximumBytes = max(self.minimumBytes, maximumBytes)
        if rule != .exportMessages { chunkStart = 0 }
        followsBalance = rule == .markdownV2Text
        switch rule {
        case .htmlText: tags = HTMLTagTracker()
        default: break
        }
    }

    /// A scanner for an export's messages from `position`, the start of one of the
    /// top-level `messages` array's objects (found from the end of the file), as if the
    /// bytes before it had been scanned and a chunk started there.
    ///
    /// With `wholeAccount`, the object is one of a chat's messages in a whole-account export
    /// (`{"chats": {"list": [{"messages": [here]}]}}`, or `left_chats`).
    package static func exportTail(at position: Int, minimumBytes: Int, maximumBytes: Int, wholeAccount: Bool = false)
        -> ChunkBoundaryScanner
    {
        var scanner = ChunkBoundaryScanner(
            rule: .exportMessages, minimumBytes: minimumBytes, maximumBytes: maximumBytes)
        scanner.position = position
        scanner.sawMessages = true
        if wholeAccount {
            (scanner.depth, scanner.messagesDepth, scanner.listDepth, scanner.accountDepth) = (5, 5, 3, 2)
            scanner.isWholeAccount = true
        } else {
            scanner.depth = 2
            scanner.messagesDepth = 2
        }
        return scanner
    }

    /// A scanner for a text from `position`, the start of a line after a blank line (found
    /// from the end of the file), as if a chunk started there outside any fenced code.
    package static func textTail(at position: Int, rule: Rule, minimumBytes: Int, maximumBytes: Int)
        -> ChunkBoundaryScanner
    {
        var scanner = ChunkBoundaryScanner(rule: rule, minimumBytes: minimumBytes, maximumBytes: maximumBytes)
        scanner.position = position
        scanner.chunkStart = position
        return scanner
    }

    /// For HTML scanned from a place found from the end of the file (``textTail(at:rule:minimumBytes:maximumBytes:)``)
    /// to the end: whether the text from there reads on its own, every tag it opens closed
    /// and no tag rejected. A tag open at that place would be closed after it by an end tag
    /// this scan, which never saw it opened, rejects: so in a document whose parse
    /// succeeds, nothing is open there. For Markdown: whether no line from there on may
    /// open or close fenced code. Fenced code open at that place would be closed by such a
    /// line, which this scan would take for one that opens code, and the text after it for
    /// code (its spoilers shown as they are); with none, code open there runs on to the end
    /// of the file, and is read as text. True for the other rules.
    package var tailReadsAlone: Bool {
        if rule == .markdownBlocks { return !sawFenceLine }
        guard let tags else { return true }
        return tags.rejections == 0 && tags.isOutside
    }

    /// For an export: whether the scan so far has closed the `messages` array and the
    /// top-level object, and not gone below it.
    package var closedTheExport: Bool {
        depth == 0 && !inString && messagesDepth == (isWholeAccount ? nil : -1)
    }

    /// Whether an export's `messages` array has been found.
    public var foundMessages: Bool { sawMessages }

    /// Scans the next bytes of the document, calling `emit` with the offset where each
    /// new chunk starts (for an export, the first message's offset too).
    public mutating func scan(_ bytes: UnsafeBufferPointer<UInt8>, emit: (Int) -> Void) {
        scan(bytes) { offset, _ in emit(offset) }
    }

    /// Scans the next bytes of the document as ``scan(_:emit:)`` does, calling `emitCut`
    /// with each new chunk's start and, for ``Rule/plainText``, what is open there when
    /// something looks open (nil when nothing is: the chunk is a text of its own).
    public mutating func scan(
        _ bytes: UnsafeBufferPointer<UInt8>, emitCut: (Int, PlainMarkupTracker.Place?) -> Void
    ) {
        scanCuts(bytes) { offset, open in
            if case .plain(let place) = open {
                emitCut(offset, place)
            } else {
                emitCut(offset, nil)
            }
        }
    }

    /// Scans the next bytes of the document, calling `emit` with each new chunk's start and
    /// what is open there when the chunk was cut where something is (nil when nothing is).
    package mutating func scanCuts(_ bytes: UnsafeBufferPointer<UInt8>, emit: (Int, OpenAtCut?) -> Void) {
        switch rule {
        case .paragraphs, .markdownBlocks, .markdownV2Text: scanText(bytes, emit: emit)
        case .htmlText:
            // Taken out while it works, so that its arrays stay unshared.
            var tracker = tags.take()!
            scanEntities(bytes, &tracker, emit: emit)
            tags = tracker
        case .plainText: scanPlain(bytes) { emit($0, $1.map { .plain($0) }) }
        case .exportMessages: scanJSON(bytes) { emit($0, nil) }
        }
    }

    /// What the whole text's parse finds open at its end, and the sentence it fails with,
    /// once the whole document is scanned (HTML, MarkdownV2); nil when nothing is.
    var unclosedMarkup: (reason: String, byteOffset: Int)? {
        tags?.unclosed ?? (followsBalance ? balance.unclosed : nil)
    }

    private mutating func cut(at p: Int, emit: (Int) -> Void) {
        chunkStart = p
        afterNewline = -1
        afterTextNewline = -1
        pendingBlankCut = -1
        afterSpace = -1
        entityNewline.offset = -1
        entitySpace.offset = -1
        pendingEntityNewline.offset = -1
        pendingEntitySpace.offset = -1
        // (MarkdownV2: what is open is followed through the whole document, not counted from
        // nothing in each chunk, so that a chunk cut inside an entity is known to be.)
        emit(p)
    }

    /// A cut of plain text at `p`, where `place` is open.
    private mutating func cut(
        at p: Int, place: PlainMarkupTracker.Place, emit: (Int, PlainMarkupTracker.Place?) -> Void
    ) {
        chunkStart = p
        afterNewline = -1
        afterSpace = -1
        newlinePlace = nil
        spacePlace = nil
        pendingNewline = nil
        pendingSpace = nil
        emit(p, place.isOutside ? nil : place)
    }

    /// Plain text, as ``scanText(_:emit:)`` with markup followed: a blank line cuts only
    /// where nothing is open; a cut after ``maximumBytes`` goes to the last line break,
    /// else space, else character boundary where the markers of what is open cannot run
    /// into the chunk's own markup (``PlainMarkupTracker/isSafeCut(before:after:)``).
    private mutating func scanPlain(
        _ bytes: UnsafeBufferPointer<UInt8>, emit: (Int, PlainMarkupTracker.Place?) -> Void
    ) {
        let n = bytes.count
        var i = 0
        while i < n {
            let start = chunkStart ?? 0
            if skipsAhead {
                // Text that is neither markup nor a line break (nor a carriage return, which
                // the cut after a line break judges) changes nothing but the last space, up
                // to where a chunk may have to be cut: taken at once.
                let room = start + maximumBytes - position
                let end = Self.plainStop(in: bytes, from: i, before: i + max(0, min(room, n - i)))
                if end > i {
                    confirmCandidates(next: bytes[i], at: position)
                    if !lineHasText {
                        lineHasText = bytes[i..<end].contains { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D }
                    }
                    markup.takeText(count: end - i)
                    var k = end - 1
                    if tracksSpaces {
                        while k >= i && bytes[k] != 0x20 { k -= 1 }
                    } else {
                        k = i - 1
                    }
                    if k >= i {
                        if k + 1 == end {
                            // The run's last byte: the byte after it decides; until then the
                            // space before it, if any, is the place.
                            pendingSpace = markup.place(at: position + (k - i) + 1)
                            k -= 1
                            while k >= i && bytes[k] != 0x20 { k -= 1 }
                        }
                        if k >= i { spacePlace = markup.place(at: position + (k - i) + 1) }
                    }
                    lastByte = bytes[end - 1]
                    position += end - i
                    i = end
                    continue
                }
                if i + 1 < n && bytes[i] == 0x7C && bytes[i + 1] == 0x7C && markup.takesPipePair
                    && position + 1 - start < maximumBytes
                {
                    // A spoiler's marker, taken at once: no place before or inside it is one
                    // to cut at.
                    pendingNewline = nil
                    pendingSpace = nil
                    markup.takePipePair(at: position)
                    lineHasText = true
                    lastByte = 0x7C
                    position += 2
                    i += 2
                    if markup.isOutside { lastOutside = position }
                    continue
                }
            }
            let b = bytes[i]
            i += 1
            let p = position
            position += 1
            confirmCandidates(next: b, at: p)
            if p - start >= maximumBytes {
                // A chunk where something is open must keep something besides its line break,
                // else its markers would meet.
                if let place = newlinePlace, place.offset > start, place.isOutside || newlineEnd > start {
                    cut(at: place.offset, place: place, emit: emit)
                } else if let place = spacePlace, place.offset > start {
                    cut(at: place.offset, place: place, emit: emit)
                } else if b & 0xC0 != 0x80 && p > start && lastByte != 0x0A && !(lastByte == 0x0D && b == 0x0A)
                    && markup.isSafeCut(before: lastByte, after: b)
                {
                    // (After a line break the chunk would be parsed without it: that is a
                    // line break's place, judged above. Between the two bytes of a `\r\n`
                    // the chunk before would end with a carriage return the whole text
                    // reads as part of its line break.)
                    cut(at: p, place: markup.place(at: p), emit: emit)
                }
            }
            switch b {
            case 0x0A:
                // A chunk cut after this line break is parsed without it (and a carriage
                // return before it): whether markers may follow is judged there.
                let afterReturn = returnAt == p - 1
                let safeEnd = afterReturn ? returnSafe : markup.isSafeCut(before: lastByte, after: nil)
                markup.take(b, at: p)
                let blank = !lineHasText
                lineHasText = false
                let place = markup.place(at: p + 1)
                if blank && place.isOutside && p + 1 - (chunkStart ?? 0) >= minimumBytes {
                    cut(at: p + 1, place: place, emit: emit)
                } else if place.isOutside {
                    newlinePlace = place
                } else if safeEnd {
                    pendingNewline = place
                    pendingNewlineEnd = afterReturn ? p - 1 : p
                }
            case 0x0D:
                returnSafe = markup.isSafeCut(before: lastByte, after: nil)
                returnAt = p
                markup.take(b, at: p)
            case 0x20:
                markup.take(b, at: p)
                if tracksSpaces { pendingSpace = markup.place(at: p + 1) }
            default:
                if b != 0x09 { lineHasText = true }
                markup.take(b, at: p)
            }
            if markup.isOutside { lastOutside = p + 1 }
            lastByte = b
        }
    }

    /// Whether a space is a place to note for a cut after ``maximumBytes``: only while the
    /// chunk has no line break to cut after (one is preferred).
    private var tracksSpaces: Bool {
        guard let place = newlinePlace else { return true }
        return place.offset <= (chunkStart ?? 0)
    }

    /// A line break's or space's place before `next`, the byte at `offset`, becomes a
    /// place to cut unless markers there would run into it (a `|` or backtick).
    @inline(__always)
    private mutating func confirmCandidates(next: UInt8, at offset: Int) {
        let fits = next != UInt8(ascii: "|") && next != UInt8(ascii: "`")
        if let place = pendingNewline, place.offset == offset, fits {
            newlinePlace = place
            newlineEnd = pendingNewlineEnd
        }
        if let place = pendingSpace, place.offset == offset, fits { spacePlace = place }
        pendingNewline = nil
        pendingSpace = nil
    }

    /// A place to cut a text with entities at: its offset, the tracker's `changes` there, and
    /// what is open there once that has changed (`known`; `open` nil when nothing is).
    private struct EntityPlace {
        var offset = -1
        var changes = -1
        var known = false
        var open: EntityCut?

        init() {}

        init(_ offset: Int, _ changes: Int) {
            self.offset = offset
            self.changes = changes
        }
    }

    /// Whether `place` is one to cut a chunk from `start` at, with what is open there known:
    /// still what `tracker` has open (which can be opened again), or noted before it changed.
    private func isUsable(_ place: EntityPlace, from start: Int, _ tracker: HTMLTagTracker) -> Bool {
        guard place.offset > start else { return false }
        return place.changes == tracker.changes ? tracker.canReopen : place.known
    }

    /// A cut of a text with entities at `place` (one ``isUsable(_:from:_:)``).
    private mutating func cut(
        at place: EntityPlace, _ tracker: HTMLTagTracker, emit: (Int, OpenAtCut?) -> Void
    ) {
        var open = place.open
        if place.changes == tracker.changes {
            open = Self.entityCut(opening: tracker.openingMarkup, closing: tracker.closingMarkup)
        }
        open?.offset = place.offset
        cut(at: place.offset) { emit($0, open.map { .markup($0) }) }
    }

    /// What is open, opened by `opening` and closed by `closing`, as a cut's markup; nil
    /// when nothing is, or it cannot be opened again (`opening` nil).
    private static func entityCut(opening: [UInt8]?, closing: @autoclosure () -> [UInt8]) -> EntityCut? {
        guard let opening, !opening.isEmpty else { return nil }
        return EntityCut(offset: -1, opening: opening, closing: closing())
    }

    /// Notes what is open at the places to cut at that had what was open when `tracker`'s
    /// ``HTMLTagTracker/changes`` was `changes`, now that its last byte has changed it
    /// (once: a place is dropped should it have changed more).
    private mutating func noteOpen(changedFrom changes: Int, _ tracker: HTMLTagTracker) {
        for k in 0..<2 {
            var place = k == 0 ? entityNewline : entitySpace
            guard place.offset >= 0, !place.known, place.changes == changes else { continue }
            if tracker.changes == changes + 1, let opening = tracker.openingMarkupBeforeLastChange {
                place.known = true
                place.open = Self.entityCut(opening: opening, closing: tracker.closingMarkupBeforeLastChange)
            } else {
                place.offset = -1
            }
            if k == 0 { entityNewline = place } else { entitySpace = place }
        }
    }

    /// A line break's or space's place before `next`, the byte at `offset`, becomes a place
    /// to cut if the tracker allows a cut there with what is open now.
    @inline(__always)
    private mutating func confirmEntityCandidates(_ tracker: HTMLTagTracker, next: UInt8, at offset: Int) {
        if pendingEntityNewline.offset == offset {
            if pendingEntityNewline.changes == tracker.changes && tracker.isSafeCut(before: next) {
                entityNewline = pendingEntityNewline
            }
            pendingEntityNewline.offset = -1
        }
        if pendingEntitySpace.offset == offset {
            if pendingEntitySpace.changes == tracker.changes && tracker.isSafeCut(before: next) {
                entitySpace = pendingEntitySpace
            }
            pendingEntitySpace.offset = -1
        }
    }

    /// MarkdownV2 or HTML, as ``scanText(_:emit:)`` with what is open followed exactly: a
    /// blank line cuts only where nothing is open; a cut after ``maximumBytes`` goes to the
    /// last line break, else space, else character boundary where the tracker allows one,
    /// with what is open there; where what is open cannot be opened again, as before.
    private mutating func scanEntities(
        _ bytes: UnsafeBufferPointer<UInt8>, _ tracker: inout HTMLTagTracker, emit: (Int, OpenAtCut?) -> Void
    ) {
        let n = bytes.count
        var i = 0
        while i < n {
            let start = chunkStart ?? 0
            if skipsAhead && tracker.isInText {
                // Text that is neither markup nor a line break changes nothing but the last
                // space, up to where a chunk may have to be cut: taken at once.
                let room = start + maximumBytes - position
                let end = Self.entityTextStop(in: bytes, from: i, before: i + max(0, min(room, n - i)))
                if end > i {
                    confirmEntityCandidates(tracker, next: bytes[i], at: position)
                    if !lineHasText {
                        lineHasText = bytes[i..<end].contains { $0 != 0x20 && $0 != 0x09 }
                    }
                    tracker.takeText(bytes[i..<end])
                    var k = end - 1
                    while k >= i && bytes[k] != 0x20 { k -= 1 }
                    if k >= i {
                        afterSpace = position + (k - i) + 1
                        if k + 1 == end {
                            // The run's last byte: the byte after it decides; until then the
                            // space before it, if any, is the place.
                            pendingEntitySpace = EntityPlace(afterSpace, tracker.changes)
                            k -= 1
                            while k >= i && bytes[k] != 0x20 { k -= 1 }
                        }
                        if k >= i && bytes[k + 1] & 0xC0 != 0x80 {
                            // Text on both sides, in the same run.
                            entitySpace = EntityPlace(position + (k - i) + 1, tracker.changes)
                        }
                    }
                    position += end - i
                    i = end
                    if tracker.isOutside { lastOutside = position } else { lastInside = position }
                    continue
                }
            }
            if skipsAhead && tracker.isInText && bytes[i] == 0x3C
                && takeSimpleTag(bytes, at: &i, start: start, &tracker)
            {
                continue
            }
            if skipsAhead && !tracker.isInText {
                // Inside a tag nothing opens or closes before its `>`, and no place to cut is
                // inside: its other bytes (but line breaks, spaces and tabs) go to the tracker
                // at once, up to where a chunk may have to be cut.
                let room = start + maximumBytes - position
                let end = tracker.takeInsideMarkup(
                    bytes, from: i, before: i + max(0, min(room, n - i)), at: position)
                if end > i {
                    lineHasText = true
                    position += end - i
                    i = end
                    lastInside = position
                    continue
                }
            }
            let b = bytes[i]
            i += 1
            let p = position
            position += 1
            confirmEntityCandidates(tracker, next: b, at: p)
            if p - start >= maximumBytes { forceEntityCut(at: p, before: b, tracker, emit: emit) }
            let wasText = tracker.isInText
            let textBefore = tracker.lastWasText
            // A place to cut at keeps what is open there, should this byte change it.
            let changes = tracker.changes
            let mayChange = HTMLTagTracker.mayChangeOpen(b) && watchesPlaces(changes: changes)
            tracker.take(b, at: p)
            if mayChange && tracker.changes != changes { noteOpen(changedFrom: changes, tracker) }
            switch b {
            case 0x0A:
                newlineAt = p
                let blank = !lineHasText
                lineHasText = false
                if wasText && tracker.isInText { afterNewline = p + 1 }
                let start = chunkStart ?? 0
                let here = EntityPlace(p + 1, tracker.changes)
                if blank && tracker.isOutside && p + 1 - start >= minimumBytes {
                    cut(at: here, tracker, emit: emit)
                } else if blank && p + 1 == cutsAt {
                    // Where the chunks found from the end start.
                    if wasText && tracker.isInText && tracker.canReopen {
                        cut(at: here, tracker, emit: emit)
                    } else {
                        cut(at: p + 1) { emit($0, nil) }
                    }
                } else if wasText && tracker.isInText && (returnAt == p - 1 ? returnAfterText : textBefore) {
                    // The chunk cut here is parsed without its line break (and a carriage
                    // return before it): it ends with the text before them.
                    pendingEntityNewline = here
                }
            case 0x0D:
                returnAt = p
                returnAfterText = wasText && textBefore
            case 0x20:
                if wasText && tracker.isInText {
                    afterSpace = p + 1
                    pendingEntitySpace = EntityPlace(p + 1, tracker.changes)
                }
            case 0x09:
                break
            default:
                lineHasText = true
            }
            if tracker.isOutside { lastOutside = p + 1 } else { lastInside = p + 1 }
        }
    }

    /// Whether a place to cut at was noted while what is open was as it was at `changes`, and
    /// does not yet know what that was: a change of what is open must tell it
    /// (``noteOpen(changedFrom:_:)``).
    @inline(__always)
    private func watchesPlaces(changes: Int) -> Bool {
        let watched = { (place: EntityPlace) in place.offset >= 0 && !place.known && place.changes == changes }
        return watched(entityNewline) || watched(entitySpace)
    }

    /// Takes a tag of the plainest forms (`<name>`, `</name>`; ``HTMLTagTracker/takeSimpleTag(_:from:end:at:)``)
    /// that starts at `bytes[i]` and ends within these bytes, before a chunk from `start` has
    /// to be cut, as its bytes taken one at a time would be taken, and moves `i` past it; false,
    /// with nothing taken, for any other.
    @inline(__always)
    private mutating func takeSimpleTag(
        _ bytes: UnsafeBufferPointer<UInt8>, at i: inout Int, start: Int, _ tracker: inout HTMLTagTracker
    ) -> Bool {
        // No byte of it may come where the chunk reaches its maximum (a cut is looked for
        // there); a tag this short has no line break to look at.
        let limit = i + min(bytes.count - i, start + maximumBytes - position, 64)
        var j = i + 1
        while j < limit && bytes[j] != 0x3E && bytes[j] != 0x3C { j += 1 }
        guard j < limit && bytes[j] == 0x3E else { return false }
        let p = position
        // What the `<` does first (no place is confirmed before a `<`).
        confirmEntityCandidates(tracker, next: 0x3C, at: p)
        let changes = tracker.changes
        let mayChange = watchesPlaces(changes: changes)
        guard tracker.takeSimpleTag(bytes, from: i, end: j + 1, at: p) else { return false }
        // What its `>` does.
        if mayChange && tracker.changes != changes { noteOpen(changedFrom: changes, tracker) }
        lineHasText = true
        position += j + 1 - i
        i = j + 1
        lastInside = position - 1
        if tracker.isOutside { lastOutside = position } else { lastInside = position }
        return true
    }

    /// The cut of a chunk that has reached ``maximumBytes`` at `p`, before the byte `b`, if
    /// there is a place for it yet.
    private mutating func forceEntityCut(
        at p: Int, before b: UInt8, _ tracker: HTMLTagTracker, emit: (Int, OpenAtCut?) -> Void
    ) {
        let start = chunkStart ?? 0
        if entityNewline.offset > start + 1 && isUsable(entityNewline, from: start, tracker) {
            return cut(at: entityNewline, tracker, emit: emit)
        }
        if isUsable(entitySpace, from: start, tracker) { return cut(at: entitySpace, tracker, emit: emit) }
        // Never between the two bytes of a `\r\n`: the chunk before would end with a
        // carriage return the whole text reads as part of its line break. Nor right after a
        // line break, which the chunk before is parsed without: it would end with what comes
        // before the line break, maybe a tag, right before the end tags put after it (a
        // `</code>` and a `</pre>` side by side give the `pre` the code's language).
        let splitsLineBreak = b == 0x0A && returnAt == p - 1
        if p > start && !splitsLineBreak && newlineAt != p - 1 && tracker.canReopen && tracker.isSafeCut(before: b) {
            return cut(at: EntityPlace(p, tracker.changes), tracker, emit: emit)
        }
        // Else the next byte may be a place (what is open may close before long).
        guard p - start >= 2 * maximumBytes else { return }
        // No place came in another maximum (what is open cannot be opened again, or there is
        // no text to cut between): cut as a text of its own, outside a tag (or anywhere after
        // three more). Where something is open there, the chunks on both sides cannot be
        // read: parsed as they are, without the tags open around them, a part inside a
        // spoiler would show it.
        let lastInside = self.lastInside
        let unreadable = { (c: Int) -> OpenAtCut? in c > lastInside ? nil : .unreadable }
        if afterNewline > start {
            cut(at: afterNewline) { emit($0, unreadable($0)) }
        } else if afterSpace > start {
            cut(at: afterSpace) { emit($0, unreadable($0)) }
        } else if b & 0xC0 != 0x80 && p > start && !splitsLineBreak
            && (tracker.isInText || p - start >= 4 * maximumBytes)
        {
            cut(at: p) { emit($0, unreadable($0)) }
        }
    }

    /// The index of the first line break, carriage return or byte the tracker must take
    /// one at a time (``HTMLTagTracker/markupBytes``) in `bytes[from..<before]`, else `before`.
    @inline(__always)
    static func entityTextStop(in bytes: UnsafeBufferPointer<UInt8>, from: Int, before: Int) -> Int {
        let (first, second) = HTMLTagTracker.markupBytes
        return firstOf(0x0A, 0x0D, first, second, second, in: bytes, from: from, before: before)
    }

    /// A cut of a text at `p`; `open`: an entity is open there that is not opened again
    /// (MarkdownV2): the chunks on either side cannot be read.
    private mutating func cut(at p: Int, open: Bool, emit: (Int, OpenAtCut?) -> Void) {
        cut(at: p) { emit($0, open ? .unreadable : nil) }
    }

    /// MarkdownV2: a cut at `p` where the outermost `depth` entities the balance has open are
    /// closed before it and opened again after it (what was open at `p`, which could be
    /// opened again there).
    private mutating func cutReopening(
        at p: Int, _ depth: EntityBalance.Depth, emit: (Int, OpenAtCut?) -> Void
    ) {
        let open = EntityCut(offset: p, opening: balance.openingMarkup(depth), closing: balance.closingMarkup(depth))
        cut(at: p) { emit($0, .markup(open)) }
    }

    /// MarkdownV2: the cut of a chunk that has reached ``maximumBytes`` at `p`, before the
    /// byte `b`: at the last line break, else the last space, where nothing is open there or
    /// what is open can be opened again with text on both sides
    /// (``EntityBalance/isPlain(_:)``); else here, between two such bytes; else the next
    /// byte may be such a place. After twice the maximum with none, cut as before: where
    /// something is open, the chunks on either side cannot be read.
    private mutating func forceMarkdownV2Cut(
        at p: Int, before b: UInt8, emit: (Int, OpenAtCut?) -> Void
    ) {
        let start = chunkStart ?? 0
        if afterNewline > start {
            if !afterNewlineOpen { return cut(at: afterNewline, open: false, emit: emit) }
            if newlineReopens && newlinePlain && balance.holds(newlineDepth) {
                return cutReopening(at: afterNewline, newlineDepth, emit: emit)
            }
        }
        if afterSpace > start {
            if !afterSpaceOpen { return cut(at: afterSpace, open: false, emit: emit) }
            if spaceReopens && spacePlain && balance.holds(spaceDepth) {
                return cutReopening(at: afterSpace, spaceDepth, emit: emit)
            }
        }
        if p > start && EntityBalance.isPlain(previousByte) && EntityBalance.isPlain(b) {
            if balance.isBalanced { return cut(at: p, open: false, emit: emit) }
            if balance.canReopen { return cutReopening(at: p, balance.depth, emit: emit) }
        }
        guard p - start >= 2 * maximumBytes else { return }
        if afterNewline > start {
            cut(at: afterNewline, open: afterNewlineOpen, emit: emit)
        } else if afterSpace > start {
            cut(at: afterSpace, open: afterSpaceOpen, emit: emit)
        } else if b & 0xC0 != 0x80 && p > start && previousByte != 0x0A && previousByte != 0x0D && b != 0x0A {
            // (Not after a line break a backslash escapes, which is no `afterNewline`: the
            // chunk is parsed without its last line break, and the backslash would show; nor
            // inside a line break written `\r\n`.)
            cut(at: p, open: entityOpen, emit: emit)
        }
    }

    /// Whether a MarkdownV2 entity is open after the bytes taken.
    private var entityOpen: Bool { followsBalance && !balance.isBalanced }

    /// MarkdownV2: a line break's or space's place right before `b`, the byte at `p`, is
    /// one with text after it if `b` is text.
    @inline(__always)
    private mutating func notePlaces(before b: UInt8, at p: Int) {
        if p == afterNewline { newlinePlain = newlineBeforePlain && EntityBalance.isPlain(b) }
        if p == afterSpace { spacePlain = EntityBalance.isPlain(b) }
    }

    /// Markdown: notes `b`, a byte after the run of backticks or tildes that starts the
    /// line being read, in ``lineRest``.
    @inline(__always)
    private mutating func noteRest(_ b: UInt8) {
        if b != 0x20 && b != 0x09 && b != 0x0D { lineRest |= Self.restText }
        if b == UInt8(ascii: "`") { lineRest |= Self.restBacktick }
    }

    /// Markdown: where a line is in its markers after `b`, read at `state` (``MarkerState``;
    /// `.none` at the line's first character); nil where `b` is no part of them.
    @inline(__always)
    private static func marker(after state: MarkerState, _ b: UInt8) -> MarkerState? {
        switch (state, b) {
        case (.none, UInt8(ascii: "-")), (.none, UInt8(ascii: "*")), (.none, UInt8(ascii: "+")),
            (.markerOrFence, UInt8(ascii: "-")), (.markerOrFence, UInt8(ascii: "*")),
            (.markerOrFence, UInt8(ascii: "+")), (.digits, UInt8(ascii: ".")), (.digits, UInt8(ascii: ")")):
            return .space
        case (.none, UInt8(ascii: "0")...UInt8(ascii: "9")), (.markerOrFence, UInt8(ascii: "0")...UInt8(ascii: "9")),
            (.digits, UInt8(ascii: "0")...UInt8(ascii: "9")):
            return .digits
        case (.none, UInt8(ascii: ">")), (.markerOrFence, UInt8(ascii: ">")):
            return .markerOrFence
        default:
            return nil
        }
    }

    /// Markdown: keeps `b`, a byte of the line being read that may open a fence.
    @inline(__always)
    private mutating func keepFenceLine(_ b: UInt8) {
        if keepsFenceLine && fenceLine.count < Self.fenceLineLimit { fenceLine.append(b) }
    }

    private mutating func scanText(_ bytes: UnsafeBufferPointer<UInt8>, emit: (Int, OpenAtCut?) -> Void) {
        let markdown = rule == .markdownBlocks
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            if skipsAhead && lineHasText && !lineInLead && b != 0x0A {
                // Inside a line's text nothing changes until its line break but the last
                // space, and a chunk may be cut after maximumBytes: go straight to the first
                // of the two, noting the last space on the way.
                let room = (chunkStart ?? 0) + maximumBytes - position
                let before = i + max(0, min(room, bytes.count - i))
                let end =
                    followsBalance
                    ? Self.lineBreakOrMarkup(in: bytes, from: i, before: before, syntax: balance.syntax)
                    : Self.lineBreak(in: bytes, from: i, before: before)
                if end > i {
                    if followsBalance {
                        if bytes[i] == 0x0D && balance.isEscaping { escapedReturnAt = position }
                        notePlaces(before: bytes[i], at: position)
                        balance.takeText()
                    }
                    if lineLeadRun >= 3 {
                        // (A fence line: rare enough to look at each byte.)
                        for k in i..<end { noteRest(bytes[k]) }
                        if keepsFenceLine && fenceLine.count < Self.fenceLineLimit {
                            fenceLine.append(contentsOf: bytes[i..<min(end, i + Self.fenceLineLimit - fenceLine.count)])
                        }
                    }
                    var k = end - 1
                    while k >= i && bytes[k] != 0x20 { k -= 1 }
                    if k >= i {
                        afterSpace = position + (k - i) + 1
                        afterSpaceOpen = entityOpen
                        if followsBalance {
                            if afterSpaceOpen { (spaceDepth, spaceReopens) = (balance.depth, balance.canReopen) }
                            spacePlain = k + 1 < end && EntityBalance.isPlain(bytes[k + 1])
                        }
                    }
                    position += end - i
                    i = end
                    previousByte = bytes[end - 1]
                    if followsBalance {
                        lineLastByte = previousByte
                        if balance.isBalanced { lastOutside = position }
                    }
                    continue
                }
            }
            i += 1
            let p = position
            position += 1
            let start = chunkStart ?? 0
            if followsBalance { notePlaces(before: b, at: p) }
            if followsBalance && p - start >= maximumBytes {
                forceMarkdownV2Cut(at: p, before: b, emit: emit)
            } else if p - start >= maximumBytes {
                if markdown && afterTextNewline > start && fence == nil && lineHasText {
                    // Markdown: before the last line indented by less than four, not starting with `<`.
                    cut(at: afterTextNewline, open: false, emit: emit)
                } else if afterNewline > start && fence == nil && (lineHasText || !markdown) {
                    // (Markdown: not at a blank line, whose own line break cuts right after it:
                    // the chunk between would be that line alone, shown as an empty row.)
                    cut(at: afterNewline, open: afterNewlineOpen, emit: emit)
                } else if let f = fence,
                    markdown && afterNewline > max(start, fenceOpenedAt + 1) && lineHasText
                        && !lastLineBlank && lineLead != f.mark
                {
                    // Inside fenced code (open at the last line break, since a fence opens and
                    // closes only at one): the part after is parsed after the opening line.
                    // Between two lines of the code, neither blank (which each part's parse
                    // would leave out as its first or last line), the second not one that may
                    // close it: the part before ends with code, which the part after goes on with.
                    let (opening, openedAt) = (fenceOpener + [0x0A], fenceOpenedAt)
                    cut(at: afterNewline) { emit($0, .fence(opening: opening, openedAt: openedAt)) }
                } else if !markdown && afterSpace > start {
                    cut(at: afterSpace, open: afterSpaceOpen, emit: emit)
                } else if !markdown && b & 0xC0 != 0x80 && p > start && !(previousByte == 0x0D && b == 0x0A) {
                    // (Not between the two bytes of a `\r\n`: the chunk before would end with
                    // a carriage return the whole text reads as part of its line break.)
                    cut(at: p, open: entityOpen, emit: emit)
                }
            }
            let escaped = followsBalance && balance.isEscaping
            if followsBalance {
                if EntityBalance.isMarkup(b, in: balance.syntax) {
                    balance.take(b, at: p)
                } else {
                    balance.takeText()
                }
                if b == 0x0A {
                    // (A line break before the markers that close what is open is text too.)
                    newlineBeforePlain = EntityBalance.isPlain(lineLastByte) || lineLastByte == 0x0A
                    lineLastByte = 0x0A
                } else if b != 0x0D {
                    lineLastByte = b
                }
                if balance.isBalanced { lastOutside = p + 1 }
            }
            previousByte = b
            if b == 0x0D && escaped { escapedReturnAt = p }
            if b == 0x0A {
                let blank = !lineHasText
                if markdown && firstDoubt == nil {
                    if fence == nil {
                        if markerRun >= 3 || (lineLeadRun >= 3 && (lineIndent > 3 || sawHTMLStart)) { firstDoubt = p }
                    } else if lineHasText && lineIndent < fenceIndent {
                        firstDoubt = p
                    }
                }
                if markdown && markerRun >= 3 { sawFenceLine = true }
                if markdown && lineHasText && lineIndent <= 3 && lineLeadRun >= 3 {
                    sawFenceLine = true
                    if let f = fence {
                        if lineLead == f.mark && lineLeadRun >= f.length && lineRest & Self.restText == 0 {
                            fence = nil
                        }
                    } else if lineLead != UInt8(ascii: "`") || lineRest & Self.restBacktick == 0 {
                        fence = (lineLead, lineLeadRun)
                        fenceIndent = lineIndent
                        fenceOpenedAt = p
                        if fenceLine.count < Self.fenceLineLimit {
                            fenceOpener = fenceLine
                        } else {
                            // Too long to keep: its indentation and fence, without the info.
                            let indentation = fenceLine.prefix { $0 == 0x20 || $0 == 0x09 }
                            fenceOpener = Array(indentation) + Array(repeating: lineLead, count: lineLeadRun)
                        }
                    }
                }
                if markdown {
                    fenceLine.removeAll(keepingCapacity: true)
                    keepsFenceLine = false
                    lineRest = 0
                    lastLineBlank = blank
                }
                lineHasText = false
                lineIndent = 0
                lineLead = 0
                lineLeadRun = 0
                lineInLead = true
                markerState = .none
                markerRun = 0
                if !escaped && escapedReturnAt != p - 1 {
                    afterNewline = p + 1
                    afterNewlineOpen = entityOpen
                    if afterNewlineOpen {
                        (newlineDepth, newlineReopens) = (balance.depth, balance.canReopen)
                    }
                    newlinePlain = false
                }
                let balanced = !entityOpen
                if blank && fence == nil
                    && ((balanced && p + 1 - (chunkStart ?? 0) >= minimumBytes) || p + 1 == cutsAt)
                {
                    if markdown && p + 1 != cutsAt {
                        // Once the next line is seen to be indented by less than four.
                        pendingBlankCut = p + 1
                    } else {
                        cut(at: p + 1, open: !balanced, emit: emit)
                    }
                }
                continue
            }
            if b == 0x20 || b == 0x09 || b == 0x0D {
                if b == 0x20 {
                    afterSpace = p + 1
                    afterSpaceOpen = entityOpen
                    if afterSpaceOpen { (spaceDepth, spaceReopens) = (balance.depth, balance.canReopen) }
                    spacePlain = false
                }
                if lineInLead && !lineHasText {
                    lineIndent += b == 0x09 ? 4 : 1
                    if markdown && fence == nil && fenceLine.count < 16 { fenceLine.append(b) }
                }
                // (The markers of a list item or a quotation, and a space after each, are
                // still the line's lead: a fence may follow.)
                if lineHasText {
                    if markerRun == 0 && (markerState == .space || markerState == .markerOrFence) {
                        markerState = .markerOrFence
                    } else {
                        lineInLead = false
                        markerState = .none
                    }
                }
                keepFenceLine(b)
                continue
            }
            if lineInLead {
                if !lineHasText && (b == UInt8(ascii: "`") || b == UInt8(ascii: "~")) {
                    lineLead = b
                    lineLeadRun = 1
                    // It may open a fence: kept from its start (after its indentation, kept above).
                    keepsFenceLine = markdown && fence == nil
                } else if lineHasText && lineLead != 0 && b == lineLead {
                    lineLeadRun += 1
                } else if markdown && fence == nil && (!lineHasText || markerState != .none) && markerRun == 0,
                    let next = Self.marker(after: markerState, b)
                {
                    markerState = next
                } else if markerState == .markerOrFence && (b == UInt8(ascii: "`") || b == UInt8(ascii: "~"))
                    && (markerRun == 0 || b == markerMark)
                {
                    markerMark = b
                    markerRun += 1
                } else {
                    lineInLead = false
                    markerState = .none
                }
                if markdown && !lineHasText && b == UInt8(ascii: "<") && lineIndent <= 3 && fence == nil {
                    sawHTMLStart = true
                }
            }
            if !lineInLead && lineLeadRun >= 3 { noteRest(b) }
            keepFenceLine(b)
            if markdown && !lineHasText {
                // The line's first text: a line after a blank line indented by less than four
                // reads alone as the kind of block the whole reads it as (a list item's
                // paragraph, indented by four, would read as code).
                if pendingBlankCut >= 0 {
                    let at = pendingBlankCut
                    pendingBlankCut = -1
                    if lineIndent < 4 && at == afterNewline { cut(at: at, open: false, emit: emit) }
                }
                // (Not a line of fenced code: cut there, the code's closing line would open it.)
                if lineIndent < 4 && b != UInt8(ascii: "<") && afterNewline >= 0 && fence == nil {
                    afterTextNewline = afterNewline
                }
            }
            lineHasText = true
        }
    }

    private mutating func scanJSON(_ bytes: UnsafeBufferPointer<UInt8>, emit: (Int) -> Void) {
        var i = 0
        while i < bytes.count {
            if skipsAhead && inString && !escaped && !stringMatchesKey {
                // Inside a string only a quote or a backslash matters: go straight to it.
                let end = Self.quoteOrBackslash(in: bytes, from: i)
                position += end - i
                i = end
                if i == bytes.count { break }
            }
            if skipsAhead && !inString && depth >= 2 && !watchesKeys {
                // Inside values whose keys do not matter (a message, the export's other
                // members) only a bracket, or a string with an escape, matters, and a string
                // without escapes changes nothing: go straight past them to the next
                // bracket, a string with an escape, or a string the block cuts.
                var end = Self.quoteOrBracket(in: bytes, from: i)
                while end < bytes.count && bytes[end] == 0x22 {
                    let close = Self.quoteOrBackslash(in: bytes, from: end + 1)
                    guard close < bytes.count && bytes[close] == 0x22 else { break }
                    end = Self.quoteOrBracket(in: bytes, from: close + 1)
                }
                position += end - i
                i = end
                if i == bytes.count { break }
            }
            let b = bytes[i]
            i += 1
            let p = position
            position += 1
            if inString {
                if escaped {
                    escaped = false
                    stringMatchesKey = false
                } else if b == 0x5C {
                    escaped = true
                } else if b == 0x22 {
                    inString = false
                    if stringMatchesKey { expectedKey = key(keyBytes) }
                } else if stringMatchesKey {
                    if keyBytes.count < 16 {
                        keyBytes.append(b)
                    } else {
                        stringMatchesKey = false
                    }
                }
                continue
            }
            switch b {
            case 0x22:
                inString = true
                stringMatchesKey = watchesKeys
                keyBytes.removeAll(keepingCapacity: true)
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                let opened = expectedKey
                expectedKey = .none
                depth += 1
                if b == UInt8(ascii: "[") {
                    if opened == .messages && depth == 2 && messagesDepth == nil && accountDepth == nil {
                        messagesDepth = 2
                        sawMessages = true
                    } else if opened == .messages && depth == 5 && listDepth == 3 && messagesDepth == nil {
                        messagesDepth = 5
                        sawMessages = true
                        isWholeAccount = true
                        opensChat = true
                    } else if opened == .list && depth == 3 && accountDepth == 2 {
                        listDepth = 3
                    }
                } else if opened == .chats && depth == 2 && messagesDepth == nil {
                    accountDepth = 2
                }
                if b == UInt8(ascii: "{"), let m = messagesDepth, depth == m + 1 {
                    if let start = chunkStart {
                        // A chat's first message starts a chunk: the bytes before it close
                        // the last chat and open this one.
                        if p - start >= minimumBytes || p == cutsAt || opensChat { cut(at: p, emit: emit) }
                    } else {
                        cut(at: p, emit: emit)
                    }
                    opensChat = false
                }
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                expectedKey = .none
                depth -= 1
                if let m = messagesDepth {
                    if b == UInt8(ascii: "}") && depth == m { contentEnd = p + 1 }
                    // (A whole account's next chat may open another.)
                    if depth < m { messagesDepth = isWholeAccount ? nil : -1 }
                }
                if let l = listDepth, depth < l { listDepth = nil }
                if let a = accountDepth, depth < a { accountDepth = nil }
            case 0x20, 0x0A, 0x0D, 0x09:
                // An export is indented: the rest of a run of blanks in one go.
                if skipsAhead {
                    let end = Self.pastBlanks(in: bytes, from: i)
                    position += end - i
                    i = end
                }
            case UInt8(ascii: ":"):
                break
            default:
                expectedKey = .none
            }
        }
    }

    /// Whether a string here may be a key the scan follows: at the top, in the `chats`
    /// object, and in a chat of its `list`.
    private var watchesKeys: Bool {
        depth == 1 || (depth == 2 && accountDepth == 2) || (depth == 4 && listDepth == 3)
    }

    /// The key `bytes` names, where the scan is.
    private func key(_ bytes: [UInt8]) -> JSONKey {
        switch depth {
        case 1:
            if bytes.elementsEqual("messages".utf8) { return .messages }
            if bytes.elementsEqual("chats".utf8) || bytes.elementsEqual("left_chats".utf8) { return .chats }
        case 2:
            if bytes.elementsEqual("list".utf8) { return .list }
        case 4:
            if bytes.elementsEqual("messages".utf8) { return .messages }
        default:
            break
        }
        return .none
    }

    /// The index of the first `"`, `{`, `}`, `[` or `]` in `bytes[from...]`, else the count;
    /// eight bytes at a time.
    @inline(__always)
    static func quoteOrBracket(in bytes: UnsafeBufferPointer<UInt8>, from: Int) -> Int {
        var j = from
        let n = bytes.count
        @inline(__always) func matters(_ b: UInt8) -> Bool {
            b == 0x22 || b == UInt8(ascii: "{") || b == UInt8(ascii: "}") || b == UInt8(ascii: "[")
                || b == UInt8(ascii: "]")
        }
        if let base = bytes.baseAddress {
            while j + 8 <= n {
                let word = UnsafeRawPointer(base + j).loadUnaligned(as: UInt64.self)
                // `[` 5B and `]` 5D, `{` 7B and `}` 7D differ in bits 1 and 2 only: with those
                // cleared, two tests find all four (and `Y`, `_`, `y` and DEL, which the
                // byte-at-a-time scan then passes over).
                let folded = word & ~(ByteLanes.ones &* 0x06)
                let hits = ByteLanes.equal(word, 0x22) | ByteLanes.equal(folded, 0x59) | ByteLanes.equal(folded, 0x79)
                if hits != 0 {
                    j += hits.trailingZeroBitCount >> 3
                    break
                }
                j += 8
            }
        }
        while j < n && !matters(bytes[j]) { j += 1 }
        return j
    }

    /// The index of the first byte in `bytes[from...]` that is not a space, tab or line
    /// break, else the count.
    @inline(__always)
    static func pastBlanks(in bytes: UnsafeBufferPointer<UInt8>, from: Int) -> Int {
        var j = from
        while j < bytes.count {
            let b = bytes[j]
            guard b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 else { break }
            j += 1
        }
        return j
    }

    /// The index of the first line break, carriage return, `|`, backtick or backslash in
    /// `bytes[from..<before]`, else `before`; sixteen bytes at a time.
    @inline(__always)
    static func plainStop(in bytes: UnsafeBufferPointer<UInt8>, from: Int, before: Int) -> Int {
        firstOf(0x0A, 0x0D, 0x7C, 0x60, 0x5C, in: bytes, from: from, before: before)
    }

    /// The index of the first of the bytes `a` to `e` (some may repeat) in
    /// `bytes[from..<before]`, else `before`; sixteen bytes at a time.
    @inline(__always)
    static func firstOf(
        _ a: UInt8, _ b: UInt8, _ c: UInt8, _ d: UInt8, _ e: UInt8, in bytes: UnsafeBufferPointer<UInt8>, from: Int,
        before: Int
    ) -> Int {
        var j = from
        if let base = bytes.baseAddress {
            while j + 16 <= before {
                let v = UnsafeRawPointer(base + j).loadUnaligned(as: SIMD16<UInt8>.self)
                // Lane by lane (no borrow crosses a lane): the high bit of each lane that is
                // one of the five.
                @inline(__always) func zero(_ x: SIMD16<UInt8>) -> SIMD16<UInt8> { (x &- SIMD16(repeating: 1)) & ~x }
                let lanes =
                    (zero(v ^ SIMD16(repeating: a)) | zero(v ^ SIMD16(repeating: b)) | zero(v ^ SIMD16(repeating: c))
                        | zero(v ^ SIMD16(repeating: d)) | zero(v ^ SIMD16(repeating: e))) & SIMD16(repeating: 0x80)
                let words = unsafeBitCast(lanes, to: SIMD2<UInt64>.self)
                if words[0] != 0 { return j + words[0].trailingZeroBitCount >> 3 }
                if words[1] != 0 { return j + 8 + words[1].trailingZeroBitCount >> 3 }
                j += 16
            }
        }
        while j < before {
            let x = bytes[j]
            if x == a || x == b || x == c || x == d || x == e { return j }
            j += 1
        }
        return max(from, before)
    }

    /// The index of the first line break or byte ``EntityBalance`` must take in
    /// `bytes[from..<before]`, else `before`.
    @inline(__always)
    static func lineBreakOrMarkup(
        in bytes: UnsafeBufferPointer<UInt8>, from: Int, before: Int, syntax: EntityBalance.Syntax
    ) -> Int {
        var j = from
        while j < before {
            let b = bytes[j]
            if b == 0x0A || EntityBalance.isMarkup(b, in: syntax) { return j }
            j += 1
        }
        return max(from, before)
    }

    /// The index of the first line break in `bytes[from..<before]`, else `before`.
    @inline(__always)
    static func lineBreak(in bytes: UnsafeBufferPointer<UInt8>, from: Int, before: Int) -> Int {
        guard before > from, let base = bytes.baseAddress, let hit = memchr(base + from, 0x0A, before - from) else {
            return max(from, before)
        }
        return UnsafeRawPointer(base).distance(to: UnsafeRawPointer(hit))
    }

    /// The index of the first `"` or `\` in `bytes[from...]`, else the count; eight bytes
    /// at a time.
    @inline(__always)
    static func quoteOrBackslash(in bytes: UnsafeBufferPointer<UInt8>, from: Int) -> Int {
        var j = from
        let n = bytes.count
        if let base = bytes.baseAddress {
            while j + 8 <= n {
                let word = UnsafeRawPointer(base + j).loadUnaligned(as: UInt64.self)
                let hits = ByteLanes.equal(word, 0x22) | ByteLanes.equal(word, 0x5C)
                if hits != 0 { return j + hits.trailingZeroBitCount >> 3 }
                j += 8
            }
        }
        while j < n && bytes[j] != 0x22 && bytes[j] != 0x5C { j += 1 }
        return j
    }
}
