import SpoilerCore
import SpoilerEffect
import SpoilerLayout
import SpoilerRender

/// A ``SpoilerView``'s message laid out in a bitmap font's pixels, with its own scene.
struct PixelSurface: Sendable {
    /// The layout in the font's pixels.
    let layout: TextLayout
    /// The effect over ``layout``'s words.
    var scene: SpoilerScene
    /// The font of ``layout``.
    let font: BitmapFont

    /// Whether anything moves: dust on a hidden word, a wave, particles still fading.
    var needsFrames: Bool {
        if scene.options.reducedMotion { return false }
        if scene.particles.count > 0 { return true }
        for w in scene.words.indices {
            let hiding = scene.reveals[w]?.hideStart != nil && scene.revealRadius(word: w) != nil
            if hiding || (!scene.isHidden(word: w) && !scene.isFullyRevealed(word: w)) { return true }
        }
        return false
    }

    /// Reveals the hidden word at `point`, or the nearest on its line within the font's
    /// default advance, with the wave from `point`.
    ///
    /// - Returns: The scene words revealed (with what the scope adds), or nil when no hidden
    ///   word is there.
    mutating func click(at point: SpoilerPoint) -> [Int]? {
        guard point.x >= 0, point.y >= 0 else { return nil }
        var target = scene.word(at: point)
        let lineHeight = Double(max(1, layout.metrics.lineHeight))
        if target == nil, let near = scene.nearestWord(to: point, maxDistance: Double(max(1, font.defaultAdvance))),
            abs(scene.words[near].rect.center.y - point.y) < lineHeight / 2
        {
            target = near
        }
        guard let w = target, scene.reveals[w] == nil else { return nil }
        let targets = scene.revealTargets(of: w)
        scene.reveal(word: w, origin: point)
        return targets
    }

    /// Reveals, with one wave from the first one's centre, every hidden word `isShown` names.
    mutating func revealWords(where isShown: (WordKey) -> Bool) {
        let targets = layout.words.indices.filter {
            scene.words.indices.contains($0) && scene.reveals[$0] == nil && isShown(WordKey(layout.words[$0]))
        }
        guard let first = targets.first else { return }
        scene.reveal(words: targets, origin: scene.words[first].rect.center)
    }
}

/// A hidden word whatever the layout: its spoiler entity and its index in it (a word that
/// wraps has one box per line, each with the same key).
struct WordKey: Hashable, Sendable {
    let entity: Int
    let word: Int

    init(_ box: WordBox) {
        entity = box.entity
        word = box.word
    }
}
