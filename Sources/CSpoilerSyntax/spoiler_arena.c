// Per-thread bump allocation for cmark-gfm parses (see spoiler_arena.h).
//
// Memory comes in chunks from malloc, carved into slots: an 8-byte header holding the
// block's size (so that realloc can copy it), then the block, 16-byte aligned as malloc's
// blocks are. The block allocated last can shrink, grow in place while its chunk has room,
// and be given back by free (cmark's buffers grow by realloc, mostly the one just
// allocated). A small block freed before the end goes on a free list of its size class and
// is handed out again: cmark frees many nodes and delimiters while it parses, and without
// reuse a large document would hold a third as much memory again.
//
// When valgrind's headers are there at build time (Debian package valgrind, which
// `.ci/run` installs), the arena describes itself to memcheck as a memory pool: each block
// is a heap block of its own, so reads outside a block, reads of a block freed early and
// uninitialised reads are all reported as they would be with malloc. Outside valgrind the
// annotations are skipped on a flag read once per document.
#include "spoiler_arena.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__has_include)
#if __has_include(<valgrind/memcheck.h>)
#include <valgrind/memcheck.h>
#endif
#endif
#ifndef VALGRIND_CREATE_MEMPOOL
#define RUNNING_ON_VALGRIND 0
#define VALGRIND_CREATE_MEMPOOL(pool, redzone, zeroed) ((void)0)
#define VALGRIND_DESTROY_MEMPOOL(pool) ((void)0)
#define VALGRIND_MEMPOOL_ALLOC(pool, addr, size) ((void)0)
#define VALGRIND_MEMPOOL_FREE(pool, addr) ((void)0)
#define VALGRIND_MEMPOOL_CHANGE(pool, old, new, size) ((void)0)
#define VALGRIND_MAKE_MEM_NOACCESS(addr, size) ((void)0)
#define VALGRIND_MAKE_MEM_DEFINED(addr, size) ((void)0)
#define VALGRIND_MAKE_MEM_UNDEFINED(addr, size) ((void)0)
#endif

typedef struct spoiler_arena_chunk {
    struct spoiler_arena_chunk *previous;
    size_t size;  // bytes of slots, from spoiler_arena_slots(chunk)
    size_t used;  // bytes of slots handed out; the next slot starts here
} spoiler_arena_chunk;

enum {
    SPOILER_ARENA_ALIGN = 16,
    SPOILER_ARENA_HEADER = 8,
    SPOILER_ARENA_FIRST = 32 * 1024,
    SPOILER_ARENA_LARGEST = 1024 * 1024,
    // Blocks of up to this many bytes are reused, by the size of their slot.
    SPOILER_ARENA_SMALL = 512,
    SPOILER_ARENA_CLASSES = SPOILER_ARENA_SMALL / SPOILER_ARENA_ALIGN + 2,
};

static _Thread_local spoiler_arena_chunk *spoiler_arena_top = NULL;
static _Thread_local size_t spoiler_arena_depth = 0;
// The block at the end of the top chunk's used slots, if it is still allocated.
static _Thread_local unsigned char *spoiler_arena_last = NULL;
// Per size class, the freed blocks, linked through their first bytes.
static _Thread_local unsigned char *spoiler_arena_free_lists[SPOILER_ARENA_CLASSES];

// Whether the program runs under valgrind, read when a thread's outermost scope begins.
static _Thread_local int spoiler_arena_on_valgrind = 0;

// The pool's name for memcheck: an address of this thread's own.
#define SPOILER_ARENA_POOL ((void *)&spoiler_arena_depth)

// Runs a memcheck annotation, only under valgrind: each costs a dozen instructions, which
// would add up to a few percent of a parse.
#define SPOILER_ARENA_TELL(annotation)                \
    do {                                              \
        if (spoiler_arena_on_valgrind) annotation;    \
    } while (0)

static void spoiler_arena_out_of_memory(void) {
    fputs("spoiler: out of memory while parsing Markdown\n", stderr);
    abort();
}

// Where a chunk's slots start: 8 bytes before a 16-byte boundary, so that the first block,
// after its header, is aligned.
static unsigned char *spoiler_arena_slots(spoiler_arena_chunk *chunk) {
    uintptr_t after = (uintptr_t)(chunk + 1) + SPOILER_ARENA_HEADER;
    uintptr_t aligned = (after + SPOILER_ARENA_ALIGN - 1) & ~(uintptr_t)(SPOILER_ARENA_ALIGN - 1);
    return (unsigned char *)(aligned - SPOILER_ARENA_HEADER);
}

// The slot of a block of `n` bytes: header and block, a multiple of 16 (so every block
// stays aligned). `n` is at most SIZE_MAX / 2, checked by the callers.
static size_t spoiler_arena_slot(size_t n) {
    return (n + SPOILER_ARENA_HEADER + SPOILER_ARENA_ALIGN - 1) & ~(size_t)(SPOILER_ARENA_ALIGN - 1);
}

// A block's size sits in the header before it, which is no block's, so memcheck is told
// that this code may read and write it.
static size_t spoiler_arena_block_size(const unsigned char *block) {
    size_t size;
    SPOILER_ARENA_TELL(VALGRIND_MAKE_MEM_DEFINED(block - SPOILER_ARENA_HEADER, SPOILER_ARENA_HEADER));
    memcpy(&size, block - SPOILER_ARENA_HEADER, sizeof size);
    SPOILER_ARENA_TELL(VALGRIND_MAKE_MEM_NOACCESS(block - SPOILER_ARENA_HEADER, SPOILER_ARENA_HEADER));
    return size;
}

static void spoiler_arena_set_block_size(unsigned char *block, size_t size) {
    SPOILER_ARENA_TELL(VALGRIND_MAKE_MEM_DEFINED(block - SPOILER_ARENA_HEADER, SPOILER_ARENA_HEADER));
    memcpy(block - SPOILER_ARENA_HEADER, &size, sizeof size);
    SPOILER_ARENA_TELL(VALGRIND_MAKE_MEM_NOACCESS(block - SPOILER_ARENA_HEADER, SPOILER_ARENA_HEADER));
}

// The free list for blocks of `n` bytes, or 0 when blocks of that size are not reused.
static size_t spoiler_arena_class(size_t n) {
    return n == 0 || n > SPOILER_ARENA_SMALL ? 0 : spoiler_arena_slot(n) / SPOILER_ARENA_ALIGN;
}

// A new chunk with room for a slot of `need` bytes, on top of the thread's chunks.
static spoiler_arena_chunk *spoiler_arena_grow(size_t need) {
    size_t size = spoiler_arena_top ? spoiler_arena_top->size * 2 : SPOILER_ARENA_FIRST;
    if (size > SPOILER_ARENA_LARGEST) size = SPOILER_ARENA_LARGEST;
    if (size < need) size = need;
    size_t total = sizeof(spoiler_arena_chunk) + SPOILER_ARENA_ALIGN + size;
    if (total < size) spoiler_arena_out_of_memory();
    spoiler_arena_chunk *chunk = malloc(total);
    if (!chunk) spoiler_arena_out_of_memory();
    chunk->previous = spoiler_arena_top;
    chunk->size = size;
    chunk->used = 0;
    SPOILER_ARENA_TELL(VALGRIND_MAKE_MEM_NOACCESS(spoiler_arena_slots(chunk), size));
    spoiler_arena_top = chunk;
    return chunk;
}

// Keeps the freed `block` (already freed for memcheck) for reuse, when it is small.
static void spoiler_arena_recycle(unsigned char *block, size_t size) {
    size_t class = spoiler_arena_class(size);
    if (class == 0) return;
    SPOILER_ARENA_TELL(VALGRIND_MAKE_MEM_DEFINED(block, sizeof(unsigned char *)));
    memcpy(block, &spoiler_arena_free_lists[class], sizeof(unsigned char *));
    SPOILER_ARENA_TELL(VALGRIND_MAKE_MEM_NOACCESS(block, sizeof(unsigned char *)));
    spoiler_arena_free_lists[class] = block;
}

// An uninitialised block of `n` bytes.
static unsigned char *spoiler_arena_take(size_t n) {
    if (n > SIZE_MAX / 2) spoiler_arena_out_of_memory();
    size_t class = spoiler_arena_class(n);
    unsigned char *block = class ? spoiler_arena_free_lists[class] : NULL;
    if (block) {
        SPOILER_ARENA_TELL(VALGRIND_MAKE_MEM_DEFINED(block, sizeof(unsigned char *)));
        memcpy(&spoiler_arena_free_lists[class], block, sizeof(unsigned char *));
    } else {
        size_t need = spoiler_arena_slot(n);
        spoiler_arena_chunk *chunk = spoiler_arena_top;
        if (!chunk || chunk->size - chunk->used < need) chunk = spoiler_arena_grow(need);
        block = spoiler_arena_slots(chunk) + chunk->used + SPOILER_ARENA_HEADER;
        chunk->used += need;
        spoiler_arena_last = block;
    }
    SPOILER_ARENA_TELL(VALGRIND_MEMPOOL_ALLOC(SPOILER_ARENA_POOL, block, n));
    spoiler_arena_set_block_size(block, n);
    return block;
}

static void *spoiler_arena_calloc(size_t count, size_t size) {
    if (size != 0 && count > SIZE_MAX / size) spoiler_arena_out_of_memory();
    size_t n = count * size;
    unsigned char *block = spoiler_arena_take(n);
    memset(block, 0, n);
    return block;
}

static void *spoiler_arena_realloc(void *pointer, size_t size) {
    unsigned char *block = pointer;
    if (!block) return spoiler_arena_take(size);
    if (size > SIZE_MAX / 2) spoiler_arena_out_of_memory();
    size_t old = spoiler_arena_block_size(block);
    spoiler_arena_chunk *chunk = spoiler_arena_top;
    if (block == spoiler_arena_last) {
        // The newest block, at the end of the top chunk: resize it where it is.
        size_t start = (size_t)(block - SPOILER_ARENA_HEADER - spoiler_arena_slots(chunk));
        if (chunk->size - start >= spoiler_arena_slot(size)) {
            chunk->used = start + spoiler_arena_slot(size);
            // memcheck keeps a resized block's addressability as it was: the bytes added
            // become addressable (not yet defined), the bytes cut off inaccessible.
            SPOILER_ARENA_TELL(VALGRIND_MEMPOOL_CHANGE(SPOILER_ARENA_POOL, block, block, size));
            if (size > old) SPOILER_ARENA_TELL(VALGRIND_MAKE_MEM_UNDEFINED(block + old, size - old));
            else SPOILER_ARENA_TELL(VALGRIND_MAKE_MEM_NOACCESS(block + size, old - size));
            spoiler_arena_set_block_size(block, size);
            return block;
        }
    }
    unsigned char *moved = spoiler_arena_take(size);
    memcpy(moved, block, old < size ? old : size);
    SPOILER_ARENA_TELL(VALGRIND_MEMPOOL_FREE(SPOILER_ARENA_POOL, block));
    spoiler_arena_recycle(block, old);
    return moved;
}

static void spoiler_arena_free(void *pointer) {
    unsigned char *block = pointer;
    if (!block) return;
    size_t size = spoiler_arena_block_size(block);
    SPOILER_ARENA_TELL(VALGRIND_MEMPOOL_FREE(SPOILER_ARENA_POOL, block));
    if (block == spoiler_arena_last) {
        // The newest block goes back to the end of its chunk.
        spoiler_arena_top->used = (size_t)(block - SPOILER_ARENA_HEADER - spoiler_arena_slots(spoiler_arena_top));
        spoiler_arena_last = NULL;
    } else {
        // An older one is reused if small, else waits for the end of the scope.
        spoiler_arena_recycle(block, size);
    }
}

static cmark_mem spoiler_arena_mem = {spoiler_arena_calloc, spoiler_arena_realloc, spoiler_arena_free};

cmark_mem *spoiler_arena_allocator(void) { return &spoiler_arena_mem; }

void spoiler_arena_begin(void) {
    if (spoiler_arena_depth++ > 0) return;
    spoiler_arena_on_valgrind = RUNNING_ON_VALGRIND != 0;
    SPOILER_ARENA_TELL(VALGRIND_CREATE_MEMPOOL(SPOILER_ARENA_POOL, 0, 0));
}

void spoiler_arena_end(void) {
    if (spoiler_arena_depth == 0 || --spoiler_arena_depth > 0) return;
    SPOILER_ARENA_TELL(VALGRIND_DESTROY_MEMPOOL(SPOILER_ARENA_POOL));
    while (spoiler_arena_top) {
        spoiler_arena_chunk *below = spoiler_arena_top->previous;
        free(spoiler_arena_top);
        spoiler_arena_top = below;
    }
    spoiler_arena_last = NULL;
    memset(spoiler_arena_free_lists, 0, sizeof spoiler_arena_free_lists);
}

size_t spoiler_arena_reserved(void) {
    size_t n = 0;
    for (spoiler_arena_chunk *c = spoiler_arena_top; c; c = c->previous) n += c->size;
    return n;
}
