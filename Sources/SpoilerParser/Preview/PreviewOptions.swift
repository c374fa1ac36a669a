/// How a preview (`--to preview`, and the spoilers of `--to slack`) shows what is hidden.
public struct PreviewOptions: Sendable, Hashable {
    /// What a spoiler becomes.
    public enum Mask: String, Sendable, Hashable, CaseIterable {
        /// Four mask characters whatever the spoiler's length (`▒▒▒▒`), so that not even
        /// the length shows (the default).
        case fixed
        /// One mask character per grapheme of the spoiler, for a layout that must keep the
        /// text's length.
        case length
    }

    /// What a spoiler becomes.
    public var mask: Mask
    /// Cut the preview to at most this many graphemes, the last of them `…`; nil keeps it whole.
    public var maxGraphemes: Int?

    /// Creates options; by default a fixed mask and no cut.
    public init(mask: Mask = .fixed, maxGraphemes: Int? = nil) {
        self.mask = mask
        self.maxGraphemes = maxGraphemes
    }
}
