public import SpoilerCore

/// One hidden word (or one line fragment of a wrapped word) as the effect sees it.
public struct SceneWord: Sendable, Hashable {
    /// The word's rectangle in pixels (origin at the layout's top-left, y downward).
    public var rect: SpoilerRect
    /// Grapheme clusters in the word (fragment); the birth rate is proportional to it.
    public var graphemes: Int
    /// Fragments of one word share a group; a reveal in `word` scope reveals the group.
    public var group: Int
    /// The spoiler entity the word belongs to (words of one entity share it); a reveal in
    /// `spoiler` scope reveals every word with the same entity. nil: the word is its own
    /// spoiler (its group stands for the entity).
    public var entity: Int?

    /// A word from its rectangle, length, group and (optionally) spoiler entity.
    public init(rect: SpoilerRect, graphemes: Int, group: Int, entity: Int? = nil) {
        self.rect = rect
        self.graphemes = graphemes
        self.group = group
        self.entity = entity
    }
}

/// What one reveal uncovers.
public enum RevealScope: String, Sendable, Hashable, CaseIterable {
    /// Every word of the spoiler entity under the click (``SceneWord/entity``): clicking
    /// `||the butler||` uncovers "the butler".
    ///
    /// The default (DESIGN.md §4).
    case spoiler
    /// The word under the click (all fragments of it), one word at a time.
    case word
    /// Every hidden word of the message at once, as Telegram does on one tap.
    case message
}

/// How a scene runs, apart from its words, preset and seed.
public struct SceneOptions: Sendable, Hashable {
    /// Particles per grapheme per second for the dust preset.
    ///
    /// Other presets scale by `density ÷ 20`. Default 20.
    public var density: Double = 20
    /// What one reveal uncovers.
    ///
    /// Default `spoiler`: every word of the clicked spoiler entity.
    public var revealScope: RevealScope = .spoiler
    /// A still pattern of dots with a fixed seed instead of motion, and instant reveals.
    ///
    /// Default false. (The command line sets it from `--reduced-motion` or `REDUCED_MOTION=1`; the
    /// effect module never reads the environment.)
    public var reducedMotion = false
    /// Simulation steps per second; every step is `1 / tickRate` seconds.
    ///
    /// Default 120.
    public var tickRate: Double = 120
    /// Seconds simulated before time 0 so that the first frame shows a settled cloud;
    /// nil (the default) means the longest lifetime of the preset's cells (at most 10 s).
    public var prewarm: Double?
    /// If set, replaces the colour of every cell (the ranges still apply).
    public var particleColor: RGBColor?

    /// The defaults.
    public init() {}
}

/// The timing of a reveal, after Telegram's iOS client: the circle starts 0.1 s after
/// the click, grows with ease-in-out for 0.55 s, and pushes particles away for 0.8 s;
/// hiding shrinks it back over 0.4 s.
public enum RevealTiming {
    /// Seconds from the click to the start of the circle's growth.
    public static let delay = 0.1
    /// Seconds the circle grows.
    public static let growth = 0.55
    /// Seconds particles are pushed away and fade.
    public static let push = 0.8
    /// Seconds a hide takes.
    public static let hide = 0.4
    /// Fraction of the radius inside which text is fully shown.
    public static let solid = 0.7
    /// Fraction of the radius beyond which text is not shown.
    public static let feather = 0.95
}

/// One scheduled or running reveal of a set of words.
public struct RevealState: Sendable, Hashable {
    /// The click, pixels.
    public var origin: SpoilerPoint
    /// Scene time of the click, seconds.
    public var start: Double
    /// The circle's final radius: the farthest corner of the revealed area ÷ 0.7, so that
    /// the whole area ends fully shown.
    public var finalRadius: Double
    /// Scene time at which hiding starts, if scheduled.
    public var hideStart: Double?
    /// Reduced motion: no growth, no delay, instant hide.
    public var isInstant: Bool

    /// The circle's radius at time `t`, or nil when nothing is shown.
    ///
    /// Nothing is shown before the click or after a hide has finished.
    ///
    /// 0 during the delay.
    public func radius(at t: Double) -> Double? {
        guard t >= start else { return nil }
        if let h = hideStart, t >= h {
            if isInstant { return nil }
            let p = (t - h) / RevealTiming.hide
            if p >= 1 { return nil }
            return grownRadius(at: h) * EffectMath.easeInOut(1 - p)
        }
        return grownRadius(at: t)
    }

    func grownRadius(at t: Double) -> Double {
        if isInstant { return finalRadius }
        return finalRadius * EffectMath.easeInOut((t - start - RevealTiming.delay) / RevealTiming.growth)
    }

    /// Text visibility 0…1 at `p` and time `t`: 1 within 0.7 of the radius, 0 beyond
    /// 0.95 of it, linear between.
    public func textVisibility(at p: SpoilerPoint, time t: Double) -> Double {
        guard let r = radius(at: t), r > 0 else { return 0 }
        let dx = p.x - origin.x
        let dy = p.y - origin.y
        let d = (dx * dx + dy * dy).squareRoot()
        let solid = RevealTiming.solid * r
        let feather = RevealTiming.feather * r
        if d <= solid { return 1 }
        if d >= feather { return 0 }
        return (feather - d) / (feather - solid)
    }

    /// Whether the reveal is in effect at `t` (clicked, and not hidden again).
    public func isActive(at t: Double) -> Bool { radius(at: t) != nil }

    /// Whether a hide has begun by `t`: the dust is returning (or back).
    ///
    /// From then on particles are born everywhere in the word again, kept in its
    /// rectangle and no longer pushed, so that the cloud is back when the circle is gone.
    public func isHiding(at t: Double) -> Bool { hideStart.map { t >= $0 } ?? false }
}
