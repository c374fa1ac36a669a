import SpoilerEffect

/// How the renderers that write a piece at a time hand their output over.
///
/// ``SVGRenderer``, ``TimelineRenderer`` and ``ANSIAnimation`` each have a form that
/// takes a `write` function instead of a buffer: it is called with the output's UTF-8
/// bytes in order, in pieces of about ``pieceSize`` bytes (the last one shorter), and the
/// concatenation of the pieces is exactly what the whole-buffer form appends. The
/// renderer holds one piece at a time, never the document, so the memory of a render is
/// its scene and a bounded record of it, whatever the size of the output.
///
/// `write` may throw: the first error stops the writing (no further piece is passed on,
/// and the render ends early where it can) and is rethrown by the renderer.
///
/// ```swift
/// var pieces = 0
/// SVGRenderer.renderStill(scene: scene, layout: layout) { piece in
///     pieces += 1
///     send(piece)  // to a file, a socket, …
/// }
/// ```
public enum RenderOutput {
    /// The size, in bytes, at which a renderer passes its buffer on: 64 KiB. A piece is
    /// at least this long (but the last) and at most this plus one number, tag or
    /// escaped character.
    public static let pieceSize = 1 << 16

    /// The bytes of samples that a renderer which simulates the scene again for each run
    /// (the animated SVG, the tracks timeline) records in one run: `perParticle` bytes
    /// per live particle of `scene` at time 0 (the scene takes about 50 itself), at
    /// least 1 MiB and at most `cap`. The record so grows with the scene, not to a fixed
    /// size whatever the input: a small scene takes more runs, each of them quick.
    static func recordBudget(for scene: SpoilerScene, perParticle: Int, cap: Int) -> Int {
        min(cap, max(1 << 20, scene.particles.count * perParticle))
    }
}

/// Where a renderer's full buffers go: the caller's `write`, until it fails.
final class PieceSink {
    private let write: ([UInt8]) -> Bool
    /// The size at which ``spill(_:)`` passes the buffer on.
    let pieceSize: Int
    /// Whether a write failed: nothing more is passed on.
    private(set) var stopped = false

    init(pieceSize: Int = RenderOutput.pieceSize, write: @escaping ([UInt8]) -> Bool) {
        self.pieceSize = pieceSize
        self.write = write
    }

    /// Passes `bytes` on when they fill a piece, and empties them.
    @inline(__always)
    func spill(_ bytes: inout [UInt8]) {
        if bytes.count >= pieceSize { pass(&bytes) }
    }

    /// Passes on whatever `bytes` hold (nothing when empty), and empties them.
    func pass(_ bytes: inout [UInt8]) {
        guard !bytes.isEmpty else { return }
        if !stopped { stopped = !write(bytes) }
        bytes.removeAll(keepingCapacity: true)
    }

    /// Runs `body` with a sink that passes its pieces to `write`; the first error
    /// `write` throws stops the passing on and is thrown once `body` returns.
    static func run<E: Error>(
        pieceSize: Int = RenderOutput.pieceSize, _ write: ([UInt8]) throws(E) -> Void, _ body: (PieceSink) -> Void
    ) throws(E) {
        var failure: E?
        withoutActuallyEscaping(write) { write in
            let sink = PieceSink(pieceSize: pieceSize) { piece in
                do throws(E) {
                    try write(piece)
                    return true
                } catch {
                    failure = error
                    return false
                }
            }
            body(sink)
        }
        if let failure { throw failure }
    }
}
