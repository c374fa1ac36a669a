import SpoilerCore

/// Reads the messages of a Telegram Desktop export (`result.json`) as a stream.
///
/// Not yet written.
public struct ExportReader {
    public init() {}
}
