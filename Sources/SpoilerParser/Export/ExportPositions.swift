import SpoilerCore

/// The line, column and UTF-16 bookkeeping of an ``ExportReader``, and what it needs to
/// place a JSON error on the offending byte however the export is cut into reads.
///
/// yajl reports an error as a count of bytes consumed in the read that failed, and what
/// that count means depends on the error: after the bad byte for an unexpected character or
/// broken UTF-8, on it for the other lexical errors, and after (or part way back into) the
/// offending token for a grammar error, clamped to the start of the read when the token began
/// in an earlier one. So a grammar error is placed from our own side instead: every yajl
/// callback records where its token ended, and the first bytes after that which are not
/// white space (``Gap``) are where the next tokens begin; the offending token is one of
/// those two.
struct ExportPositions {
    /// What followed the last token a callback saw: the first byte that is not white
    /// space, and, when that is a `,` or `:`, the first such byte after it.
    struct Gap {
        var first: TextPosition?
        var firstIsSeparator = false
        var second: TextPosition?
        var isComplete: Bool { first != nil && (!firstIsSeparator || second != nil) }
    }

    /// Bytes read before the current chunk.
    var fedBytes = 0
    /// Line, column and UTF-16 count at ``advanced`` bytes into the current chunk.
    private var line = 1
    private var column = 1
    private var utf16Count = 0
    private(set) var advanced = 0
    /// The last three bytes of the earlier chunks (a UTF-8 sequence can straddle reads).
    private var tail: [UInt8] = []
    /// Where the last token a callback saw ended, from the start of the export.
    var lastTokenEnd = 0
    /// Whether that token was `{` or `[` (or there was none): then no separator can follow.
    var lastTokenOpens = true
    private var gap = Gap()

    /// The position `offset` bytes into the current chunk (at or after ``advanced``).
    mutating func position(at offset: Int, in chunk: UnsafeBufferPointer<UInt8>) -> TextPosition {
        let end = min(offset, chunk.count)
        advance(over: chunk, upTo: end)
        return TextPosition(utf8Offset: fedBytes + end, utf16Offset: utf16Count, line: line, column: column)
    }

    /// Moves on to the next chunk, after the whole of `chunk` was read without an error.
    mutating func finishChunk(_ chunk: UnsafeBufferPointer<UInt8>) {
        scanGap(in: chunk)
        advance(over: chunk, upTo: chunk.count)
        tail = Array((tail + chunk).suffix(3))
        fedBytes += chunk.count
        advanced = 0
    }

    /// The first byte of the token that a yajl grammar error is about: the token after the
    /// last one a callback saw, or the one after that when a `,` or `:` came between them
    /// (`separatorAccepted`).
    mutating func offendingToken(in chunk: UnsafeBufferPointer<UInt8>, separatorAccepted: Bool) -> TextPosition? {
        scanGap(in: chunk)
        return separatorAccepted && gap.firstIsSeparator ? gap.second : gap.first
    }

    /// The first byte of the broken UTF-8 sequence whose byte `offset` into the current
    /// chunk (which yajl found wrong) is not a continuation byte: the lead byte it follows.
    mutating func brokenSequence(endingAt offset: Int, in chunk: UnsafeBufferPointer<UInt8>) -> TextPosition {
        var at = position(at: offset, in: chunk)
        let bad = offset < chunk.count ? chunk[offset] : 0
        // A stray continuation byte or an impossible lead byte is itself the bad byte.
        if bad & 0xC0 == 0x80 || bad >= 0xF8 { return at }
        func byte(_ i: Int) -> UInt8? { i >= 0 ? chunk[i] : (tail.count + i >= 0 ? tail[tail.count + i] : nil) }
        var back = 1
        while back <= 3, let b = byte(offset - back), b & 0xC0 == 0x80 { back += 1 }
        guard back <= 3, let lead = byte(offset - back), lead >= 0xC0 else { return at }
        at.utf8Offset -= back
        at.column -= back
        at.utf16Offset -= lead >= 0xF0 ? 2 : 1
        return at
    }

    /// Finds the bytes after the last token that begin the next tokens, in the current
    /// chunk: from the token's end if it ended in this chunk, from the chunk's start if
    /// the gap began in an earlier one. Called once a chunk, before any other position.
    private mutating func scanGap(in chunk: UnsafeBufferPointer<UInt8>) {
        var i: Int
        if lastTokenEnd >= fedBytes {
            // A token ended in this chunk (or where it began): look from its end.
            gap = Gap()
            i = lastTokenEnd - fedBytes
        } else if !gap.isComplete {
            // The gap began in an earlier chunk and goes on here.
            i = 0
        } else {
            return
        }
        while i < chunk.count && !gap.isComplete {
            let b = chunk[i]
            // yajl's white space: tab, newline, vertical tab, form feed, return, space.
            if b == 0x20 || (b >= 0x09 && b <= 0x0D) {
                i += 1
                continue
            }
            let here = position(at: i, in: chunk)
            if gap.first == nil {
                gap.first = here
                gap.firstIsSeparator = !lastTokenOpens && (b == UInt8(ascii: ",") || b == UInt8(ascii: ":"))
            } else {
                gap.second = here
            }
            i += 1
        }
    }

    /// Moves the line and column bookkeeping over `chunk[advanced..<end]`.
    private mutating func advance(over chunk: UnsafeBufferPointer<UInt8>, upTo end: Int) {
        guard let base = chunk.baseAddress, end > advanced else { return }
        // Eight bytes at a time: newlines, UTF-8 continuation bytes (10xxxxxx) and lead
        // bytes of four-byte sequences (11110xxx, two UTF-16 units), each counted with a
        // popcount of one flag bit per byte.
        let raw = UnsafeRawPointer(base)
        let high = ByteLanes.highs
        let start = advanced
        var newlines = 0
        var continuations = 0
        var fourByteLeads = 0
        var i = start
        while i + 8 <= end {
            let v = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            newlines += ByteLanes.exactlyEqual(v, 0x0A).nonzeroBitCount
            continuations += (v & ~(v << 1) & high).nonzeroBitCount
            fourByteLeads += (v & (v << 1) & (v << 2) & (v << 3) & ~(v << 4) & high).nonzeroBitCount
            i += 8
        }
        while i < end {
            let b = base[i]
            if b == 0x0A { newlines += 1 }
            if b & 0xC0 == 0x80 { continuations += 1 }
            if b & 0xF8 == 0xF0 { fourByteLeads += 1 }
            i += 1
        }
        utf16Count += (end - start) - continuations + fourByteLeads
        if newlines == 0 {
            column += end - start
        } else {
            line += newlines
            var k = end - 1
            while base[k] != 0x0A { k -= 1 }
            column = end - k
        }
        advanced = end
    }
}
