import CSpoilerSyntax
import Foundation
import SpoilerCore
import SpoilerParser
import Synchronization
import Testing

/// The per-thread arena that cmark-gfm parses allocate from (spoiler_arena.h).
@Suite struct MarkdownArenaTests {
    private var mem: cmark_mem { spoiler_arena_allocator().pointee }

    @Test func callocGivesZeroedAlignedBlocks() {
        spoiler_arena_begin()
        defer { spoiler_arena_end() }
        for size in [1, 7, 16, 100, 5_000, 100_000] {
            let p = mem.calloc(1, size)!
            #expect(Int(bitPattern: p) % 16 == 0)
            let bytes = p.assumingMemoryBound(to: UInt8.self)
            #expect((0..<size).allSatisfy { bytes[$0] == 0 }, "size \(size)")
            memset(p, 0xAB, size)
        }
    }

    @Test func reallocKeepsTheContentInPlaceOrMoved() {
        spoiler_arena_begin()
        defer { spoiler_arena_end() }
        // The newest block grows where it is; an older one is copied.
        var newest = mem.realloc(nil, 10)!
        memset(newest, 0x11, 10)
        let grown = mem.realloc(newest, 200)!
        #expect(grown == newest)
        newest = grown
        let older = mem.calloc(1, 32)!
        memset(older, 0x22, 32)
        _ = mem.calloc(1, 8)
        let moved = mem.realloc(older, 3_000)!
        #expect(moved != older)
        let m = moved.assumingMemoryBound(to: UInt8.self)
        #expect((0..<32).allSatisfy { m[$0] == 0x22 })
        let n = newest.assumingMemoryBound(to: UInt8.self)
        #expect((0..<10).allSatisfy { n[$0] == 0x11 })
        // Larger than any chunk.
        let big = mem.realloc(moved, 3 << 20)!
        #expect(big.assumingMemoryBound(to: UInt8.self)[31] == 0x22)
    }

    @Test func freedBlocksAreReused() {
        spoiler_arena_begin()
        defer { spoiler_arena_end() }
        // The newest block goes back to the end of its chunk.
        let a = mem.calloc(1, 64)!
        mem.free(a)
        let b = mem.calloc(1, 64)!
        #expect(a == b)
        // An older small block goes on the free list of its size class…
        let c = mem.calloc(1, 64)!
        mem.free(b)
        #expect(mem.calloc(1, 100) != b, "another size class")
        let d = mem.calloc(1, 60)!
        #expect(d == b, "same class (64 bytes)")
        #expect((0..<60).allSatisfy { d.assumingMemoryBound(to: UInt8.self)[$0] == 0 }, "zeroed again")
        // …a large one waits for the end of the scope.
        let e = mem.calloc(1, 4_000)!
        _ = mem.calloc(1, 8)
        mem.free(e)
        #expect(mem.calloc(1, 4_000) != e)
        _ = c
    }

    @Test func memoryGoesBackWhenTheOutermostScopeEnds() {
        #expect(spoiler_arena_reserved() == 0)
        spoiler_arena_begin()
        _ = mem.calloc(1, 100)
        spoiler_arena_begin()
        _ = mem.calloc(1, 2 << 20)
        spoiler_arena_end()
        #expect(spoiler_arena_reserved() >= 2 << 20, "an inner scope returns nothing")
        spoiler_arena_end()
        #expect(spoiler_arena_reserved() == 0)
        // An end without a begin changes nothing.
        spoiler_arena_end()
        #expect(spoiler_arena_reserved() == 0)
    }

    /// Synchronous on purpose: a scope must begin and end on one thread, which an `await`
    /// between the two would not promise.
    @Test func eachThreadHasItsOwnArena() {
        spoiler_arena_begin()
        _ = mem.calloc(1, 1_000)
        let here = spoiler_arena_reserved()
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var elsewhere = -1
        Thread.detachNewThread {
            elsewhere = spoiler_arena_reserved()
            done.signal()
        }
        done.wait()
        spoiler_arena_end()
        #expect(here > 0)
        #expect(elsewhere == 0)
    }
}

/// Markdown parses allocate from the arena and give it all back.
@Suite struct MarkdownArenaUseTests {
    static let document = Array("# t\n\n**a ||b|| c** [l](u)\n\n| a | b |\n|---|---|\n| \\|\\|x\\|\\| | y |\n".utf8)

    @Test func aParseUsesTheArenaAndReturnsIt() throws {
        #expect(spoiler_arena_reserved() == 0)
        _ = try MessageParser.parse(Self.document, from: .markdown)
        _ = MarkdownRenderer.html(Self.document)
        #expect(spoiler_arena_reserved() == 0, "everything back after the document")
        // Inside an outer scope the parse's memory stays: proof that it came from the arena.
        spoiler_arena_begin()
        _ = try MessageParser.parse(Self.document, from: .markdown)
        let held = spoiler_arena_reserved()
        spoiler_arena_end()
        #expect(held > 0)
        #expect(spoiler_arena_reserved() == 0)
    }

    /// Four threads parse at once, each on its own arena, and get what one thread gets.
    @Test func parsesOnManyThreadsAgree() throws {
        let docs = (0..<200).map { i in
            Array("**\(i) ||h\(i)|| x** _y_ ~~z~~ `c` www.e\(i).org\n\n- [ ] \(i)\n- b\n\n> q\n".utf8)
        }
        let expected = try docs.map { try MessageParser.parse($0, from: .markdown) }
        let results = Mutex([Int: Message]())
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            for i in stride(from: worker, to: docs.count, by: 4) {
                let m = try? MessageParser.parse(docs[i], from: .markdown)
                results.withLock { $0[i] = m }
            }
        }
        let got = results.withLock { $0 }
        for i in docs.indices { #expect(got[i] == expected[i], "document \(i)") }
    }
}
