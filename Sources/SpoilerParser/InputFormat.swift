/// The markup an input message is written in (`--from`).
public enum InputFormat: String, Sendable, Hashable, CaseIterable {
    /// Chat text with `||spoiler||` and code between backticks (the default).
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
    /// A Matrix `m.room.message` content object, read from its `formatted_body` HTML.
    case matrix
    /// Discord's markdown, with `||spoiler||`.
    case discord
    /// Reddit's Markdown, with `>!spoiler!<`.
    case reddit
    /// signal-cli's JSON: `{"message": …, "textStyles": [{"style", "start", "length"}]}`.
    case signal
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
    /// Plain chat text keeping `||spoiler||` and code between backticks, escaped so that
    /// `--from plain` reads it back as the same message.
    case plainMarkup = "plain-markup"
    /// A Matrix `m.room.message` content object; its `body` never holds a spoiler's text.
    case matrix
    /// Discord's markdown; a spoiler's reason is written before it, `(reason) ||text||`.
    case discord
    /// Reddit's Markdown, with `>!spoiler!<`.
    case reddit
    /// signal-cli's JSON, with body ranges of style `SPOILER`.
    case signal
    /// Slack mrkdwn, which has no spoilers: each is the preview mask.
    case slack
    /// Plain text for notifications, chat lists and reply quotes: every spoiler a mask
    /// that reveals nothing of it.
    case preview
}
