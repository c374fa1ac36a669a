#ifndef SPOILER_SYNTAX_H
#define SPOILER_SYNTAX_H

#include <cmark-gfm.h>
#include <cmark-gfm-extension_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The `||spoiler||` inline syntax extension for cmark-gfm, named "spoiler".
///
/// A run of exactly two `|` characters takes part in the inline delimiter algorithm, as
/// `~~` does in cmark-gfm's strikethrough extension: it can open when it is left-flanking
/// and close when it is right-flanking, so spoilers nest with emphasis, strong emphasis,
/// strikethrough and links both ways. Runs of one or of three and more `|` stay literal
/// text, and so does `|` inside code spans, code blocks, autolinks and raw HTML (the core
/// parser never offers those to an extension). A matched pair becomes a node whose type
/// string is "spoiler" (see spoiler_syntax_node_type). It renders as
/// `<span class="spoiler">…</span>` in HTML, as `||…||` in CommonMark, and without markers
/// in plain text, LaTeX and man.
///
/// In a GFM table row `|` separates the cells before any inline parsing, so a spoiler in a
/// cell is written with escaped pipes: `| \|\|secret\|\| |`.
///
/// The extension is created once per process and shared: attach it to any number of
/// parsers with cmark_parser_attach_syntax_extension and never free it. Its nodes are
/// allocated with the allocator of the tree they join, so parsers may use any allocator
/// (cmark_parser_new_with_mem). Like every cmark-gfm inline extension, it changes the library's
/// process-wide table of special characters while a parser runs, so parse on one thread
/// at a time.
cmark_syntax_extension *spoiler_syntax_extension(void);

/// The node type of a spoiler (valid once spoiler_syntax_extension has been called).
cmark_node_type spoiler_syntax_node_type(void);

/// The text of a text, code, inline HTML, HTML block or code block node, without a copy:
/// the bytes belong to the node and stay valid until it is freed; `*length` receives
/// their count. For any other node, falls back to cmark_node_get_literal.
const unsigned char *spoiler_syntax_node_literal(cmark_node *node, size_t *length);

#ifdef __cplusplus
}
#endif

#endif
