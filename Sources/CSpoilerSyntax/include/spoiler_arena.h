#ifndef SPOILER_ARENA_H
#define SPOILER_ARENA_H

#include <cmark-gfm.h>

#ifdef __cplusplus
extern "C" {
#endif

/// A cmark memory allocator that hands out memory from per-thread arenas: an allocation
/// is a pointer bump, freeing is free of charge, and everything goes back at once when the
/// outermost arena scope of the thread ends.
///
/// Use it for a parser's whole life: between spoiler_arena_begin and spoiler_arena_end,
/// create the parser with cmark_parser_new_with_mem(options, spoiler_arena_allocator()),
/// parse, read the tree, and render; then end the scope. Every node, parser, iterator and
/// rendered string made with it is released by spoiler_arena_end, so nothing made with it
/// may be used after that; cmark_node_free and cmark_parser_free are then not needed.
///
/// Scopes nest on a thread (the memory goes back when the outermost ends); each thread has
/// arenas of its own, so parsers on different threads never share one.
cmark_mem *spoiler_arena_allocator(void);

/// Opens an arena scope on the calling thread.
void spoiler_arena_begin(void);

/// Closes the scope opened last on the calling thread; when it was the outermost, all the
/// thread's arena memory is returned to the system allocator.
void spoiler_arena_end(void);

/// Bytes of arena memory the calling thread holds now (chunks, with their unused tails).
size_t spoiler_arena_reserved(void);

#ifdef __cplusplus
}
#endif

#endif
