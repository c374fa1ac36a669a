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

/// Where a parse's C memory comes from.
enum CmarkMemory {
    /// The calling thread's arena (spoiler_arena.h): allocation is a pointer bump, and the
    /// whole tree goes back at once when the document is done, without a walk to free it.
    case arena
    /// The system allocator, node by node, as the `cmark-gfm` program does: the reference
    /// the benchmark measures against.
    case system
}

/// A parsed document, lent to the body of ``CmarkDocument/withDocument(_:options:extensions:memory:_:)``.
struct CmarkParsed {
    let parser: OpaquePointer
    let root: OpaquePointer
    /// The allocator of the parser and every node of the tree.
    let memory: UnsafeMutablePointer<cmark_mem>

    /// Renders with `render` (a cmark renderer, which allocates its string with the tree's
    /// allocator) and copies the result out, freeing the C string.
    func rendered(_ render: () -> UnsafeMutablePointer<CChar>?) -> [UInt8] {
        guard let out = render() else { return [] }
        defer { memory.pointee.free(out) }
        var n = 0
        while out[n] != 0 { n += 1 }
        return out.withMemoryRebound(to: UInt8.self, capacity: n) {
            Array(UnsafeBufferPointer(start: $0, count: n))
        }
    }
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

    /// Parses `bytes` and lends the parsed document to `body`.
    ///
    /// `options` and `extensions` are given to the parser. The parser and the tree are
    /// freed when `body` returns (with ``CmarkMemory/arena``, the thread's arena scope
    /// ends), so no pointer into them may escape.
    ///
    /// - Complexity: O(n) in the input for the parse, as cmark-gfm is.
    static func withDocument<R>(
        _ bytes: [UInt8], options: Int32, extensions: CmarkExtensions = .shared,
        memory: CmarkMemory = .arena, _ body: (CmarkParsed) -> R
    ) -> R {
        let mem: UnsafeMutablePointer<cmark_mem>
        switch memory {
        case .arena:
            spoiler_arena_begin()
            mem = spoiler_arena_allocator()
        case .system:
            mem = cmark_get_default_mem_allocator()
        }
        defer { if memory == .arena { spoiler_arena_end() } }
        // cmark_parser_new_with_mem only fails when memory runs out, and then cmark aborts.
        let parser = cmark_parser_new_with_mem(options, mem)!
        defer { if memory == .system { cmark_parser_free(parser) } }
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
        defer { if memory == .system { cmark_node_free(root) } }
        return body(CmarkParsed(parser: parser, root: root, memory: mem))
    }
}
