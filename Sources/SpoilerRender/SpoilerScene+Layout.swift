import SpoilerCore
public import SpoilerEffect
public import SpoilerLayout

// The bridge from a layout (SpoilerLayout) to a scene (SpoilerEffect) lives here, in the
// first module that sees both: SpoilerEffect stays free of the layout engine and its C
// libraries (utf8proc, zlib), so a program can drive the effect over rectangles of its own.
// `import SpoilerKit` brings it with the scene.

extension SceneWord {
    /// The effect's view of a layout's hidden words: one ``SceneWord`` per word box, in
    /// order, fragments of one wrapped word sharing a group, the words of one spoiler
    /// entity sharing ``SceneWord/entity`` (the entity's index in the message).
    public static func words(of layout: TextLayout) -> [SceneWord] {
        var groups: [Int: Int] = [:]  // entity << 32 | word → group
        var next = 0
        return layout.words.map { box in
            let key = box.entity << 32 | box.word
            let group: Int
            if let g = groups[key] {
                group = g
            } else {
                group = next
                groups[key] = next
                next += 1
            }
            return SceneWord(rect: box.rect, graphemes: box.graphemes, group: group, entity: box.entity)
        }
    }
}

extension SpoilerScene {
    /// A scene with one emitter per hidden word of `layout` (``TextLayout/words``: word
    /// index `i` of the scene is `layout.words[i]`).
    ///
    /// ```swift
    /// var scene = SpoilerScene(layout: layout, preset: .dust, seed: 7)
    /// scene.step(by: 1.0 / 30)
    /// ```
    public init(layout: TextLayout, preset: Preset, options: SceneOptions = SceneOptions(), seed: UInt64 = 1) {
        self.init(words: SceneWord.words(of: layout), preset: preset, options: options, seed: seed)
    }
}
