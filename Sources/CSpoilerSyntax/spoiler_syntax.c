// The `||spoiler||` inline syntax extension for cmark-gfm.
//
// Parsing uses only the public extension API (cmark-gfm-extension_api.h): `|` is a special
// inline character, `match` turns each run of `|` into a text node and pushes runs of
// exactly two on the delimiter stack, and `insert` turns a matched opener and closer into
// a spoiler node holding everything between them, as cmark-gfm's strikethrough extension
// does for `~~`.
#include "spoiler_syntax.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

// Rendering must write into the renderer's output buffer. The public API passes the
// renderers as opaque `struct cmark_renderer` / `struct cmark_html_renderer`; their
// layout (the `out` callback and the `html` buffer) and cmark_strbuf_puts are declared
// only in these headers, which Debian's libcmark-gfm-dev installs for extension writers.
#include <cmark-gfm/buffer.h>
#include <cmark-gfm/render.h>
// cmark_node_get_literal copies every literal that points into the input into a new
// NUL-terminated buffer (an allocation per text node, the largest cost of turning a
// document into a Message). spoiler_syntax_node_literal reads the node's chunk instead,
// and the `||` delimiter nodes get a static literal; the chunk's layout is declared only
// in this header (installed with the library, of the same version).
#include <cmark-gfm/node.h>

static cmark_syntax_extension *spoiler_syntax_shared = NULL;
static cmark_node_type spoiler_syntax_type = CMARK_NODE_NONE;
static pthread_once_t spoiler_syntax_once = PTHREAD_ONCE_INIT;

// The length of the run of `|` starting at the parser's current offset.
static int spoiler_syntax_run_length(cmark_inline_parser *inline_parser) {
    int start = cmark_inline_parser_get_offset(inline_parser);
    int n = 0;
    while (cmark_inline_parser_peek_char(inline_parser) == '|') {
        cmark_inline_parser_advance_offset(inline_parser);
        n++;
    }
    cmark_inline_parser_set_offset(inline_parser, start);
    return n;
}

// Nodes are made with the allocator of the tree they join (`parent`'s): cmark refuses to
// link nodes of two allocators.
static cmark_node *spoiler_syntax_text(cmark_node *parent, const char *literal) {
    cmark_node *node = cmark_node_new_with_mem(CMARK_NODE_TEXT, cmark_node_mem(parent));
    if (node) cmark_node_set_literal(node, literal);
    return node;
}

static cmark_node *spoiler_syntax_match(cmark_syntax_extension *self, cmark_parser *parser,
                                        cmark_node *parent, unsigned char character,
                                        cmark_inline_parser *inline_parser) {
    (void)self;
    (void)parser;
    if (character != '|') return NULL;
    int run = spoiler_syntax_run_length(inline_parser);
    // A lone `|` is left to the core parser, which makes it text up to the next special
    // character (so no extra node).
    if (run == 1) return NULL;
    if (run != 2) {
        // Three and more: literal text, taken whole so that no part of a long run is
        // ever read as a delimiter.
        char *literal = malloc((size_t)run + 1);
        if (!literal) return NULL;
        memset(literal, '|', (size_t)run);
        literal[run] = 0;
        cmark_inline_parser_set_offset(inline_parser, cmark_inline_parser_get_offset(inline_parser) + run);
        cmark_node *text = spoiler_syntax_text(parent, literal);
        free(literal);
        return text;
    }
    int start = cmark_inline_parser_get_offset(inline_parser);
    int left_flanking, right_flanking, punct_before, punct_after;
    cmark_inline_parser_scan_delimiters(inline_parser, 2, '|', &left_flanking, &right_flanking,
                                        &punct_before, &punct_after);
    if (!left_flanking && !right_flanking) {
        // Neither opens nor closes: both pipes go to the core parser as lone ones.
        cmark_inline_parser_set_offset(inline_parser, start);
        return NULL;
    }
    cmark_node *text = cmark_node_new_with_mem(CMARK_NODE_TEXT, cmark_node_mem(parent));
    // A static literal, as the core parser uses for its own delimiter runs: no copy to
    // allocate and free for each delimiter (node.h, included above, declares the chunk).
    if (text) text->as.literal = cmark_chunk_literal("||");
    if (text) cmark_inline_parser_push_delimiter(inline_parser, '|', left_flanking, right_flanking, text);
    return text;
}

// Gives `node` the spoiler type. A table cell's container rule (the table extension's
// can_contain) lists the inline types it knows and refuses any other, so inside a cell the
// check is answered, for this one change of type, by this extension's own rule (inline
// children only); the cell keeps its extension afterwards.
static int spoiler_syntax_set_type(cmark_syntax_extension *self, cmark_node *node) {
    if (cmark_node_set_type(node, spoiler_syntax_type)) return 1;
    cmark_node *parent = cmark_node_parent(node);
    if (!parent) return 0;
    const char *parent_type = cmark_node_get_type_string(parent);
    if (!parent_type || strcmp(parent_type, "table_cell") != 0) return 0;
    cmark_syntax_extension *owner = cmark_node_get_syntax_extension(parent);
    cmark_node_set_syntax_extension(parent, self);
    int ok = cmark_node_set_type(node, spoiler_syntax_type);
    cmark_node_set_syntax_extension(parent, owner);
    return ok;
}

static delimiter *spoiler_syntax_insert(cmark_syntax_extension *self, cmark_parser *parser,
                                        cmark_inline_parser *inline_parser, delimiter *opener,
                                        delimiter *closer) {
    (void)parser;
    delimiter *next = closer->next;
    cmark_node *spoiler = opener->inl_text;
    if (opener->length == closer->length && spoiler_syntax_set_type(self, spoiler)) {
        cmark_node_set_syntax_extension(spoiler, self);
        cmark_node *child = cmark_node_next(spoiler);
        while (child && child != closer->inl_text) {
            cmark_node *after = cmark_node_next(child);
            cmark_node_append_child(spoiler, child);
            child = after;
        }
        cmark_node_free(closer->inl_text);
        closer->inl_text = NULL;
    }
    // Every delimiter from the closer down to the opener is used up.
    delimiter *d = closer;
    while (d != NULL && d != opener) {
        delimiter *below = d->previous;
        cmark_inline_parser_remove_delimiter(inline_parser, d);
        d = below;
    }
    cmark_inline_parser_remove_delimiter(inline_parser, opener);
    return next;
}

static const char *spoiler_syntax_type_string(cmark_syntax_extension *self, cmark_node *node) {
    (void)self;
    return cmark_node_get_type(node) == spoiler_syntax_type ? "spoiler" : "<unknown>";
}

static int spoiler_syntax_can_contain(cmark_syntax_extension *self, cmark_node *node,
                                      cmark_node_type child_type) {
    (void)self;
    (void)node;
    return ((int)child_type & CMARK_NODE_TYPE_MASK) == CMARK_NODE_TYPE_INLINE;
}

static void spoiler_syntax_commonmark_render(cmark_syntax_extension *self, cmark_renderer *renderer,
                                             cmark_node *node, cmark_event_type ev_type,
                                             int options) {
    (void)self;
    (void)options;
    (void)ev_type;
    // In a table row an unescaped `|` would end the cell.
    for (cmark_node *up = cmark_node_parent(node); up; up = cmark_node_parent(up)) {
        const char *type = cmark_node_get_type_string(up);
        if (type && strcmp(type, "table_cell") == 0) {
            renderer->out(renderer, node, "\\|\\|", false, LITERAL);
            return;
        }
    }
    renderer->out(renderer, node, "||", false, LITERAL);
}

// Plain text, LaTeX and man show the hidden text without markers.
static void spoiler_syntax_render_nothing(cmark_syntax_extension *self, cmark_renderer *renderer,
                                          cmark_node *node, cmark_event_type ev_type,
                                          int options) {
    (void)self;
    (void)renderer;
    (void)node;
    (void)ev_type;
    (void)options;
}

static void spoiler_syntax_html_render(cmark_syntax_extension *self,
                                       cmark_html_renderer *renderer, cmark_node *node,
                                       cmark_event_type ev_type, int options) {
    (void)self;
    (void)node;
    (void)options;
    if (ev_type == CMARK_EVENT_ENTER) {
        cmark_strbuf_puts(renderer->html, "<span class=\"spoiler\">");
    } else {
        cmark_strbuf_puts(renderer->html, "</span>");
    }
}

// `|` in text below a spoiler is escaped, so that the CommonMark output parses back to
// the same tree.
static int spoiler_syntax_escape(cmark_syntax_extension *self, cmark_node *node, int c) {
    (void)self;
    return c == '|' && cmark_node_get_type(node) != spoiler_syntax_type;
}

static const char *spoiler_syntax_xml_attr(cmark_syntax_extension *self, cmark_node *node) {
    (void)self;
    (void)node;
    return NULL;
}

static void spoiler_syntax_make(void) {
    cmark_syntax_extension *ext = cmark_syntax_extension_new("spoiler");
    if (!ext) return;
    spoiler_syntax_type = cmark_syntax_extension_add_node(1);
    cmark_syntax_extension_set_get_type_string_func(ext, spoiler_syntax_type_string);
    cmark_syntax_extension_set_can_contain_func(ext, spoiler_syntax_can_contain);
    cmark_syntax_extension_set_commonmark_render_func(ext, spoiler_syntax_commonmark_render);
    cmark_syntax_extension_set_plaintext_render_func(ext, spoiler_syntax_render_nothing);
    cmark_syntax_extension_set_latex_render_func(ext, spoiler_syntax_render_nothing);
    cmark_syntax_extension_set_man_render_func(ext, spoiler_syntax_render_nothing);
    cmark_syntax_extension_set_html_render_func(ext, spoiler_syntax_html_render);
    cmark_syntax_extension_set_xml_attr_func(ext, spoiler_syntax_xml_attr);
    cmark_syntax_extension_set_commonmark_escape_func(ext, spoiler_syntax_escape);
    cmark_syntax_extension_set_match_inline_func(ext, spoiler_syntax_match);
    cmark_syntax_extension_set_inline_from_delim_func(ext, spoiler_syntax_insert);
    // Not an "emphasis" character: that would make `*` and `_` look through `|` when
    // deciding whether they are flanking, and change documents that have no spoiler.
    cmark_syntax_extension_set_emphasis(ext, 0);
    cmark_llist *chars = cmark_llist_append(cmark_get_default_mem_allocator(), NULL, (void *)'|');
    cmark_syntax_extension_set_special_inline_chars(ext, chars);
    spoiler_syntax_shared = ext;
}

const unsigned char *spoiler_syntax_node_literal(cmark_node *node, size_t *length) {
    switch (node->type) {
    case CMARK_NODE_TEXT:
    case CMARK_NODE_CODE:
    case CMARK_NODE_HTML_INLINE:
    case CMARK_NODE_HTML_BLOCK:
        *length = (size_t)node->as.literal.len;
        return node->as.literal.data;
    case CMARK_NODE_CODE_BLOCK:
        *length = (size_t)node->as.code.literal.len;
        return node->as.code.literal.data;
    default: {
        const char *literal = cmark_node_get_literal(node);
        *length = literal ? strlen(literal) : 0;
        return (const unsigned char *)literal;
    }
    }
}

cmark_syntax_extension *spoiler_syntax_extension(void) {
    pthread_once(&spoiler_syntax_once, spoiler_syntax_make);
    return spoiler_syntax_shared;
}

cmark_node_type spoiler_syntax_node_type(void) {
    pthread_once(&spoiler_syntax_once, spoiler_syntax_make);
    return spoiler_syntax_type;
}
