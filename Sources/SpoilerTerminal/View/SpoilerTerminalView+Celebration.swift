import SpoilerCore
import SpoilerEffect
import SpoilerRender

extension SpoilerTerminalView {
    /// Starts the confetti when every word has just been revealed (once, until a word is
    /// hidden again), advances it, and drops it when it is finished, so that a view that
    /// celebrated costs nothing afterwards.
    mutating func updateCelebration(at time: Double) {
        guard let preset = options.celebration else { return }
        // A document's words are all revealed by `r`, or when all of it is in the window.
        let wholeDocument = document.map { $0.revealsAll || ($0.chunks.lowerBound == 0 && $0.reachesEnd) } ?? true
        let allRevealed =
            wholeDocument && !builder.groups.isEmpty && builder.groups.allSatisfy { revealedAt[$0] != nil }
        if !allRevealed {
            hasCelebrated = false
        } else if !hasCelebrated {
            hasCelebrated = true
            let view = SpoilerRect(
                x: 0, y: 0, width: Double(size.columns) * builder.cellWidth,
                height: Double(size.rows) * builder.cellHeight)
            celebration = Celebration(
                view: view, preset: preset, start: time, seed: scene.seed, options: scene.options)
        }
        celebration?.advance(to: time)
        if celebration?.isFinished ?? false { celebration = nil }
    }

    /// Draws the confetti over the view's blank cells.
    func drawCelebration(into canvas: inout CellCanvas) {
        guard let celebration else { return }
        canvas.drawCelebration(
            celebration, cellWidth: builder.cellWidth, cellHeight: builder.cellHeight,
            capability: options.frame.capability, glyphs: options.frame.glyphs)
    }
}
