public import SpoilerCore

/// Why an input could not be turned into a ``Message``.
///
/// `reason` is the whole sentence shown to a user. For MarkdownV2 and HTML it is worded as
/// TDLib words it, byte offset included ("Can't find end of Spoiler entity at byte offset 6").
public struct ParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The broad class of failure.
    public enum Kind: String, Sendable, Hashable {
        /// The input is not valid UTF-8.
        case invalidUTF8
        /// The markup is malformed (an unclosed entity, a bad tag, …).
        case syntax
        /// A given entity is out of range, splits a surrogate pair, or is unknown.
        case invalidEntity
        /// The JSON input is malformed or has the wrong shape.
        case invalidJSON
        /// The format cannot be parsed this way (e.g. a whole export as one message).
        case unsupported
    }

    /// The broad class of failure.
    public var kind: Kind
    /// The full sentence for the user.
    public var reason: String
    /// Where in the input, when known.
    public var position: TextPosition?

    /// An error of the broad class `kind`, with `reason` as the full sentence the user reads
    /// and, when known, the `position` in the input it points at (nil when it has no place).
    public init(_ kind: Kind, _ reason: String, position: TextPosition? = nil) {
        self.kind = kind
        self.reason = reason
        self.position = position
    }

    public var description: String { reason }

    /// The error for invalid UTF-8 at byte `offset` of `bytes`.
    public static func invalidUTF8(at offset: Int, in bytes: some Collection<UInt8>) -> ParseError {
        ParseError(
            .invalidUTF8, "Invalid UTF-8 at byte offset \(offset)",
            position: TextPosition(utf8Offset: offset, in: bytes))
    }

    /// `bytes` when they are valid UTF-8.
    ///
    /// - Throws: ``invalidUTF8(at:in:)`` at the first invalid sequence.
    static func checkedUTF8(_ bytes: [UInt8]) throws(ParseError) -> [UInt8] {
        if let bad = UTF8Validation.firstInvalidOffset(in: bytes) { throw invalidUTF8(at: bad, in: bytes) }
        return bytes
    }

    /// The error for a JSON syntax error: `invalid JSON: reason`, the place in `position`
    /// only (``located(in:)`` words it `name:line:column: invalid JSON: reason`), so that
    /// a message names one position, not two.
    public init(_ json: JSONError) {
        self.init(.invalidJSON, "invalid JSON: \(json.reason)", position: json.position)
    }

    /// Parses `bytes` as one JSON value, a syntax error becoming ``ParseError/init(_:)``.
    public static func parsingJSON(_ bytes: [UInt8]) throws(ParseError) -> JSONValue {
        do {
            return try JSONValue.parse(bytes)
        } catch {
            throw ParseError(error)
        }
    }
}
