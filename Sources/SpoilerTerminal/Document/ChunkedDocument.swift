import Dispatch
import Glibc
public import SpoilerCore
public import SpoilerParser
import Synchronization

/// A ``ReaderDocument`` read from a file (with `pread`, never whole) or from bytes in
/// memory, cut into chunks by a ``ChunkBoundaryScanner`` and parsed a chunk at a time by
/// the function it is given.
///
/// The index of chunk starts is built lazily, from the start, as far as the reader asks
/// (``chunkCount`` builds it to the end, reading but not parsing the rest). A few of the
/// chunks parsed last are kept, so scrolling back and forth does not parse them again.
/// Memory stays within the index (a few bytes per chunk of a few kilobytes), the chunks
/// kept, and one block of the file being scanned.
///
/// Plain chat text (``ChunkBoundaryScanner/Rule/plainText``) is cut where nothing is open
/// (``PlainMarkupTracker``), so that each chunk's parse hides what the whole text's parse
/// hides. A chunk that had to be cut where a spoiler or code looked open (one longer than
/// `maximumBytes`, or after a marker that is never closed) is parsed with the markers that
/// open and close what is open at its ends, once the index says for certain what that is:
/// where it has found all of it closed, or at the end of the document for a marker never
/// closed; the reader waits for the index to get there to show such a chunk.
///
/// Telegram HTML (``ChunkBoundaryScanner/Rule/htmlText``) is cut where no tag is open, and a
/// chunk that had to be cut inside tags (an entity longer than `maximumBytes`) is parsed
/// between the start tags of what is open at its start and the end tags of what is open at
/// its end, once the index has found them all closed: the chunks then read as the whole
/// file's parse reads them. A tag never closed makes the whole file's parse fail; a chunk
/// inside one (known once the index reaches the end) is not parsed: it is the message
/// `failed` makes of the whole parse's error, which names the tag and where it opens.
/// MarkdownV2 (``ChunkBoundaryScanner/Rule/markdownV2Text``) is cut so too, with the
/// markers that close and open bold, italic, underline, strikethrough and spoilers; where
/// what is open cannot be opened so (a link's text, code, a quotation), the chunks on either
/// side of the cut are not parsed (each is the message `failed` makes of an error saying
/// so), since those inside a spoiler, parsed on their own, would show it.
///
/// ```swift
/// let document = try ChunkedDocument(path: "notes.txt", rule: .paragraphs, separator: "\n") { bytes, _ in
///     (try? PlainParser.parse(bytes)) ?? Message(text: "[could not be read]")
/// }
/// ```
public final class ChunkedDocument: ReaderDocument {
    /// Parses one chunk's bytes (for the text rules without the chunk's final line
    /// break, and with the markup that reopens and closes what is open at its ends); the
    /// ``Part`` says where the chunk lies. A ``ParseError`` it throws becomes the chunk's
    /// message through the document's ``Failure``, its position moved to where it is in the
    /// whole file (its line and column counted from the start of the file).
    public typealias Parse = @Sendable (_ bytes: [UInt8], _ part: Part) throws(ParseError) -> Message

    /// Where a chunk given to ``Parse`` lies, and what was put around its bytes.
    public struct Part: Sendable, Equatable {
        /// Whether it is the document's last chunk.
        public var isLast: Bool
        /// How many bytes at the start of those parsed are markup put there to reopen what
        /// is open where the chunk starts (plain text's `||` and backtick, HTML's start
        /// tags), not the file's own: 0 where nothing is open. A parser that reads more
        /// into a spoiler's start than the spoiler itself (`||reason|text||` under
        /// `--spoiler-reasons`) must not read it into a spoiler that began before.
        public var reopenedBytes: Int

        /// A chunk's place.
        public init(isLast: Bool, reopenedBytes: Int = 0) {
            self.isLast = isLast
            self.reopenedBytes = reopenedBytes
        }
    }
    /// Makes the message of a chunk that cannot be read because the whole document's parse
    /// fails where it is (a tag never closed), from that error (its position in the whole
    /// document).
    public typealias Failure = @Sendable (_ error: ParseError) -> Message

    public let byteCount: Int
    public let separator: String
    private let descriptor: Int32?
    private let memory: [UInt8]
    /// Bytes read at a time while the index is built (``defaultBlockBytes``).
    let blockBytes: Int
    let parse: Parse
    let failed: Failure
    let state: Mutex<State>
    /// The worker of ``indexInBackground()``, while it runs.
    private let indexer = DispatchGroup()

    struct State: ~Copyable {
        var scanner: ChunkBoundaryScanner
        var starts: [Int] = []
        /// What looked open where chunk `k` starts, for the chunks cut so.
        var openAt: [Int: OpenAtCut] = [:]
        var isComplete = false
        var cache: [Int: ReaderChunk] = [:]
        /// Markdown: for each fence cut inside, by the offset of its opening line's line
        /// break, whether the chunk that holds that line ends inside its code as it parses
        /// (``fenceHolds(chunk:openedAt:opening:)``).
        var fenceHolds: [Int: Bool] = [:]
        /// Markdown: how each chunk ends as it parses (``end(ofChunk:)``), by index.
        var chunkEnds: [Int: ChunkEnd] = [:]
        /// Markdown: whether a line indented by four after each chunk reads as code
        /// (``endsInIndentedCode(_:)``), by index, asked of chunks before one that starts so.
        var indentedCodeEnds: [Int: Bool] = [:]
        /// Markdown: whether each chunk of the index after the scan's first doubtful line
        /// starts where its parse alone starts as the whole does (``readsInStep(_:)``).
        var inStep: [Int: Bool] = [:]
        var cacheOrder: [Int] = []
        /// The last chunks, found from the end before the index got there.
        var tail: Tail?
        /// Where ``indexInBackground()``'s worker scans: the start of its block, or -1.
        var workerPosition = -1
        /// The positions found by ``position(ofByte:)``, in the order of their offsets.
        var positions: [TextPosition] = []
    }

    /// The last chunks found from the end of the file (``lastChunkFromEnd()``):
    /// their starts, the first of which every scanner of the index cuts at, so that the
    /// index holds the same starts once it gets there.
    struct Tail {
        var starts: [Int]
        var contentEnd: Int
        /// HTML: what is open where tail chunk `k` starts, for the chunks cut so (an entity
        /// longer than a chunk, inside the last megabyte).
        var openAt: [Int: OpenAtCut] = [:]
    }

    /// The first provisional chunk index: the tail's chunk `k` is `provisionalBase + k`
    /// until the index is complete, and its place in the index is known.
    static let provisionalBase = 1 << 48

    /// Chunks kept parsed.
    static let cachedChunks = 32
    /// Bytes read at a time while the index is built, by default; the last chunks found
    /// from the end are those of the last block (``lastChunkFromEnd()``).
    static let defaultBlockBytes = 1 << 20

    /// A document over the file at `path`, which stays open until the document goes away.
    ///
    /// - Parameters:
    ///   - path: The file.
    ///   - rule: Where chunks may end.
    ///   - minimumBytes: The least length of a chunk.
    ///   - maximumBytes: The length after which a chunk is cut where possible.
    ///   - separator: What the reader shows between two chunks.
    ///   - parse: Makes a chunk's message from its bytes.
    ///   - failed: Makes the message of a chunk the whole document's parse cannot read
    ///     (by default `[could not be read: reason]`).
    /// - Throws: ``TerminalError/system(call:errno:)`` from `open` or `fstat`.
    public init(
        path: String, rule: ChunkBoundaryScanner.Rule, minimumBytes: Int = 4096, maximumBytes: Int = 65536,
        separator: String, parse: @escaping Parse, failed: Failure? = nil
    ) throws(TerminalError) {
        let fd = try systemCall("open") { open(path, O_RDONLY | O_CLOEXEC) }
        var info = stat()
        do {
            try systemCall("fstat") { fstat(fd, &info) }
        } catch {
            close(fd)
            throw error
        }
        descriptor = fd
        memory = []
        byteCount = Int(info.st_size)
        blockBytes = Self.defaultBlockBytes
        self.separator = separator
        self.parse = parse
        self.failed = failed ?? Self.couldNotBeRead
        state = Mutex(
            State(scanner: ChunkBoundaryScanner(rule: rule, minimumBytes: minimumBytes, maximumBytes: maximumBytes)))
        state.withLock { if rule != .exportMessages { $0.starts = [0] } }
    }

    /// A document over `bytes` in memory (for tests, and for input that is not a file).
    ///
    /// - Parameters: as for ``init(path:rule:minimumBytes:maximumBytes:separator:parse:failed:)``.
    public convenience init(
        bytes: [UInt8], rule: ChunkBoundaryScanner.Rule, minimumBytes: Int = 4096, maximumBytes: Int = 65536,
        separator: String, parse: @escaping Parse, failed: Failure? = nil
    ) {
        self.init(
            bytes: bytes, rule: rule, minimumBytes: minimumBytes, maximumBytes: maximumBytes,
            blockBytes: Self.defaultBlockBytes, separator: separator, parse: parse, failed: failed)
    }

    /// A document over `bytes` in memory read `blockBytes` at a time while the index is
    /// built, and whose last chunks may be found from the end in its last `blockBytes`
    /// (tests: a small document behaves as a large one does).
    package init(
        bytes: [UInt8], rule: ChunkBoundaryScanner.Rule, minimumBytes: Int, maximumBytes: Int, blockBytes: Int,
        separator: String, parse: @escaping Parse, failed: Failure? = nil
    ) {
        descriptor = nil
        memory = bytes
        byteCount = bytes.count
        self.blockBytes = max(1, blockBytes)
        self.separator = separator
        self.parse = parse
        self.failed = failed ?? Self.couldNotBeRead
        state = Mutex(
            State(scanner: ChunkBoundaryScanner(rule: rule, minimumBytes: minimumBytes, maximumBytes: maximumBytes)))
        state.withLock { if rule != .exportMessages { $0.starts = [0] } }
    }

    /// The message of a chunk that cannot be read, by default.
    static let couldNotBeRead: Failure = { error in Message(text: "[could not be read: \(error.reason)]") }

    deinit {
        if let descriptor { close(descriptor) }
    }

    /// The bytes in `range` (fewer if the file ends first or cannot be read).
    func read(_ range: Range<Int>) -> [UInt8] {
        guard let fd = descriptor else {
            let r = range.clamped(to: 0..<memory.count)
            return Array(memory[r])
        }
        var out = [UInt8](repeating: 0, count: range.count)
        var done = 0
        out.withUnsafeMutableBytes { raw in
            while done < range.count {
                let n = pread(fd, raw.baseAddress! + done, range.count - done, off_t(range.lowerBound + done))
                if n > 0 {
                    done += n
                } else if n < 0 && errno == EINTR {
                    continue
                } else {
                    break
                }
            }
        }
        if done < out.count { out.removeLast(out.count - done) }
        return out
    }

    /// Scans on until the index holds more than `count` starts or is complete.
    private func index(_ s: inout State, beyond count: Int) {
        while s.starts.count <= count && scanBlock(&s) {}
    }

    /// Scans the next block for chunk starts, or marks the index complete at the end.
    ///
    /// - Returns: whether the index is still incomplete.
    private func scanBlock(_ s: inout State) -> Bool {
        guard !s.isComplete else { return false }
        if !scanNextBlock(&s.scanner, into: &s.starts, openAt: &s.openAt) { s.isComplete = true }
        return !s.isComplete
    }

    /// Reads the block at `scanner`'s position and adds the chunk starts it holds to
    /// `starts`, and to `openAt` what looked open where a chunk of plain text was cut so.
    ///
    /// - Returns: false, having read nothing, at the end of the document.
    private func scanNextBlock(
        _ scanner: inout ChunkBoundaryScanner, into starts: inout [Int], openAt: inout [Int: OpenAtCut]
    ) -> Bool {
        let from = scanner.position
        let block = from < byteCount ? read(from..<min(byteCount, from + blockBytes)) : []
        guard !block.isEmpty else { return false }
        Self.scan(block[...], with: &scanner, into: &starts, openAt: &openAt)
        dropEmptyLast(&starts, openAt: &openAt)
        return true
    }

    /// Takes off a chunk start at the end of the document (a text that ends with a blank
    /// line, cut after it), which would be an empty chunk shown after a separator.
    private func dropEmptyLast(_ starts: inout [Int], openAt: inout [Int: OpenAtCut]) {
        guard starts.count > 1, starts.last == byteCount else { return }
        starts.removeLast()
        openAt[starts.count] = nil
    }

    /// Scans `bytes` with `scanner`, adding each chunk start it finds to `starts` and what is
    /// open there, when something is, to `openAt` (by the chunk's index in `starts`).
    private static func scan(
        _ bytes: ArraySlice<UInt8>, with scanner: inout ChunkBoundaryScanner, into starts: inout [Int],
        openAt: inout [Int: OpenAtCut]
    ) {
        bytes.withUnsafeBufferPointer {
            scanner.scanCuts($0) { start, open in
                if let open { openAt[starts.count] = open }
                starts.append(start)
            }
        }
    }

    /// What chunk `index` is parsed between: nothing; the markup that opens what is open at
    /// its start and closes what is open at its end, once that is known for certain; or, for
    /// markup never closed, the whole parse's error.
    private enum Between {
        case markup(before: [UInt8], after: [UInt8])
        case unclosed(reason: String, byteOffset: Int)
        /// MarkdownV2 or HTML cut where what is open cannot be opened again: not parsed.
        case unreadable
    }

    /// What chunk `index` is parsed between, once it is known for certain (nil before: the
    /// caller scans on).
    private func between(_ s: borrowing State, _ index: Int, isLast: Bool) -> Between? {
        let start = s.openAt[index]
        let end = isLast ? nil : s.openAt[index + 1]
        switch (start, end) {
        case (nil, nil):
            return .markup(before: [], after: [])
        case (.unreadable, _), (_, .unreadable):
            return .unreadable
        case (.plain, _), (_, .plain):
            func place(_ open: OpenAtCut?) -> PlainMarkupTracker.Place? {
                if case .plain(let place) = open { return place }
                return nil
            }
            guard let opening = certainlyOpen(s, place(start)), let closing = certainlyOpen(s, place(end)) else {
                return nil
            }
            return .markup(
                before: PlainMarkupTracker.openingMarkers(for: opening),
                after: PlainMarkupTracker.closingMarkers(for: closing))
        default:
            let cuts = [start?.entityCut, end?.entityCut].compactMap { $0 }
            // All of it closed after the cut: certain. Else certain only at the end, where
            // it never closed.
            if cuts.allSatisfy({ $0.offset < s.scanner.lastOutside }) { return Self.entityMarkup(start, end) }
            guard s.isComplete else { return nil }
            guard let unclosed = s.scanner.unclosedMarkup else {
                // (Not reached: what is open at a cut and never closed is open at the end.)
                return Self.entityMarkup(start, end)
            }
            return .unclosed(reason: unclosed.reason, byteOffset: unclosed.byteOffset)
        }
    }

    /// What the tail's chunk `k` is parsed between: certain, since the tail found from the
    /// end reads on its own to the end of the file (``lastChunkFromEnd()``).
    private static func between(_ tail: Tail, _ k: Int, isLast: Bool) -> Between {
        let start = tail.openAt[k]
        let end = isLast ? nil : tail.openAt[k + 1]
        if start == .unreadable || end == .unreadable { return .unreadable }
        return entityMarkup(start, end)
    }

    /// The markup that opens what is open at a chunk's `start` and closes what is open at
    /// its `end` (HTML, MarkdownV2).
    private static func entityMarkup(_ start: OpenAtCut?, _ end: OpenAtCut?) -> Between {
        .markup(before: start?.entityCut?.opening ?? [], after: end?.entityCut?.closing ?? [])
    }

    /// What is open at `place` for certain: what it says, once the scan has found nothing
    /// open after it (all of it closed); else, once the whole document is scanned, what the
    /// tracker resolves it to; nil before either.
    private func certainlyOpen(_ s: borrowing State, _ place: PlainMarkupTracker.Place?) -> PlainMarkupTracker.Open? {
        guard let place else { return .nothing }
        if place.offset < s.scanner.lastOutside {
            return PlainMarkupTracker.Open(spoiler: place.spoiler, code: place.code)
        }
        return s.isComplete ? s.scanner.markup.resolve(place) : nil
    }

    /// The position of byte `offset` of the document: its line and column (in bytes, from 1)
    /// and its UTF-16 offset, read from the last position found before it (or the start);
    /// each is kept, and so is the position at the end of each block read on the way, so
    /// that the errors of a file's chunks read it about once in all, in any order (the end
    /// of a file first, then the chunks before it).
    package func position(ofByte offset: Int) -> TextPosition {
        let start = TextPosition(utf8Offset: 0, utf16Offset: 0, line: 1, column: 1)
        let from = state.withLock { s in s.positions.last { $0.utf8Offset <= offset } } ?? start
        var found = from
        for at in stride(from: from.utf8Offset, to: offset, by: blockBytes) {
            found = found.advanced(over: read(at..<min(offset, at + blockBytes)))
            keep(found)
        }
        keep(found)
        return found
    }

    /// Keeps `position` among those ``position(ofByte:)`` reads from, in the order of their
    /// offsets.
    private func keep(_ position: TextPosition) {
        state.withLock { s in
            let k = s.positions.firstIndex { $0.utf8Offset > position.utf8Offset } ?? s.positions.count
            if k == 0 || s.positions[k - 1].utf8Offset != position.utf8Offset { s.positions.insert(position, at: k) }
        }
    }

    /// Where the content ends: the end of the last message of an export, else the file's end.
    private func contentEnd(_ s: borrowing State) -> Int {
        s.scanner.rule == .exportMessages ? (s.scanner.contentEnd ?? byteCount) : byteCount
    }

    /// Where a chunk lies, as the index (or the tail) has it.
    enum Place {
        case bytes(Range<Int>, cached: ReaderChunk?, isLast: Bool)
        /// A provisional index above the tail's first chunk.
        case aboveTail
        case none
    }

    public func chunk(at index: Int) -> ReaderChunk? {
        guard index >= 0 else { return nil }
        let place: Place = state.withLock { s in
            index >= Self.provisionalBase ? self.tailPlace(s, index) : self.indexedPlace(&s, index)
        }
        let range: Range<Int>
        let isLast: Bool
        switch place {
        case .none:
            return nil
        case .aboveTail:
            // Its place in the index is needed: wait for the index.
            guard let settled = settledIndex(of: index, waiting: true), settled < Self.provisionalBase else {
                return nil
            }
            return chunk(at: settled)
        case .bytes(let r, let cached, let last):
            if let cached { return cached }
            range = r
            isLast = last
        }
        let prepared = prepare(index, range: range, isLast: isLast)
        let reopenedBytes = prepared.reopenedBytes
        let message: Message
        if let unreadable = prepared.unreadable {
            message = unreadable
        } else {
            do throws(ParseError) {
                message = try parse(prepared.bytes, Part(isLast: isLast, reopenedBytes: reopenedBytes))
            } catch {
                // Where it went wrong in the file, not in the chunk's bytes.
                var located = error
                if let at = error.position?.utf8Offset {
                    // A reason that names the same byte names it in the file too.
                    located = error.moved(
                        to: position(ofByte: range.lowerBound + min(max(0, at - reopenedBytes), range.count)))
                }
                message = failed(located)
            }
        }
        let chunk = ReaderChunk(bytes: range, message: message, joinsPrevious: prepared.joinsPrevious)
        state.withLock { s in
            s.cache[index] = chunk
            s.cacheOrder.append(index)
            if s.cacheOrder.count > Self.cachedChunks { s.cache[s.cacheOrder.removeFirst()] = nil }
        }
        return chunk
    }

    /// What chunk `index` (at `range`) is parsed as: its bytes, with the markup that opens
    /// and closes what is open at its ends; or the message that says it cannot be read.
    struct Prepared {
        var bytes: [UInt8]
        var reopenedBytes = 0
        var joinsPrevious = false
        var unreadable: Message?
    }

    /// The bytes chunk `index`, at `range`, is parsed as (``Prepared``). For Markdown,
    /// `checksNeighbours` checks the chunks on either side as well
    /// (``markdownCuts(_:range:isLast:checksNeighbours:bytes:reopenedBytes:)``); without it
    /// only the bytes are wanted, as a check of a neighbour wants them (checking its own
    /// neighbours, it would check theirs, and so on to the first).
    func prepare(_ index: Int, range: Range<Int>, isLast: Bool, checksNeighbours: Bool = true) -> Prepared {
        var bytes = read(range)
        let rule = state.withLock { $0.scanner.rule }
        if rule != .exportMessages, bytes.last == 0x0A {
            bytes.removeLast()
            if bytes.last == 0x0D { bytes.removeLast() }
        }
        var unreadable: Message?
        var reopenedBytes = 0
        var joinsPrevious = false
        if rule == .markdownBlocks {
            unreadable = markdownCuts(
                index, range: range, isLast: isLast, checksNeighbours: checksNeighbours, bytes: &bytes,
                reopenedBytes: &reopenedBytes)
            joinsPrevious = reopenedBytes > 0
        }
        if rule == .plainText || rule == .htmlText || rule == .markdownV2Text {
            // What is open at its ends is known for certain once the index has found it
            // all closed, or has reached the end; in the tail, at once (it closes all).
            let between = state.withLock { s -> Between? in
                if index >= Self.provisionalBase, let tail = s.tail {
                    return Self.between(tail, index - Self.provisionalBase, isLast: isLast)
                }
                var between = self.between(s, index, isLast: isLast)
                while between == nil && self.scanBlock(&s) { between = self.between(s, index, isLast: isLast) }
                return between ?? self.between(s, index, isLast: isLast)
            }
            switch between {
            case .markup(let before, let after) where !before.isEmpty || !after.isEmpty:
                bytes = before + bytes + after
                reopenedBytes = before.count
            case .unclosed(let reason, let byteOffset):
                // Read from the start once, for every chunk inside it (the position is kept).
                unreadable = failed(ParseError(.syntax, reason, position: position(ofByte: byteOffset)))
            case .unreadable:
                let maximum = state.withLock { $0.scanner.maximumBytes }
                func size(_ bytes: Int) -> String { bytes >= 1024 ? "\(bytes / 1024) KB" : "\(bytes) bytes" }
                let reason =
                    rule == .htmlText
                    ? "A tag runs on for more than \(size(2 * maximum)) here with no place where it can be opened "
                        + "again (an <a> without href, a <code> with a language, or no text between its tags): "
                        + "HTML cannot be read a chunk at a time inside it"
                    : "An entity runs on for more than \(size(2 * maximum)) here with no place where it can be opened "
                        + "again (a link, code, a quotation, or no text between its markers): MarkdownV2 cannot be read "
                        + "a chunk at a time inside it"
                unreadable = failed(ParseError(.syntax, reason))
            default:
                break
            }
        }
        return Prepared(
            bytes: bytes, reopenedBytes: reopenedBytes, joinsPrevious: joinsPrevious, unreadable: unreadable)
    }

    /// Where chunk `index` of the index lies, indexing on as far as it.
    func indexedPlace(_ s: inout State, _ index: Int) -> Place {
        self.index(&s, beyond: index + 1)
        guard index < s.starts.count else { return .none }
        let isLast = index == s.starts.count - 1
        let end = isLast ? contentEnd(s) : s.starts[index + 1]
        return .bytes(s.starts[index]..<max(s.starts[index], end), cached: s.cache[index], isLast: isLast)
    }

    /// Where the tail's chunk at provisional `index` lies.
    func tailPlace(_ s: borrowing State, _ index: Int) -> Place {
        guard let tail = s.tail else { return .none }
        let k = index - Self.provisionalBase
        guard k >= 0 else { return .aboveTail }
        guard k < tail.starts.count else { return .none }
        let isLast = k == tail.starts.count - 1
        let end = isLast ? tail.contentEnd : tail.starts[k + 1]
        return .bytes(tail.starts[k]..<max(tail.starts[k], end), cached: s.cache[index], isLast: isLast)
    }

    public var chunkCount: Int {
        // A worker building the index (indexInBackground) finishes it.
        indexer.wait()
        return state.withLock { s in
            self.index(&s, beyond: Int.max - 1)
            return s.starts.count
        }
    }

    /// The index of the last chunk, found at once from the end of the file while the index
    /// is still being built; the index's last once it is complete; nil when it cannot be
    /// found so (plain text and MarkdownV2, where a blank line of the last megabyte
    /// may be inside a spoiler opened before it, which only the index can tell; HTML whose
    /// last megabyte, from its first blank line, closes a tag it did not open or rejects
    /// one; Markdown whose last megabyte, from there, has a line that may open or close
    /// fenced code, which would close code open at the blank line, read as opening it; a
    /// file of a few megabytes, a last megabyte without a blank line, an export
    /// not indented as Telegram Desktop writes it, or with a last message over a megabyte).
    ///
    /// In a text the chunks start after the first blank line of the file's last megabyte
    /// (in Markdown, that line must be outside fenced code in the index too: else the index
    /// gives them no place; fenced code open there and never closed is read as text until
    /// the index is done). In an export, the messages are found as the lines that start
    /// at the first message's indentation with a brace, in the file's last megabyte (a line
    /// break is never inside a JSON string), and the scan from the first of them must close
    /// the array they are in and the top-level object (in a whole-account export, the
    /// messages of the chats after theirs are followed as the index follows them). The index returned is then provisional
    /// (``settledIndex(of:)``): the chunks from it back to the first found answer
    /// ``chunk(at:)`` at once, and a chunk above them waits for the index. Should the file
    /// hold another array of objects at that indentation after the messages, and over a
    /// megabyte long, its objects are what is found: the index then gives them no place.
    public func lastChunkFromEnd() -> Int? {
        enum Known {
            case answer(Int?)
            case find(firstMessage: Int, scanner: ChunkBoundaryScanner)
        }
        let known: Known = state.withLock { s in
            if s.isComplete { return .answer(s.starts.isEmpty ? nil : s.starts.count - 1) }
            if let tail = s.tail { return .answer(Self.provisionalBase + tail.starts.count - 1) }
            // Plain text or MarkdownV2 found from the end could start inside a spoiler
            // (opened before the last megabyte, across blank lines): its chunks, parsed as
            // texts of their own, would show what it hides. They wait for the index. (HTML
            // says so by its end tags: ``findTextTail(like:)``.)
            let rule = s.scanner.rule
            guard let first = s.starts.first, byteCount > 2 * blockBytes,
                rule != .plainText && rule != .markdownV2Text
            else {
                return .answer(nil)
            }
            return .find(firstMessage: first, scanner: s.scanner)
        }
        guard case .find(let first, let scanner) = known else {
            if case .answer(let last) = known { return last }
            return nil
        }
        guard let tail = findTail(firstMessage: first, like: scanner) else { return nil }
        return state.withLock { s in
            if s.isComplete { return s.starts.isEmpty ? nil : s.starts.count - 1 }
            if let t = s.tail { return Self.provisionalBase + t.starts.count - 1 }
            // Every scan of the index must still come to the tail's first message, to cut there.
            let first = tail.starts[0]
            guard s.scanner.position <= first, s.workerPosition < 0 || s.workerPosition + blockBytes <= first
            else { return nil }
            s.tail = tail
            s.scanner.cutsAt = first
            return Self.provisionalBase + tail.starts.count - 1
        }
    }

    /// The chunks of the document's last megabyte, found from its end (see
    /// ``lastChunkFromEnd()``), cut as a scanner with `scanner`'s rule and lengths cuts them.
    private func findTail(firstMessage first: Int, like scanner: ChunkBoundaryScanner) -> Tail? {
        scanner.rule == .exportMessages
            ? findExportTail(firstMessage: first, like: scanner) : findTextTail(like: scanner)
    }

    /// A text's chunks from the first blank line of its last megabyte.
    private func findTextTail(like scanner: ChunkBoundaryScanner) -> Tail? {
        let from = byteCount - blockBytes
        let block = read(from..<byteCount)
        // The first blank line: nothing, or a carriage return, before its line break; in
        // Markdown, one before a line that begins with text in its first column (an indented
        // line may go on with a list item, as the scanner's cuts take it).
        let markdown = scanner.rule == .markdownBlocks
        guard
            let blank = Self.firstLine(
                in: block,
                where: { rest in
                    let end = rest.first == 0x0A ? 1 : rest.starts(with: [0x0D, 0x0A]) ? 2 : 0
                    guard end > 0 else { return false }
                    guard markdown else { return true }
                    let next = rest.dropFirst(end).first
                    return next != nil && next != 0x20 && next != 0x09 && next != 0x0D && next != 0x0A
                })
        else { return nil }
        let start = block[blank...].firstIndex(of: 0x0A)! + 1
        guard start < block.count else { return nil }
        var tail = ChunkBoundaryScanner.textTail(
            at: from + start, rule: scanner.rule, minimumBytes: scanner.minimumBytes, maximumBytes: scanner.maximumBytes
        )
        var starts = [from + start]
        var openAt: [Int: OpenAtCut] = [:]
        Self.scan(block[start...], with: &tail, into: &starts, openAt: &openAt)
        dropEmptyLast(&starts, openAt: &openAt)
        // HTML: nothing open at the blank line, as the scan to the end tells (a tag open
        // there would be closed after it by an end tag the scan rejects), for a document
        // whose parse succeeds. One whose parse fails before the blank line, with a tag
        // never closed, shows its last chunks as they read on their own until the index
        // finds where it fails. Markdown: no line that could close fenced code open there.
        guard tail.tailReadsAlone else { return nil }
        return Tail(starts: starts, contentEnd: byteCount, openAt: openAt)
    }

    /// The start of the first line of `block` after a line break that `matches` (given the
    /// bytes from the line's start to the block's end).
    private static func firstLine(in block: [UInt8], where matches: (ArraySlice<UInt8>) -> Bool) -> Int? {
        var k = block.firstIndex(of: 0x0A)
        while let lineBreak = k {
            if matches(block[(lineBreak + 1)...]) { return lineBreak + 1 }
            k = block[(lineBreak + 1)...].firstIndex(of: 0x0A)
        }
        return nil
    }

    /// An export's chunks from the first message that starts a line of its last megabyte.
    private func findExportTail(firstMessage first: Int, like scanner: ChunkBoundaryScanner) -> Tail? {
        // The messages' indentation: between the line break before the first and its brace.
        let before = read(max(0, first - 256)..<first)
        guard let newline = before.lastIndex(of: 0x0A) else { return nil }
        let indent = before[(newline + 1)...]
        guard indent.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) else { return nil }
        let from = max(first + 1, byteCount - blockBytes)
        let block = read(from..<byteCount)
        let lead = Array(indent) + [UInt8(ascii: "{")]
        guard let line = Self.firstLine(in: block, where: { $0.starts(with: lead) }) else { return nil }
        let start = from + line + indent.count
        // (In a whole-account export, the messages of a chat of its lists: the scan follows
        // the chats after it as the index does.)
        var tail = ChunkBoundaryScanner.exportTail(
            at: start, minimumBytes: scanner.minimumBytes, maximumBytes: scanner.maximumBytes,
            wholeAccount: scanner.isWholeAccount)
        var starts: [Int] = []
        block[(start - from)...].withUnsafeBufferPointer { tail.scan($0) { starts.append($0) } }
        guard tail.closedTheExport, let end = tail.contentEnd, starts.first == start else { return nil }
        return Tail(starts: starts, contentEnd: end)
    }

    /// Where a provisional chunk index (``lastChunkFromEnd()``) is in the index, once the
    /// index is complete: nil before, or when the chunks found from the end were not
    /// where the index has them (a file whose last top-level member is not `messages`),
    /// or for a chunk above the first. Any other index is its own.
    public func settledIndex(of index: Int) -> Int? { settledIndex(of: index, waiting: false) }

    /// ``settledIndex(of:)``, after waiting for the index if `waiting`.
    private func settledIndex(of index: Int, waiting: Bool) -> Int? {
        guard index >= Self.provisionalBase else { return index }
        if waiting { _ = chunkCount }
        return state.withLock { s in
            guard s.isComplete, let tail = s.tail else { return nil }
            let h = s.starts.count - tail.starts.count
            guard h >= 0, s.starts[h...].elementsEqual(tail.starts), contentEnd(s) == tail.contentEnd else {
                return nil
            }
            let settled = index - Self.provisionalBase + h
            return settled >= 0 ? settled : nil
        }
    }

    /// Whether the whole document has been indexed.
    public var isIndexed: Bool { state.withLock { $0.isComplete } }

    /// Whether ``indexInBackground()``'s worker is still building the index.
    public var isIndexingInBackground: Bool { indexer.wait(timeout: .now()) == .timedOut }

    /// Builds the rest of the index of chunk starts on a Dispatch worker thread, so that
    /// the end of a long document (End, ``chunkCount``, the percentage) is known by the
    /// time the reader asks for it instead of being read then.
    ///
    /// The worker scans a copy of the index, without the lock, and hands the whole index
    /// over when it is done, so the reader's own calls for chunks near the screen never
    /// wait for it; ``chunkCount`` waits for the worker rather than scanning the same bytes
    /// a second time. It stops early if the document goes away.
    public func indexInBackground() {
        guard !isIndexingInBackground,
            let (scanner, starts, openAt) = state.withLock({ s in
                s.isComplete ? nil : (s.scanner, s.starts, s.openAt)
            })
        else { return }
        let indexer = self.indexer
        indexer.enter()
        DispatchQueue.global(qos: .userInitiated).async { [weak self] in
            defer { indexer.leave() }
            var scanner = scanner
            var starts = starts
            var openAt = openAt
            while let document = self {
                document.state.withLock { s in
                    // The tail found from the end meanwhile is cut at (``lastChunkFromEnd()``
                    // sets it only beyond this block).
                    scanner.cutsAt = s.tail?.starts.first ?? -1
                    s.workerPosition = scanner.position
                }
                guard !document.scanNextBlock(&scanner, into: &starts, openAt: &openAt) else { continue }
                document.state.withLock { s in
                    s.workerPosition = -1
                    // The reader's own index may have got there first.
                    guard !s.isComplete else { return }
                    s.scanner = scanner
                    s.starts = starts
                    s.openAt = openAt
                    s.isComplete = true
                }
                return
            }
        }
    }
}
