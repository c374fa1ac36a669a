internal import CUTF8Proc

/// The Unicode data behind grapheme boundaries and widths.
///
/// Grapheme clusters and cell widths come from the utf8proc library the package is linked
/// with (Debian's `libutf8proc-dev`), so a layout can change when utf8proc moves to a newer
/// Unicode version. A program that stores geometry can record these next to it.
public enum UnicodeData {
    /// The version of the utf8proc library in use, such as `"2.8.0"`.
    public static var utf8procVersion: String { String(cString: utf8proc_version()) }

    /// The Unicode version of utf8proc's tables, such as `"15.0.0"`.
    public static var unicodeVersion: String { String(cString: utf8proc_unicode_version()) }
}
