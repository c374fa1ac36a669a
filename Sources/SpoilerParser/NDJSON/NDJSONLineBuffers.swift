import SpoilerCore

/// Room reused from line to line by ``NDJSONRecord/withPlainMessage(line:format:options:buffers:_:)``:
/// the line's text with its JSON escapes decoded, the text with its markup taken out, and
/// the entities. Each grows to the longest line seen and is then kept, so that reading a
/// line allocates nothing.
///
/// ```swift
/// var buffers = NDJSONLineBuffers()
/// for line in lines {
///     line.withUnsafeBufferPointer { line in
///         NDJSONRecord.withPlainMessage(line: line, format: .plain, buffers: &buffers) { text, entities, id in
///             entities.count
///         }
///     }
/// }
/// ```
public struct NDJSONLineBuffers: Sendable {
    /// The text with its JSON escapes decoded.
    var decoded: [UInt8] = []
    /// The parsed text; its `count` is the room, not the text's length.
    var text: [UInt8] = []
    /// The entities of the last line.
    var entities: [Entity] = []

    /// Empty buffers; they allocate on first use.
    public init() {}

    /// Calls `body` with the room for a parsed text, at least `count` bytes (grown
    /// geometrically, never filled again), and the entities, emptied; both are put back
    /// afterwards, kept for the next line.
    @inline(__always)
    mutating func withTextRoom<R>(_ count: Int, _ body: (inout [UInt8], inout [Entity]) -> R) -> R {
        var out: [UInt8] = []
        var entities: [Entity] = []
        swap(&out, &text)
        swap(&entities, &self.entities)
        defer {
            swap(&out, &text)
            swap(&entities, &self.entities)
        }
        if out.count < count {
            out.append(contentsOf: repeatElement(0, count: max(count, 2 * out.count) - out.count))
        }
        NDJSONLineBuffers.empty(&entities)
        return body(&out, &entities)
    }

    /// Empties `entities`, keeping its room: one `removeLast()` each, which for the few
    /// entities of a line costs a fraction of `removeAll(keepingCapacity:)` (a generic
    /// `replaceSubrange` and a destroy through the value witnesses).
    @inline(__always)
    static func empty(_ entities: inout [Entity]) {
        while !entities.isEmpty { entities.removeLast() }
    }
}
