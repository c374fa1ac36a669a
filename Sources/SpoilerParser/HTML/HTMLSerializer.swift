import SpoilerCore

/// Writes a ``Message`` as Telegram HTML that ``HTMLParser`` (and TDLib) read back as the same
/// message.
///
/// Text is escaped (`&lt; &gt; &amp; &quot;`); entities become `<b> <i> <u> <s> <tg-spoiler>
/// <code> <pre> <pre><code class="language-…"> <blockquote> <blockquote expandable>
/// <a href="…"> <tg-emoji emoji-id="…"> <tg-time unix="…" format="…">`. Tags nest in any
/// way HTML allows, so every combination of these entities round-trips, with these limits:
/// - Entities that cross each other are split where they cross (`<b>a<i>b</i></b><i>c</i>`),
///   so the message reads back with more, shorter entities covering the same text.
/// - Entities Telegram finds by itself (`mention`, `hashtag`, `cashtag`, `bot_command`,
///   `url`, `email`, `phone_number`, `bank_card`) have no tag and are left out, as are
///   entities outside the text or splitting a surrogate pair, a `text_link` without URL, a
///   `text_mention` whose user id TDLib would not accept, a `custom_emoji` whose id is not a
///   non-zero 64-bit integer and a `date_time` whose Unix time is not in 1...2^31−1.
/// - A `date_time` format TDLib does not accept (see `TelegramLink.dateFlags(_:)`) is left
///   out of the tag.
///
/// - Complexity: O(n + k log k + k·d) for n UTF-16 units and k entities nested d deep.
public enum HTMLSerializer {
    /// `message` written as Telegram HTML.
    ///
    /// - Parameter message: The message to write.
    /// - Returns: The markup.
    public static func serialize(_ message: Message) -> String {
        var out = MarkupOutput()
        write(message, to: &out)
        return out.string
    }

    /// `message` written as Telegram HTML a piece at a time, so that long markup is never
    /// held whole.
    ///
    /// ```swift
    /// HTMLSerializer.serialize(message) { piece in send(piece) }
    /// ```
    ///
    /// - Parameters:
    ///   - message: The message to write.
    ///   - write: Called with the markup's UTF-8 bytes in order, in pieces of about 64 KB
    ///     (the last one shorter); their concatenation is ``serialize(_:)``'s result.
    public static func serialize(_ message: Message, write: ([UInt8]) -> Void) {
        withoutActuallyEscaping(write) { write in
            var out = MarkupOutput(write: write)
            self.write(message, to: &out)
            out.passOn()
        }
    }

    /// Writes `message`'s markup to `out`, walking the text once with the nesting's events.
    static func write(_ message: Message, to out: inout MarkupOutput) {
        let entities = EntityNesting.validEntities(of: message).keepingAll(where: isWritable)
        var text = ScalarCursor(message.text)
        EntityNesting.forEachEvent(entities, textLength: message.utf16Length, rank: rank) { event in
            switch event {
            case .text(_, let end):
                text.forEach(to: end) { scalar, _ in appendEscaped(scalar, to: &out) }
            case .open(let piece):
                out += openTag(piece.entity)
            case .close(let piece):
                out += closeTag(piece.entity)
            }
        }
    }

    /// Nesting order of entities with the same range (lower is outer): a `pre` goes outside
    /// a `code`, so that `<pre><code>` reads back as both.
    static func rank(_ e: Entity) -> Int {
        switch e.type {
        case .blockquote, .expandableBlockquote: 0
        case .bold: 10
        case .italic: 11
        case .underline: 12
        case .strikethrough: 13
        case .spoiler: 14
        case .textLink, .textMention, .customEmoji, .dateTime: 20
        case .pre: 30
        case .code: 40
        default: 50
        }
    }

    static func isWritable(_ e: Entity) -> Bool {
        switch e.type {
        case .bold, .italic, .underline, .strikethrough, .spoiler, .code, .pre, .blockquote, .expandableBlockquote:
            return true
        case .textLink:
            return !(e.url ?? "").isEmpty
        case .textMention:
            guard let id = e.userID else { return false }
            return id > 0 && id <= TelegramLink.maxUserID
        case .customEmoji:
            guard let id = e.customEmojiID.flatMap({ TDLibText.canonicalInt64($0.utf8) }) else { return false }
            return id != 0
        case .dateTime:
            guard let t = e.unixTime else { return false }
            return t > 0 && t <= Int64(Int32.max)
        default:
            return false
        }
    }

    static func appendEscaped(_ scalar: Unicode.Scalar, to out: inout String) {
        switch scalar {
        case "<": out += "&lt;"
        case ">": out += "&gt;"
        case "&": out += "&amp;"
        case "\"": out += "&quot;"
        default: out.unicodeScalars.append(scalar)
        }
    }

    static func appendEscaped(_ scalar: Unicode.Scalar, to out: inout MarkupOutput) {
        switch scalar {
        case "<": out += "&lt;"
        case ">": out += "&gt;"
        case "&": out += "&amp;"
        case "\"": out += "&quot;"
        default: out.append(scalar)
        }
    }

    static func attribute(_ value: String) -> String {
        var out = "\""
        for scalar in value.unicodeScalars { appendEscaped(scalar, to: &out) }
        return out + "\""
    }

    static func openTag(_ e: Entity) -> String {
        switch e.type {
        case .bold: return "<b>"
        case .italic: return "<i>"
        case .underline: return "<u>"
        case .strikethrough: return "<s>"
        case .spoiler: return "<tg-spoiler>"
        case .code: return "<code>"
        case .pre:
            if let language = e.language, !language.isEmpty {
                return "<pre><code class=" + attribute("language-" + language) + ">"
            }
            return "<pre>"
        case .blockquote: return "<blockquote>"
        case .expandableBlockquote: return "<blockquote expandable>"
        case .textLink: return "<a href=" + attribute(e.url ?? "") + ">"
        case .textMention: return "<a href=\"tg://user?id=\(e.userID ?? 0)\">"
        case .customEmoji: return "<tg-emoji emoji-id=" + attribute(e.customEmojiID ?? "") + ">"
        case .dateTime:
            var tag = "<tg-time unix=\"\(e.unixTime ?? 0)\""
            if let format = dateFormat(of: e), !format.isEmpty { tag += " format=" + attribute(format) }
            return tag + ">"
        default: return ""
        }
    }

    static func closeTag(_ e: Entity) -> String {
        switch e.type {
        case .bold: return "</b>"
        case .italic: return "</i>"
        case .underline: return "</u>"
        case .strikethrough: return "</s>"
        case .spoiler: return "</tg-spoiler>"
        case .code: return "</code>"
        case .pre: return (e.language ?? "").isEmpty ? "</pre>" : "</code></pre>"
        case .blockquote, .expandableBlockquote: return "</blockquote>"
        case .textLink, .textMention: return "</a>"
        case .customEmoji: return "</tg-emoji>"
        case .dateTime: return "</tg-time>"
        default: return ""
        }
    }

    /// The format letters of a `date_time` entity that give back its TDLib date flags: `r`,
    /// or one letter per flag (`t T d D w`); nil when it has no valid format.
    static func dateFormat(of e: Entity) -> String? {
        let flags = e.tdlibDateFlags ?? e.dateTimeFormat.flatMap { TelegramLink.dateFlags($0.utf8) } ?? 0
        if flags == 1 { return "r" }
        if flags & ~62 != 0 { return nil }
        var s = ""
        if flags & 2 != 0 { s += "t" }
        if flags & 4 != 0 { s += "T" }
        if flags & 8 != 0 { s += "d" }
        if flags & 16 != 0 { s += "D" }
        if flags & 32 != 0 { s += "w" }
        return s
    }
}
