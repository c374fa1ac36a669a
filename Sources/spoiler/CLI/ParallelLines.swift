import Dispatch
import Glibc
import Synchronization

/// `--jobs N`: how many threads work on NDJSON lines at once (DESIGN.md §8).
enum Jobs {
    /// The value of `--jobs` (checked by the parser against ``OptionTable``): a whole
    /// number from 1 to 1024, or 0 or `auto` for the number of cores; 1 when not given.
    static func count(from args: Arguments) -> Int {
        let n = args.integer("jobs")!
        return n == 0 ? cores : n
    }

    /// The number of online cores (at least 1).
    static var cores: Int { max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN))) }
}

/// A run of whole input lines read in one go: their bytes, where each line lies (without
/// its `\n`), and the 1-based number of the first.
struct LineBatch: Sendable {
    var bytes: [UInt8]
    var lines: [Range<Int>]
    var firstNumber: Int
}

/// Reads an input as batches of whole lines of about `targetBytes` each, so that memory
/// stays bounded whatever the input's size (a single longer line makes a larger batch).
///
/// Lines are cut as ``InputSource/forEachLine(_:)`` cuts them: at each `\n`, a final piece
/// without one being a line when it is not empty. A short read (a pipe with nothing more
/// waiting) ends a batch early, so that a slow producer's lines are not held back.
struct LineBatchReader {
    let input: InputSource
    let targetBytes: Int
    private var carry: [UInt8] = []
    private var nextNumber = 1
    private var atEnd = false
    /// A read error held back until the whole lines read before it have been handed out,
    /// as ``InputSource/forEachLine(_:)`` hands them out before it throws.
    private var readError: CommandLineError?

    init(input: InputSource, targetBytes: Int) {
        self.input = input
        self.targetBytes = targetBytes
    }

    /// The next batch, or nil at the end of the input.
    mutating func next() throws(CommandLineError) -> LineBatch? {
        if let readError {
            self.readError = nil
            throw readError
        }
        var data = carry
        carry = []
        data.reserveCapacity(targetBytes + (1 << 16))
        var lastNewline: Int?
        while !atEnd {
            let old = data.count
            let want = max(1 << 16, min(1 << 20, targetBytes - old))
            let n: Int
            do {
                n = try input.read(into: &data, count: want)
            } catch {
                guard let lastNewline else { throw error }
                readError = error
                carry = []
                data.removeSubrange((lastNewline + 1)...)
                return batch(of: data)
            }
            if n == 0 {
                atEnd = true
                break
            }
            if let i = data[old...].lastIndex(of: UInt8(ascii: "\n")) { lastNewline = i }
            if lastNewline != nil && (data.count >= targetBytes || n < want) { break }
        }
        let cut = atEnd ? data.count : lastNewline! + 1
        carry = Array(data[cut...])
        data.removeSubrange(cut...)
        if data.isEmpty { return nil }
        return batch(of: data)
    }

    /// Cuts `data` into lines and numbers them.
    private mutating func batch(of data: [UInt8]) -> LineBatch {
        var lines: [Range<Int>] = []
        data.withUnsafeBufferPointer { raw in
            var start = 0
            while start < raw.count {
                let p = memchr(raw.baseAddress! + start, 0x0A, raw.count - start)
                guard let p else {
                    lines.append(start..<raw.count)
                    break
                }
                let nl = raw.baseAddress!.distance(to: p.assumingMemoryBound(to: UInt8.self))
                lines.append(start..<nl)
                start = nl + 1
            }
        }
        let batch = LineBatch(bytes: data, lines: lines, firstNumber: nextNumber)
        nextNumber += lines.count
        return batch
    }
}

/// Maps a function over a batch's lines on `jobs` threads, keeping the lines' order.
///
/// The lines are cut into pieces of consecutive lines; each thread takes the next piece
/// not yet taken, so that a slow piece does not hold the others up.
enum ParallelLines {
    static func map<T: Sendable>(
        _ batch: LineBatch, jobs: Int, _ transform: @Sendable (ArraySlice<UInt8>, Int) -> T
    ) -> [T] {
        map(count: batch.lines.count, jobs: jobs) { i in
            transform(batch.bytes[batch.lines[i]], batch.firstNumber + i)
        }
    }

    /// `transform` of each of `0..<count`, worked out on `jobs` threads, in order.
    static func map<T: Sendable>(count: Int, jobs: Int, _ transform: @Sendable (Int) -> T) -> [T] {
        let pieces = min(count, jobs * 16)
        if jobs <= 1 || pieces <= 1 {
            return (0..<count).map(transform)
        }
        let slots = Slots<[T]>(count: pieces)
        let next = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: jobs) { _ in
            while true {
                let piece = next.add(1, ordering: .relaxed).oldValue
                if piece >= pieces { return }
                let range = (count * piece / pieces)..<(count * (piece + 1) / pieces)
                slots.set(piece, range.map(transform))
            }
        }
        return slots.take().flatMap { $0 }
    }
}

/// One result slot per piece, each written by exactly one thread.
///
/// `@unchecked Sendable` is sound here: each index is written once, by the one thread that
/// took that piece from the atomic counter, and read only by ``take()`` after
/// `concurrentPerform` has returned (which orders every write before the read).
private final class Slots<T>: @unchecked Sendable {
    private let base: UnsafeMutablePointer<T?>
    private let count: Int

    init(count: Int) {
        self.count = count
        base = .allocate(capacity: count)
        base.initialize(repeating: nil, count: count)
    }

    func set(_ index: Int, _ value: T) { base[index] = value }

    /// Every slot's value, in order.
    func take() -> [T] { (0..<count).map { base[$0]! } }

    deinit {
        base.deinitialize(count: count)
        base.deallocate()
    }
}
