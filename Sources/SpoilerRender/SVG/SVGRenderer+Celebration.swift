public import SpoilerCore
import SpoilerEffect
public import SpoilerLayout

extension SVGRenderer {
    /// The picture's area for a stage of `size` pixels: `size` across from the top-left
    /// corner of the margin, so the layout keeps its coordinates inside it.
    public static func stageRect(_ size: SpoilerSize) -> SpoilerRect {
        let m = Double(margin)
        return SpoilerRect(x: -m, y: -m, width: max(size.width, 1), height: max(size.height, 1))
    }

    /// The stage a picture of `layout` gets for a celebration when none is given: as wide
    /// as the layout and its margins, and at least ``Celebration/defaultStageHeight``
    /// pixels tall, so that pieces are seen falling rather than clipped.
    public static func defaultStage(for layout: TextLayout) -> SpoilerSize {
        let m = Double(2 * margin)
        return SpoilerSize(
            width: Double(max(layout.width, 1)) + m,
            height: max(Double(max(layout.height, 1)) + m, Double(Celebration.defaultStageHeight)))
    }

    /// The `word` of a track that holds a celebration piece.
    static let celebrationWord = -1

    /// Draws the celebration's pieces now, over everything, in one group, each with its
    /// serial number as `data-piece` (so frames can be compared piece by piece).
    static func drawCelebration(_ w: inout SVGWriter, _ pieces: VisibleParticles) {
        guard pieces.count > 0 else { return }
        w.raw("<g class=\"celebration\">\n")
        for i in 0..<pieces.count {
            particle(
                &w, shape: pieces.shape[i], x: pieces.x[i], y: pieces.y[i], size: pieces.size[i],
                rotation: pieces.rotation[i], color: pieces.color[i], alpha: pieces.alpha[i],
                piece: pieces.id[i])
        }
        w.raw("</g>\n")
    }
}
