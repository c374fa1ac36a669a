public import SpoilerCore

/// A Telegram Desktop export (`--from export`) as one message to read: each message of
/// the chat under a line with its sender and date, a blank line between messages.
///
/// ```
/// Ana · 2026-11-01 19:01
/// Just finished it. No spoilers please!
///
/// Bo · 2026-11-01 19:02
/// Ok but the ending 🎬 ⣿⣿⣿ …
/// ```
///
/// A message's entities (its spoilers among them) keep their place in the log; the
/// sender line is bold. A message without text (a photo without a caption) reads
/// `[no text]`; one that could not be read gives its reason in brackets, and the rest of
/// the chat still reads.
///
/// Feed it the items of an ``ExportReader`` as they come, or read a whole export at once
/// with ``init(export:)``:
///
/// ```swift
/// let log = try ChatLog(export: Array(resultJSON.utf8)).message
/// ```
public struct ChatLog: Sendable, Hashable {
    /// The log's text so far.
    public private(set) var text = ""
    /// The log's entities so far (offsets in UTF-16 code units of ``text``).
    public private(set) var entities: [Entity] = []
    private var utf16Count = 0
    /// Messages appended so far.
    public private(set) var count = 0

    /// An empty log.
    public init() {}

    /// The log of a whole Telegram Desktop export (`result.json`).
    ///
    /// - Parameter export: The export's bytes.
    /// - Throws: ``ParseError`` for a JSON syntax error, with its line and column; a message
    ///   that cannot be read only gets a note in the log.
    public init(export: [UInt8]) throws(ParseError) {
        let reader = ExportReader()
        var items: [ExportItem] = []
        try reader.feed(export, into: &items)
        try reader.finish(into: &items)
        for item in items { append(item) }
    }

    /// The log as a message, entities in canonical order.
    public var message: Message { Message(text: text, entities: entities) }

    /// Appends one message of the export: its sender and date line, then its text.
    ///
    /// - Parameter item: The next message, as ``ExportReader`` gives it.
    public mutating func append(_ item: ExportItem) {
        if count > 0 { add("\n\n") }
        count += 1
        var header = item.sender ?? "message \(item.id ?? String(item.index))"
        if let date = item.date { header += " · " + ChatLog.readable(date: date) }
        entities.append(Entity(.bold, offset: utf16Count, length: header.utf16.count))
        add(header + "\n")
        switch item.result {
        case .success(let m) where m.text.isEmpty:
            add("[no text]")
        case .success(let m):
            for var e in m.entities {
                e.offset += utf16Count
                entities.append(e)
            }
            add(m.text)
        case .failure(let error):
            add("[could not be read: \(error)]")
        }
    }

    private mutating func add(_ s: String) {
        text += s
        utf16Count += s.utf16.count
    }

    /// `2026-11-01T19:01:10` as `2026-11-01 19:01`; anything else as it is.
    ///
    /// - Parameter date: An export's `date`.
    /// - Returns: The date as the log shows it.
    public static func readable(date: String) -> String {
        let u = Array(date.utf8)
        guard u.count == 19, u[10] == UInt8(ascii: "T"), u[13] == UInt8(ascii: ":"), u[16] == UInt8(ascii: ":")
        else { return date }
        return String(decoding: u[0..<10], as: UTF8.self) + " " + String(decoding: u[11..<16], as: UTF8.self)
    }
}
