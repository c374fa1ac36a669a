extension Entity {
    /// Writes the entity as a Bot API `MessageEntity` object: `type`, `offset`, `length`,
    /// then whichever of `url`, `language`, `custom_emoji_id`, `user_id`, `unix_time`,
    /// `tdlib_date_flags`, `date_time_format` and (for a spoiler) `reason` are set.
    public func write(to w: inout JSONWriter) {
        w.object { w in
            w.key("type"); w.string(type.rawValue)
            w.key("offset"); w.number(offset)
            w.key("length"); w.number(length)
            if let url { w.key("url"); w.string(url) }
            if let language { w.key("language"); w.string(language) }
            if let customEmojiID { w.key("custom_emoji_id"); w.string(customEmojiID) }
            if let userID { w.key("user_id"); w.number(userID) }
            if let unixTime { w.key("unix_time"); w.number(unixTime) }
            if let tdlibDateFlags { w.key("tdlib_date_flags"); w.number(tdlibDateFlags) }
            if let dateTimeFormat { w.key("date_time_format"); w.string(dateTimeFormat) }
            if let reason { w.key("reason"); w.string(reason) }
        }
    }
}

extension Message {
    /// Writes `{"text": …, "entities": […]}`; `id`, when given, is written first as raw
    /// JSON (a number or a quoted string, as it came in).
    public func write(to w: inout JSONWriter, id: [UInt8]? = nil) {
        w.object { w in
            if let id { w.key("id"); w.raw(id) }
            w.key("text"); w.string(text)
            w.key("entities")
            w.array { w in for e in entities { e.write(to: &w) } }
        }
    }

    /// The message as compact JSON: `{"text":…,"entities":[…]}`.
    public var jsonString: String {
        var w = JSONWriter()
        write(to: &w)
        return w.string
    }
}
