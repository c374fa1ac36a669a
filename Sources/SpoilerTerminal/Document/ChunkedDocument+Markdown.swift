import SpoilerCore
import SpoilerParser

/// How a chunk of Markdown ends as it parses: inside fenced code, inside a spoiler.
struct ChunkEnd: Sendable, Equatable {
    var inCode = false
    var inSpoiler = false
}

extension ChunkedDocument {
    /// Markdown: what chunk `index` (at `range`) is parsed after, or the message that says
    /// it cannot be read. The scan follows fenced code at the top of the document only, and
    /// cuts it where it runs on for longer than a chunk may be; the parse says whether what
    /// it followed is so:
    /// - A chunk cut inside fenced code is parsed after the fence's opening line (put in
    ///   `bytes`, its length in `reopenedBytes`), where the chunk that holds that line ends
    ///   inside that code as it parses; else (a line the scan took for a fence and the parse
    ///   does not: inside an HTML block, a list item or a quotation) it cannot be read.
    /// - With `checksNeighbours`, a chunk that does not read in step (``readsInStep(_:)``:
    ///   the chunk before ends inside fenced code as it parses, code the scan does not
    ///   follow, in a list item or after a line the scan took for a fence; or that chunk
    ///   cannot be read for such a line, or itself does not read in step) cannot be read:
    ///   read alone, a line that closes that code would open code. Nor can one on
    ///   either side of a cut made at a line break inside a spoiler (a paragraph longer than a
    ///   chunk may be): read alone, each would show the spoiler's `||` and text.
    /// - With `checksNeighbours`, a chunk (other than the first) whose first line may read
    ///   alone otherwise than in the whole (``mayReadOtherwise(_:afterBlankLine:)``:
    ///   indented by four, or starting with `<` after a cut at a line break) cannot be read,
    ///   unless it goes on with the indented code the chunk before ends in
    ///   (``continuesIndentedCode(_:)``); the scan cuts before such a line only where there
    ///   is no other for longer than a chunk may be.
    func markdownCuts(
        _ index: Int, range: Range<Int>, isLast: Bool, checksNeighbours: Bool, bytes: inout [UInt8],
        reopenedBytes: inout Int
    ) -> Message? {
        if let cut = state.withLock({ s in fenceCut(s, index) }) {
            guard fenceHolds(chunk: cut.openerChunk, openedAt: cut.openedAt, opening: cut.opening) else {
                return lostFence(cut)
            }
            // Inside fenced code that the parse of the chunk with its opening line finds open
            // at that chunk's end: the chunk goes on with the same code.
            bytes = cut.opening + bytes
            reopenedBytes = cut.opening.count
            return nil
        }
        guard checksNeighbours else { return nil }
        if index > 0, index != Self.provisionalBase,
            Self.mayReadOtherwise(bytes, afterBlankLine: { startsAfterBlankLine(range.lowerBound) }),
            !(Self.indentedByFour(bytes) && continuesIndentedCode(index))
        {
            return lineReadOtherwise(at: range.lowerBound)
        }
        if index > 0, index != Self.provisionalBase {
            if !readsInStep(index) {
                return failed(
                    ParseError(
                        .syntax,
                        "Fenced code that this reading could not follow (in a list item or a quotation, or after a "
                            + "line inside an HTML block that looks like a fence) runs on here: Markdown cannot be read "
                            + "a chunk at a time from here",
                        position: position(ofByte: range.lowerBound)))
            }
            if end(ofChunk: index - 1)?.inSpoiler == true { return spoilerAcrossCut(at: range.lowerBound) }
        }
        if !isLast, end(ofChunk: index)?.inSpoiler == true { return spoilerAcrossCut(at: range.upperBound) }
        return nil
    }

    /// The message of a chunk cut inside what the scan took for fenced code, after `cut`'s
    /// line, which is no fence as the parse reads it.
    private func lostFence(_ cut: (opening: [UInt8], openedAt: Int, openerChunk: Int)) -> Message {
        let maximum = state.withLock { $0.scanner.maximumBytes }
        return failed(
            ParseError(
                .syntax,
                "This line looks like the start of fenced code, which Markdown does not read as one here (inside an "
                    + "HTML block, a list item or a quotation), and what follows runs on for more than "
                    + "\(maximum / 1024) KB: Markdown cannot be read a chunk at a time after it",
                position: position(ofByte: max(0, cut.openedAt + 1 - cut.opening.count))))
    }

    /// Whether the first line of `bytes`, a chunk's, may read alone otherwise than the whole
    /// reads it after the chunk before: indented by four or more (as code, where the whole
    /// may go on with a list item's paragraph), or starting with `<` (as an HTML block) where
    /// the chunk does not start after a blank line (the whole may have inline HTML in a
    /// paragraph).
    static func mayReadOtherwise(_ bytes: [UInt8], afterBlankLine: () -> Bool) -> Bool {
        if indentedByFour(bytes) { return true }
        let first = bytes.first { $0 != 0x20 && $0 != 0x09 }
        return first == UInt8(ascii: "<") && !afterBlankLine()
    }

    /// Whether the first line of `bytes` is indented by four or more.
    static func indentedByFour(_ bytes: some Collection<UInt8>) -> Bool {
        var indent = 0
        for b in bytes {
            if b == 0x20 {
                indent += 1
            } else if b == 0x09 {
                indent += 4 - indent % 4
            } else {
                break
            }
            if indent >= 4 { return true }
        }
        return false
    }

    /// Whether chunk `index`, which starts with a line indented by four, goes on with the
    /// indented code the chunk before ends in, as the whole reads it: each chunk back to
    /// the one before the first of them to start so ends where a line indented by four
    /// after it reads as code (``endsInIndentedCode(_:)``), that one read from a start it
    /// shares with the whole, each after it from code that goes on. (An indented code block
    /// longer than a chunk may be reads so; a list item's paragraphs, which read alone
    /// would be code, do not.)
    private func continuesIndentedCode(_ index: Int) -> Bool {
        let base = index >= Self.provisionalBase ? Self.provisionalBase : 0
        var first = index - 1
        while first > base, startsIndentedByFour(first) { first -= 1 }
        for k in first..<index where !endsInIndentedCode(k) { return false }
        return true
    }

    /// Whether chunk `index` starts with a line indented by four.
    private func startsIndentedByFour(_ index: Int) -> Bool {
        let place: Place = state.withLock { s in
            index >= Self.provisionalBase ? self.tailPlace(s, index) : self.indexedPlace(&s, index)
        }
        guard case .bytes(let range, _, _) = place else { return false }
        return Self.indentedByFour(read(range.lowerBound..<min(range.upperBound, range.lowerBound + 8)))
    }

    /// Whether a line indented by four after chunk `index`, as it parses alone, reads as
    /// code (a character of the private use area put on such a line is under a `pre`
    /// entity); found once for each chunk (``State/indentedCodeEnds``).
    func endsInIndentedCode(_ index: Int) -> Bool {
        if let known = state.withLock({ $0.indentedCodeEnds[index] }) { return known }
        var answer = false
        if let (_, isLast, prepared) = preparedAlone(index),
            let message = try? parse(
                prepared.bytes + Array("\n    \u{E000}".utf8),
                Part(isLast: isLast, reopenedBytes: prepared.reopenedBytes)),
            message.text.utf16.last == 0xE000
        {
            let last = message.text.utf16.count - 1
            answer = Self.isUnder(.pre, units: last...last, in: message)
        }
        state.withLock { $0.indentedCodeEnds[index] = answer }
        return answer
    }

    /// Whether the line before byte `offset` (a line's start) is blank.
    private func startsAfterBlankLine(_ offset: Int) -> Bool {
        let before = read(max(0, offset - 3)..<offset)
        return before.suffix(2) == [0x0A, 0x0A] || before.suffix(3) == [0x0A, 0x0D, 0x0A]
    }

    /// The message of a chunk (not one cut inside fenced code) whose first line, read alone,
    /// may read otherwise than in the whole, which reads it after the chunk before: an
    /// indented line (as code, where the whole goes on with a list item's text), or one that
    /// starts with `<` after a cut at a line break (as an HTML block, where the whole has
    /// inline HTML in a paragraph). The scanner cuts there only where a block runs on for
    /// longer than a chunk may be with no other line to cut at.
    private func lineReadOtherwise(at offset: Int) -> Message {
        let maximum = state.withLock { $0.scanner.maximumBytes }
        let size = maximum >= 1024 ? "\(maximum / 1024) KB" : "\(maximum) bytes"
        return failed(
            ParseError(
                .syntax,
                "A block runs on here for more than \(size) with no line indented by less than four to cut it at "
                    + "(an indented code block, a list item's paragraphs, lines that start with <), and this one could "
                    + "read alone otherwise than in the whole (a list item's text as code): Markdown cannot be read a "
                    + "chunk at a time here",
                position: position(ofByte: offset)))
    }

    /// The message of a chunk on either side of a cut at byte `offset` inside a spoiler.
    private func spoilerAcrossCut(at offset: Int) -> Message {
        let maximum = state.withLock { $0.scanner.maximumBytes }
        return failed(
            ParseError(
                .syntax,
                "A paragraph runs on for more than \(maximum / 1024) KB here with a spoiler across the place where "
                    + "it is cut: Markdown cannot be read a chunk at a time here",
                position: position(ofByte: offset)))
    }

    /// Markdown: where chunk `index` (of the index, or provisional in the tail) was cut
    /// inside fenced code, its opening line (with a line break), the offset of that line's
    /// line break and the index of the chunk that holds it; nil where it was not.
    func fenceCut(_ s: borrowing State, _ index: Int) -> (opening: [UInt8], openedAt: Int, openerChunk: Int)? {
        let inTail = index >= Self.provisionalBase
        guard let starts = inTail ? s.tail?.starts : s.starts,
            case .fence(let opening, let openedAt) = inTail
                ? s.tail?.openAt[index - Self.provisionalBase] : s.openAt[index]
        else { return nil }
        // The last chunk that starts at or before the opening line's line break.
        var (low, high) = (0, starts.count - 1)
        while low < high {
            let mid = (low + high + 1) / 2
            if starts[mid] <= openedAt { low = mid } else { high = mid - 1 }
        }
        return (opening, openedAt, (inTail ? Self.provisionalBase : 0) + low)
    }

    /// The place and the bytes chunk `index` is parsed as, without checking its neighbours;
    /// nil where there is no such chunk or it cannot be read.
    private func preparedAlone(_ index: Int) -> (range: Range<Int>, isLast: Bool, prepared: Prepared)? {
        let place: Place = state.withLock { s in
            index >= Self.provisionalBase ? self.tailPlace(s, index) : self.indexedPlace(&s, index)
        }
        guard case .bytes(let range, _, let isLast) = place else { return nil }
        let prepared = prepare(index, range: range, isLast: isLast, checksNeighbours: false)
        return prepared.unreadable == nil ? (range, isLast, prepared) : nil
    }

    /// Markdown: whether chunk `index`, as it parses, ends inside the code of the fence
    /// `opening` whose line break is at byte `openedAt` of the chunk: a line put after that
    /// line and one put after the chunk's end (each a character of the private use area,
    /// indented as the fence is) are under the same `pre` entity, and a line put before it
    /// is not (the line opened that code: it is not a line inside code opened before it, by
    /// another fence). (A line the scan took for a fence and the parse did not, one inside
    /// an HTML block, a list item or a quotation, puts neither in code, or the first outside
    /// the code open at the end.) Not where the chunk itself may not read alone as in the
    /// whole (``readsInStep(_:)``). Found once for each fence (``State/fenceHolds``).
    func fenceHolds(chunk index: Int, openedAt: Int, opening: [UInt8]) -> Bool {
        if let known = state.withLock({ $0.fenceHolds[openedAt] }) { return known }
        var answer = false
        if readsInStep(index), let (range, isLast, prepared) = preparedAlone(index), range.contains(openedAt) {
            var bytes = prepared.bytes
            let after = prepared.reopenedBytes + openedAt + 1 - range.lowerBound
            let indentation = Array(opening.prefix { $0 == 0x20 || $0 == 0x09 })
            if after <= bytes.count && after > 0 {
                // The opening line's start: a line put before it must stay out of the code.
                var lineStart = after - 1
                while lineStart > 0 && bytes[lineStart - 1] != 0x0A { lineStart -= 1 }
                bytes.insert(contentsOf: indentation + Array("\u{E001}\n".utf8), at: after)
                bytes.insert(contentsOf: indentation + Array("\u{E003}\n".utf8), at: lineStart)
                bytes += [0x0A] + indentation + Array("\u{E000}".utf8)
                if let message = try? parse(bytes, Part(isLast: isLast, reopenedBytes: prepared.reopenedBytes)) {
                    let text = Array(message.text.utf16)
                    if let before = text.firstIndex(of: 0xE003), let first = text.firstIndex(of: 0xE001),
                        before < first, text.last == 0xE000
                    {
                        answer =
                            Self.isUnder(.pre, units: first...(text.count - 1), in: message)
                            && !Self.isUnder(.pre, units: before...first, in: message)
                    }
                }
            }
        }
        state.withLock { $0.fenceHolds[openedAt] = answer }
        return answer
    }

    /// Markdown: whether chunk `index`, as it is parsed, starts where the scan and the parse
    /// agree: the first (of the document, or of its end found from the end); one cut inside
    /// fenced code that holds (``fenceHolds(chunk:openedAt:opening:)``); any other after a
    /// chunk that does not end inside code as it parses and itself reads in step.
    ///
    /// Where the chunk before starts ahead of the scan's first doubtful line
    /// (``ChunkBoundaryScanner/firstDoubt``), the scan followed every fence before it as
    /// Markdown does, and it reads in step. Past that line, that is asked of the chunks
    /// before in turn, back to one known: a chunk read alone after a line the scan took
    /// other than Markdown does can end outside code where the whole is inside it (and the
    /// next chunk's text be code), so each answer rests on the one before. Answers are
    /// kept (``State/inStep``); the chunks of the end found from the end are asked of those
    /// before them in the tail only.
    func readsInStep(_ index: Int) -> Bool {
        if index == 0 || index == Self.provisionalBase { return true }
        if index > Self.provisionalBase { return readsInStepAlone(index) }
        // Back to a chunk whose answer is known or rests on no chunk before it.
        var first = index
        while state.withLock({ s in s.inStep[first] == nil && !startsExactly(s, first) }) { first -= 1 }
        for k in first...index where state.withLock({ $0.inStep[k] }) == nil {
            // (Where the chunk's start rests on the chunk before, that one must read in step.)
            let restsOnBefore = !state.withLock { s in startsExactly(s, k) }
            let beforeInStep = !restsOnBefore || state.withLock { $0.inStep[k - 1] } == true
            let answer = beforeInStep && readsInStepAlone(k)
            state.withLock { $0.inStep[k] = answer }
        }
        return state.withLock { $0.inStep[index] } ?? false
    }

    /// Whether the scan's view of where indexed chunk `index` starts rests on no chunk
    /// before it: the first chunk, one cut inside fenced code (whose fence is checked on its
    /// own), or one after a chunk that starts ahead of the scan's first doubtful line.
    private func startsExactly(_ s: borrowing State, _ index: Int) -> Bool {
        guard index > 0, index < s.starts.count else { return true }
        if case .fence = s.openAt[index] { return true }
        guard let doubt = s.scanner.firstDoubt else { return true }
        return s.starts[index - 1] <= doubt
    }

    /// ``readsInStep(_:)`` from the chunk before alone: a fence cut whose fence holds, or a
    /// chunk after one that does not end inside code as it parses.
    private func readsInStepAlone(_ index: Int) -> Bool {
        if index == 0 || index == Self.provisionalBase { return true }
        if let cut = state.withLock({ s in fenceCut(s, index) }) {
            return fenceHolds(chunk: cut.openerChunk, openedAt: cut.openedAt, opening: cut.opening)
        }
        return end(ofChunk: index - 1)?.inCode == false
    }

    /// Markdown: how chunk `index` ends as it parses (nil where it cannot be read), found
    /// once for each chunk (``State/chunkEnds``): inside fenced code where a line put after
    /// it, indented by three spaces (so that it goes on with code in a list item, and ends
    /// code indented by four), is under a `pre` entity; inside a spoiler where a `||` put
    /// after its last character closes one. (Only a chunk cut at a line break rather than
    /// after a blank line can end inside a spoiler, and only such a chunk is parsed for it.)
    func end(ofChunk index: Int) -> ChunkEnd? {
        if let known = state.withLock({ $0.chunkEnds[index] }) { return known }
        guard let (_, isLast, prepared) = preparedAlone(index) else { return nil }
        let part = Part(isLast: isLast, reopenedBytes: prepared.reopenedBytes)
        var end = ChunkEnd()
        let code = prepared.bytes + Array("\n   \u{E000}".utf8)
        if let message = try? parse(code, part), message.text.utf16.last == 0xE000 {
            let last = message.text.utf16.count - 1
            end.inCode = Self.isUnder(.pre, units: last...last, in: message)
        }
        // Cut after a blank line, or not: the chunk's bytes, parsed without their last line
        // break, still end with one.
        let afterBlankLine = prepared.bytes.last == 0x0A
        if !isLast && !afterBlankLine && !end.inCode,
            let message = try? parse(prepared.bytes + Array("\u{E002}||".utf8), part),
            let marker = Array(message.text.utf16).lastIndex(of: 0xE002)
        {
            end.inSpoiler = Self.isUnder(.spoiler, units: marker...marker, in: message)
        }
        state.withLock { $0.chunkEnds[index] = end }
        return end
    }

    /// Whether one entity of `type` in `message` covers all of the UTF-16 `units`.
    private static func isUnder(_ type: EntityType, units: ClosedRange<Int>, in message: Message) -> Bool {
        message.entities.contains {
            $0.type == type && $0.offset <= units.lowerBound && units.upperBound < $0.offset + $0.length
        }
    }
}
