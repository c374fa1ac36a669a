import Dispatch
import Glibc
public import SpoilerCore
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
/// ```swift
/// let document = try ChunkedDocument(path: "notes.txt", rule: .paragraphs, separator: "\n") { bytes, _ in
///     (try? PlainParser.parse(bytes)) ?? Message(text: "[could not be read]")
/// }
/// ```
public final class ChunkedDocument: ReaderDocument {
    /// Parses one chunk's bytes (for the text rules without the chunk's final line
    /// break); the flag says whether it is the document's last chunk.
    public typealias Parse = @Sendable (_ bytes: [UInt8], _ isLast: Bool) -> Message

    public let byteCount: Int
    public let separator: String
    private let descriptor: Int32?
    private let memory: [UInt8]
    private let parse: Parse
    private let state: Mutex<State>
    /// The worker of ``indexInBackground()``, while it runs.
    private let indexer = DispatchGroup()

    private struct State: ~Copyable {
        var scanner: ChunkBoundaryScanner
        var starts: [Int] = []
        var isComplete = false
        var cache: [Int: Message] = [:]
        var cacheOrder: [Int] = []
    }

    /// Chunks kept parsed.
    static let cachedChunks = 32
    /// Bytes read at a time while the index is built.
    static let blockBytes = 1 << 20

    /// A document over the file at `path`, which stays open until the document goes away.
    ///
    /// - Parameters:
    ///   - path: The file.
    ///   - rule: Where chunks may end.
    ///   - minimumBytes: The least length of a chunk.
    ///   - maximumBytes: The length after which a chunk is cut where possible.
    ///   - separator: What the reader shows between two chunks.
    ///   - parse: Makes a chunk's message from its bytes.
    /// - Throws: ``TerminalError/system(call:errno:)`` from `open` or `fstat`.
    public init(
        path: String, rule: ChunkBoundaryScanner.Rule, minimumBytes: Int = 4096, maximumBytes: Int = 65536,
        separator: String, parse: @escaping Parse
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
        self.separator = separator
        self.parse = parse
        state = Mutex(
            State(scanner: ChunkBoundaryScanner(rule: rule, minimumBytes: minimumBytes, maximumBytes: maximumBytes)))
        state.withLock { if rule != .exportMessages { $0.starts = [0] } }
    }

    /// A document over `bytes` in memory (for tests, and for input that is not a file).
    ///
    /// - Parameters: as for ``init(path:rule:minimumBytes:maximumBytes:separator:parse:)``.
    public init(
        bytes: [UInt8], rule: ChunkBoundaryScanner.Rule, minimumBytes: Int = 4096, maximumBytes: Int = 65536,
        separator: String, parse: @escaping Parse
    ) {
        descriptor = nil
        memory = bytes
        byteCount = bytes.count
        self.separator = separator
        self.parse = parse
        state = Mutex(
            State(scanner: ChunkBoundaryScanner(rule: rule, minimumBytes: minimumBytes, maximumBytes: maximumBytes)))
        state.withLock { if rule != .exportMessages { $0.starts = [0] } }
    }

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
        if !scanNextBlock(&s.scanner, into: &s.starts) { s.isComplete = true }
        return !s.isComplete
    }

    /// Reads the block at `scanner`'s position and adds the chunk starts it holds to
    /// `starts`.
    ///
    /// - Returns: false, having read nothing, at the end of the document.
    private func scanNextBlock(_ scanner: inout ChunkBoundaryScanner, into starts: inout [Int]) -> Bool {
        let from = scanner.position
        let block = from < byteCount ? read(from..<min(byteCount, from + Self.blockBytes)) : []
        guard !block.isEmpty else { return false }
        block.withUnsafeBufferPointer { scanner.scan($0) { starts.append($0) } }
        return true
    }

    /// Where the content ends: the end of the last message of an export, else the file's end.
    private func contentEnd(_ s: borrowing State) -> Int {
        s.scanner.rule == .exportMessages ? (s.scanner.contentEnd ?? byteCount) : byteCount
    }

    public func chunk(at index: Int) -> ReaderChunk? {
        guard index >= 0 else { return nil }
        let found: (Range<Int>, Message?, Bool)? = state.withLock { s in
            self.index(&s, beyond: index + 1)
            guard index < s.starts.count else { return nil }
            let isLast = index == s.starts.count - 1
            let end = isLast ? contentEnd(s) : s.starts[index + 1]
            return (s.starts[index]..<max(s.starts[index], end), s.cache[index], isLast)
        }
        guard let (range, cached, isLast) = found else { return nil }
        if let cached { return ReaderChunk(bytes: range, message: cached) }
        var bytes = read(range)
        if state.withLock({ $0.scanner.rule }) != .exportMessages, bytes.last == 0x0A {
            bytes.removeLast()
            if bytes.last == 0x0D { bytes.removeLast() }
        }
        let message = parse(bytes, isLast)
        state.withLock { s in
            s.cache[index] = message
            s.cacheOrder.append(index)
            if s.cacheOrder.count > Self.cachedChunks { s.cache[s.cacheOrder.removeFirst()] = nil }
        }
        return ReaderChunk(bytes: range, message: message)
    }

    public var chunkCount: Int {
        // A worker building the index (indexInBackground) finishes it.
        indexer.wait()
        return state.withLock { s in
            self.index(&s, beyond: Int.max - 1)
            return s.starts.count
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
            let (scanner, starts) = state.withLock({ s in s.isComplete ? nil : (s.scanner, s.starts) })
        else { return }
        let indexer = self.indexer
        indexer.enter()
        DispatchQueue.global(qos: .userInitiated).async { [weak self] in
            defer { indexer.leave() }
            var scanner = scanner
            var starts = starts
            while let document = self {
                guard !document.scanNextBlock(&scanner, into: &starts) else { continue }
                document.state.withLock { s in
                    // The reader's own index may have got there first.
                    guard !s.isComplete else { return }
                    s.scanner = scanner
                    s.starts = starts
                    s.isComplete = true
                }
                return
            }
        }
    }
}
