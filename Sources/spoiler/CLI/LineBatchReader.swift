import Glibc

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
