import Dispatch
import SpoilerCore
import Glibc
import Synchronization

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
        mapPieces(count: count, jobs: jobs) { range in range.map(transform) }.flatMap { $0 }
    }

    /// `transform` of each piece of `0..<count` (consecutive ranges that together cover it,
    /// one when `jobs` is 1), worked out on `jobs` threads, in order.
    static func mapPieces<T: Sendable>(count: Int, jobs: Int, _ transform: @Sendable (Range<Int>) -> T) -> [T] {
        mapPieces(count: count, jobs: jobs, state: {}) { _, range, _ in transform(range) }
    }

    /// How many pieces ``mapPieces(count:jobs:state:_:)`` cuts `count` items into.
    static func pieceCount(count: Int, jobs: Int) -> Int {
        jobs <= 1 ? 1 : max(1, min(count, jobs * 16))
    }

    /// `transform` of each piece of `0..<count` (given with its index), as
    /// ``mapPieces(count:jobs:_:)``, with state that each thread makes once with `makeState`
    /// and hands to every piece it works on (room reused from piece to piece).
    static func mapPieces<T: Sendable, State>(
        count: Int, jobs: Int, state makeState: @Sendable () -> State,
        _ transform: @Sendable (Int, Range<Int>, inout State) -> T
    ) -> [T] {
        let pieces = pieceCount(count: count, jobs: jobs)
        if pieces <= 1 {
            var state = makeState()
            return [transform(0, 0..<count, &state)]
        }
        let slots = Slots<T>(count: pieces)
        let next = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: jobs) { _ in
            var state = makeState()
            while true {
                let piece = next.add(1, ordering: .relaxed).oldValue
                if piece >= pieces { return }
                let range = (count * piece / pieces)..<(count * (piece + 1) / pieces)
                slots.set(piece, transform(piece, range, &state))
            }
        }
        return slots.take()
    }
}

/// Output buffers kept from batch to batch, one per piece: a piece's output lines are
/// written into its buffer, which keeps its memory for the next batch (fresh memory for
/// every batch cost a page fault per 4 KB written).
///
/// `@unchecked Sendable` is sound as for ``Slots``: each index is taken and put back by the
/// one thread that took that piece, and read only after `concurrentPerform` has returned.
final class PieceBuffers: @unchecked Sendable {
    private let base: UnsafeMutablePointer<JSONOutputBuffer>
    let count: Int

    init(count: Int) {
        self.count = count
        base = .allocate(capacity: count)
        base.initialize(repeating: JSONOutputBuffer(), count: count)
    }

    /// Takes piece `k`'s buffer out, emptied, leaving an empty one in its place.
    func take(_ k: Int) -> JSONOutputBuffer {
        var out = JSONOutputBuffer()
        swap(&out, &base[k])
        out.removeAll()
        return out
    }

    /// Puts piece `k`'s buffer back.
    func put(_ k: Int, _ buffer: JSONOutputBuffer) { base[k] = buffer }

    /// Piece `k`'s buffer.
    subscript(k: Int) -> JSONOutputBuffer { base[k] }

    deinit {
        base.deinitialize(count: count)
        base.deallocate()
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
