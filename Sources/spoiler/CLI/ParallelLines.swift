import Dispatch
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
        let pieces = min(count, jobs * 16)
        if jobs <= 1 || pieces <= 1 {
            return [transform(0..<count)]
        }
        let slots = Slots<T>(count: pieces)
        let next = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: jobs) { _ in
            while true {
                let piece = next.add(1, ordering: .relaxed).oldValue
                if piece >= pieces { return }
                let range = (count * piece / pieces)..<(count * (piece + 1) / pieces)
                slots.set(piece, transform(range))
            }
        }
        return slots.take()
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
