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
}
