import SpoilerCore

/// Writes a ``Message`` as Reddit Markdown (`--to reddit`): the Markdown writer's output
/// (see `--to markdown`) with spoilers as `>!text!<`, trimmed of surrounding whitespace
/// (Reddit shows a spoiler that starts or ends with a space as text), and `<`, `>`, `!`-free
/// escapes so that `>!` and `!<` in text stay text (`\>!`, `!\<`).
///
/// Reddit cannot say underline, spoiler reasons, or the other things Markdown cannot say;
/// those are left out as for `--to markdown`.
enum RedditSerializer {
    static func serialize(_ message: Message) -> String {
        MarkdownSerializer.serialize(message, spoilerOpen: ">!", spoilerClose: "!<")
    }
}
