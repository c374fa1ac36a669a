/// A walk over a text's Unicode scalars by UTF-16 offset, for the serializers that write
/// the text between entity boundaries from start to end: it holds one index, where a table
/// of every scalar would hold 12 bytes per character.
struct ScalarCursor {
    private let scalars: String.UnicodeScalarView
    private var index: String.UnicodeScalarView.Index
    /// The UTF-16 offset of the next scalar.
    private(set) var offset = 0

    init(_ text: String) {
        scalars = text.unicodeScalars
        index = scalars.startIndex
    }

    /// Calls `body` with each scalar from the current offset up to UTF-16 offset `end`,
    /// and with its offset, and moves there.
    mutating func forEach(to end: Int, _ body: (Unicode.Scalar, Int) -> Void) {
        while offset < end && index < scalars.endIndex {
            let scalar = scalars[index]
            body(scalar, offset)
            index = scalars.index(after: index)
            offset += scalar.utf16.count
        }
    }
}
