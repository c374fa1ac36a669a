/// The markup an input message is written in (`--from`).
public enum InputFormat: String, Sendable, Hashable, CaseIterable {
    /// Chat text with `||spoiler||` and `` `code` `` (the default).
    case plain
    /// Telegram Bot API MarkdownV2, with TDLib's semantics.
    case markdownV2 = "markdownv2"
    /// Telegram's HTML subset, with TDLib's semantics.
    case html
    /// CommonMark and GitHub Flavored Markdown through libcmark-gfm, with `||spoiler||`.
    case markdown
    /// Bot API JSON: `{"text", "entities"}` or a Message (`text`/`caption`).
    case botAPI = "botapi"
    /// A Telegram Desktop export (`result.json`); read as a stream of messages.
    case export
}

/// The markup a message is written out in (`--to`).
public enum OutputFormat: String, Sendable, Hashable, CaseIterable {
    /// The Message as JSON: `{"text", "entities"}`.
    case json
    /// Telegram Bot API MarkdownV2, escaped so that parsing it back gives the same Message.
    case markdownV2 = "markdownv2"
    /// Telegram's HTML subset.
    case html
    /// CommonMark/GFM with `||spoiler||`.
    case markdown
    /// The text alone.
    case plain
    /// Plain chat text keeping `||spoiler||` and `` `code` ``, escaped so that
    /// `--from plain` reads it back as the same message.
    case plainMarkup = "plain-markup"
}
