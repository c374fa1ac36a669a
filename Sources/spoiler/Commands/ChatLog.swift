import SpoilerCore
import SpoilerParser

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
struct ChatLog {
    /// The log so far.
    private(set) var text = ""
    private(set) var entities: [Entity] = []
    private var utf16Count = 0
    /// Messages appended so far.
    private(set) var count = 0

    /// The log as a message, entities in canonical order.
    var message: Message { Message(text: text, entities: entities) }

    /// Appends one message of the export.
    mutating func append(_ item: ExportItem) {
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
    static func readable(date: String) -> String {
        let u = Array(date.utf8)
        guard u.count == 19, u[10] == UInt8(ascii: "T"), u[13] == UInt8(ascii: ":"), u[16] == UInt8(ascii: ":")
        else { return date }
        return String(decoding: u[0..<10], as: UTF8.self) + " " + String(decoding: u[11..<16], as: UTF8.self)
    }
}
