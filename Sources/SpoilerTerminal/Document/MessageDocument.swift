import Glibc
public import SpoilerCore

/// A ``ReaderDocument`` over one long message already parsed: its text cut into chunks of a
/// few kilobytes after line breaks, each with the entities over it, so that a view lays out
/// and animates only the chunks near the screen, whatever the message's length.
///
/// A chunk ends at the first line break after ``minimumBytes`` (the break itself is what the
/// view's ``separator`` shows between two chunks, so the rows are the whole message's). A
/// run of more than ``maximumBytes`` without a line break is cut after a space (which then
/// starts a new row), else between two characters. An entity over a cut is cut with it: a
/// hidden part on both sides of one is two hidden parts, revealed one at a time.
///
/// The chunks' starts are found when the document is made, in one pass over the text
/// (about 2 bytes of index per kilobyte); a chunk's message is made when it is asked for.
///
/// ```swift
/// let document = MessageDocument(message)
/// let view = SpoilerTerminalView(document: document, size: size, options: options,
///                                layout: layout, scene: scene)
/// ```
public final class MessageDocument: ReaderDocument {
    /// The message.
    public let message: Message
    /// The least length of a chunk in UTF-8 bytes (the last may be shorter).
    public let minimumBytes: Int
    /// The length after which a chunk is cut without a line break, in UTF-8 bytes.
    public let maximumBytes: Int
    public let byteCount: Int
    /// A line break: chunks are cut after one, which the view shows between them.
    public let separator = "\n"
    /// True: a reveal of scope `message` reveals every chunk.
    public var isOneMessage: Bool { true }
    /// Each chunk's UTF-8 and UTF-16 start and end in the text (the end before the line
    /// break it was cut after).
    private let bounds: [Bounds]
    /// The message's entities by offset, and the furthest end among each one and those
    /// before it.
    private let sortedEntities: [Entity]
    private let reach: [Int]

    private struct Bounds {
        var utf8: Range<Int>
        var utf16: Range<Int>
    }

    /// A document over `message`, in chunks of at least `minimumBytes` and, without a line
    /// break, at most about `maximumBytes`.
    public init(_ message: Message, minimumBytes: Int = 4096, maximumBytes: Int = 65536) {
        var message = message
        message.text.makeContiguousUTF8()
        self.message = message
        let minimum = max(1, minimumBytes)
        let maximum = max(minimum, maximumBytes)
        self.minimumBytes = minimum
        self.maximumBytes = maximum
        let text = message.text
        byteCount = text.utf8.count
        bounds =
            text.utf8.withContiguousStorageIfAvailable {
                Self.cut($0, minimumBytes: minimum, maximumBytes: maximum, text: text)
            }
            ?? Array(text.utf8).withUnsafeBufferPointer {
                Self.cut($0, minimumBytes: minimum, maximumBytes: maximum, text: text)
            }
        var entities = message.entities
        if !entities.indices.dropFirst().allSatisfy({ entities[$0 - 1].offset <= entities[$0].offset }) {
            entities.sort { $0.offset < $1.offset }
        }
        sortedEntities = entities
        var furthest = 0
        reach = entities.map { e in
            furthest = max(furthest, e.offset + e.length)
            return furthest
        }
    }

    /// The chunks' bounds of a text of `bytes`.
    private static func cut(
        _ bytes: UnsafeBufferPointer<UInt8>, minimumBytes: Int, maximumBytes: Int, text: String
    ) -> [Bounds] {
        var out: [Bounds] = []
        var start = 0
        var start16 = 0
        let n = bytes.count
        while true {
            var end = n
            var next = n
            if n - start > minimumBytes {
                let limit = min(n, start + maximumBytes)
                if let lf = firstLineBreak(bytes, from: start + minimumBytes - 1, before: limit) {
                    end = lf > start && bytes[lf - 1] == 0x0D ? lf - 1 : lf
                    next = lf + 1
                } else if limit < n {
                    end = breakBefore(bytes, limit: limit, after: start, text: text)
                    next = end
                }
            }
            let end16 = start16 + utf16Count(text, start..<end)
            out.append(Bounds(utf8: start..<end, utf16: start16..<end16))
            // A line break at the very end still starts an (empty) last row.
            if end == n { return out }
            start16 = end16 + utf16Count(text, end..<next)
            start = next
        }
    }

    /// The first line break in `bytes[from..<before]`.
    private static func firstLineBreak(_ bytes: UnsafeBufferPointer<UInt8>, from: Int, before: Int) -> Int? {
        guard before > from, let base = bytes.baseAddress, let hit = memchr(base + from, 0x0A, before - from) else {
            return nil
        }
        return UnsafeRawPointer(base).distance(to: UnsafeRawPointer(hit))
    }

    /// Where to cut a run without a line break before `limit` (and after `after`): after
    /// the last space followed by an ASCII character, else between the last two ASCII
    /// characters, else at the last character boundary.
    private static func breakBefore(_ bytes: UnsafeBufferPointer<UInt8>, limit: Int, after: Int, text: String) -> Int {
        var i = limit - 1
        while i > after {
            if bytes[i - 1] == 0x20 && bytes[i] < 0x80 { return i }
            i -= 1
        }
        i = limit - 1
        while i > after {
            if bytes[i - 1] < 0x80 && bytes[i - 1] != 0x0D && bytes[i] < 0x80 { return i }
            i -= 1
        }
        // No ASCII: the last character boundary, from the chunk's start (one).
        let utf8 = text.utf8
        var last = after
        var index = utf8.index(utf8.startIndex, offsetBy: after)
        while index < text.endIndex {
            index = text.index(after: index)
            let offset = utf8.distance(from: utf8.startIndex, to: index)
            if offset > limit { break }
            last = offset
        }
        return last > after ? last : min(limit, bytes.count)
    }

    /// The UTF-16 code units of `text`'s UTF-8 `range` (on scalar boundaries).
    private static func utf16Count(_ text: String, _ range: Range<Int>) -> Int {
        let utf8 = text.utf8
        let from = utf8.index(utf8.startIndex, offsetBy: range.lowerBound)
        return text.utf16.distance(from: from, to: utf8.index(from, offsetBy: range.count))
    }

    public var chunkCount: Int { bounds.count }

    public func chunk(at index: Int) -> ReaderChunk? {
        guard bounds.indices.contains(index) else { return nil }
        let b = bounds[index]
        let utf8 = message.text.utf8
        let from = utf8.index(utf8.startIndex, offsetBy: b.utf8.lowerBound)
        let to = utf8.index(from, offsetBy: b.utf8.count)
        let text = String(message.text[from..<to])
        return ReaderChunk(bytes: b.utf8, message: Message(text: text, entities: entities(in: b.utf16)))
    }

    /// The entities over the UTF-16 `range`, cut to it and counted from its start.
    private func entities(in range: Range<Int>) -> [Entity] {
        // The first entity at or after the range's end.
        var low = 0
        var high = sortedEntities.count
        while low < high {
            let mid = (low + high) / 2
            if sortedEntities[mid].offset < range.upperBound { low = mid + 1 } else { high = mid }
        }
        var found: [Entity] = []
        var j = low - 1
        while j >= 0 && reach[j] > range.lowerBound {
            var e = sortedEntities[j]
            let end = min(e.offset + e.length, range.upperBound)
            let start = max(e.offset, range.lowerBound)
            if end > start {
                e.offset = start - range.lowerBound
                e.length = end - start
                found.append(e)
            }
            j -= 1
        }
        return found.reversed()
    }
}
