/// cmark-gfm's parse and render options, as the `cmark-gfm` program's flags name them.
///
/// The same options are given to the parser and to the renderer, as the program does.
/// ``default`` is `--validate-utf8` alone: invalid UTF-8 becomes U+FFFD, so every output
/// is valid UTF-8.
public struct MarkdownOptions: OptionSet, Sendable, Hashable {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// `--sourcepos`: a `data-sourcepos` attribute on HTML block elements.
    public static let sourcePositions = MarkdownOptions(rawValue: 1 << 1)
    /// `--hardbreaks`: soft line breaks render as hard ones.
    public static let hardBreaks = MarkdownOptions(rawValue: 1 << 2)
    /// `--nobreaks`: soft line breaks render as spaces.
    public static let noBreaks = MarkdownOptions(rawValue: 1 << 4)
    /// `--validate-utf8`: invalid UTF-8 sequences are replaced with U+FFFD.
    public static let validateUTF8 = MarkdownOptions(rawValue: 1 << 9)
    /// `--smart`: typographic quotes, dashes and ellipses.
    public static let smart = MarkdownOptions(rawValue: 1 << 10)
    /// `--github-pre-lang`: `<pre lang="x">` for fenced code.
    public static let githubPreLang = MarkdownOptions(rawValue: 1 << 11)
    /// `--strikethrough-double-tilde`: only `~~` makes strikethrough.
    public static let strikethroughDoubleTilde = MarkdownOptions(rawValue: 1 << 14)
    /// `--table-prefer-style-attributes`: table alignment as `style` attributes.
    public static let tablePreferStyleAttributes = MarkdownOptions(rawValue: 1 << 15)
    /// `--full-info-string`: the rest of a code fence's info string as `data-meta`.
    public static let fullInfoString = MarkdownOptions(rawValue: 1 << 16)
    /// `--unsafe`: raw HTML and dangerous URLs are kept.
    public static let unsafe = MarkdownOptions(rawValue: 1 << 17)

    /// `--validate-utf8` alone.
    public static let `default`: MarkdownOptions = [.validateUTF8]
}
