internal import CCmarkGFM

/// Renders Markdown (CommonMark + GFM + `||spoiler||`) with libcmark-gfm.
///
/// The document is parsed with GFM's table, strikethrough, autolink, tagfilter and
/// tasklist extensions and the spoiler extension. For an input without `||` the HTML is
/// byte for byte what `cmark-gfm -e table -e strikethrough -e autolink -e tagfilter
/// -e tasklist` prints with the same options.
///
/// ```swift
/// let html = MarkdownRenderer.html(Array("**a ||b||**".utf8))
/// // <p><strong>a <span class="spoiler">b</span></strong></p>\n
/// ```
public enum MarkdownRenderer {
    /// `bytes` (any bytes) rendered as HTML; a spoiler is `<span class="spoiler">…</span>`.
    ///
    /// - Complexity: O(n).
    public static func html(_ bytes: [UInt8], options: MarkdownOptions = .default) -> [UInt8] {
        CmarkDocument.withDocument(bytes, options: options.rawValue) { doc in
            doc.rendered {
                cmark_render_html(doc.root, options.rawValue, cmark_parser_get_syntax_extensions(doc.parser))
            }
        }
    }

    /// `bytes` rendered back as CommonMark, spoilers as `||…||`.
    ///
    /// - Complexity: O(n).
    public static func commonMark(_ bytes: [UInt8], options: MarkdownOptions = .default) -> [UInt8] {
        CmarkDocument.withDocument(bytes, options: options.rawValue) { doc in
            doc.rendered { cmark_render_commonmark(doc.root, options.rawValue, 0) }
        }
    }

    /// `bytes` rendered as plain text, by cmark-gfm's plain text renderer (spoilers without
    /// markers).
    public static func plainText(_ bytes: [UInt8], options: MarkdownOptions = .default) -> [UInt8] {
        CmarkDocument.withDocument(bytes, options: options.rawValue) { doc in
            doc.rendered { cmark_render_plaintext(doc.root, options.rawValue, 0) }
        }
    }

    /// HTML from plain cmark-gfm with the same GFM extensions and no spoiler extension,
    /// allocating node by node with the system allocator as the `cmark-gfm` program does:
    /// the reference the compatibility tests and the benchmark compare with.
    public static func referenceHTML(_ bytes: [UInt8], options: MarkdownOptions = .default) -> [UInt8] {
        CmarkDocument.withDocument(bytes, options: options.rawValue, extensions: .gfmOnly, memory: .system) { doc in
            doc.rendered {
                cmark_render_html(doc.root, options.rawValue, cmark_parser_get_syntax_extensions(doc.parser))
            }
        }
    }
}
