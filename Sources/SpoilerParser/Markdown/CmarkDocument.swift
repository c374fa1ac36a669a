internal import CCmarkGFM
internal import CSpoilerSyntax
import Synchronization

/// The cmark-gfm extensions every Markdown parse attaches: GFM's table, strikethrough,
/// autolink, tagfilter and tasklist (in the order `cmark-gfm -e table -e strikethrough
/// -e autolink -e tagfilter -e tasklist` attaches them), then `||spoiler||`.
///
/// The extensions are process-wide objects of the library, created once and never freed.
struct CmarkExtensions: @unchecked Sendable {
    let list: [OpaquePointer]

    static let shared: CmarkExtensions = {
        cmark_gfm_core_extensions_ensure_registered()
        var list: [OpaquePointer] = []
        for name in ["table", "strikethrough", "autolink", "tagfilter", "tasklist"] {
            if let ext = cmark_find_syntax_extension(name) { list.append(ext) }
        }
        if let spoiler = spoiler_syntax_extension() { list.append(spoiler) }
        return CmarkExtensions(list: list)
    }()

    /// The same list, without the spoiler extension: plain cmark-gfm.
    static let gfmOnly: CmarkExtensions = CmarkExtensions(list: Array(shared.list.dropLast()))
}

/// The one door to a parsed cmark-gfm document: parses, lends the tree, frees it all.
///
/// cmark-gfm keeps the inline parser's special characters in process-wide tables, and
/// every parse with inline extensions adds its characters to them when it starts parsing
/// inlines and removes them when it is done. Two such parses at once on two threads would
/// take each other's characters away (an autolink goes missing), so the inline phase,
/// `cmark_parser_finish`, runs under one lock.
enum CmarkDocument {
    private static let inlinePhase = Mutex(())

    /// Parses `bytes` and lends the parser and the document root to `body`.
    ///
    /// `options` and `extensions` are given to the parser; both pointers are freed when
    /// `body` returns, so neither may escape.
    ///
    /// - Complexity: O(n) in the input for the parse, as cmark-gfm is.
    static func withDocument<R>(
        _ bytes: [UInt8], options: Int32, extensions: CmarkExtensions = .shared,
        _ body: (_ parser: OpaquePointer, _ root: OpaquePointer) -> R
    ) -> R {
        // cmark_parser_new only fails when memory runs out, and then cmark aborts.
        let parser = cmark_parser_new(options)!
        defer { cmark_parser_free(parser) }
        for ext in extensions.list {
            cmark_parser_attach_syntax_extension(parser, ext)
        }
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress, buffer.count > 0 else { return }
            base.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                cmark_parser_feed(parser, $0, buffer.count)
            }
        }
        let finished = inlinePhase.withLock { _ in UInt(bitPattern: cmark_parser_finish(parser)) }
        let root = OpaquePointer(bitPattern: finished)!
        defer { cmark_node_free(root) }
        return body(parser, root)
    }

    /// Renders with `render` (a cmark renderer that returns a string allocated with the
    /// default allocator) and copies the result out, freeing the C string.
    static func rendered(_ render: () -> UnsafeMutablePointer<CChar>?) -> [UInt8] {
        guard let out = render() else { return [] }
        defer { cmark_get_default_mem_allocator().pointee.free(out) }
        var n = 0
        while out[n] != 0 { n += 1 }
        return out.withMemoryRebound(to: UInt8.self, capacity: n) {
            Array(UnsafeBufferPointer(start: $0, count: n))
        }
    }
}
