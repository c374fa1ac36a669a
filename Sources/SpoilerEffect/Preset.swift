public import SpoilerCore

/// A named particle look: an emitter template that every hidden word gets a copy of.
///
/// Each word's emitter takes its shape, mode, multipliers, seed and cells from
/// ``emitter`` and its geometry from the word's rectangle (shrunk by ``inset``):
/// a `rectangle` covers it, a `line` runs along its top edge, a `circle` is centred in
/// it with radius half the shorter side, a `point` sits at its centre. The word's
/// birth-rate multiplier is `emitter.birthRate × graphemes × density ÷ 20`, so presets
/// are written for the default density of 20 particles per grapheme per second.
public struct Preset: Sendable, Hashable {
    /// The preset's name (`dust`, `confetti`, `snow`, or a file's `name`).
    public var name: String
    /// The emitter template (its position and size are replaced per word).
    public var emitter: Emitter
    /// Pixels by which each word's rectangle shrinks before it becomes the emitter shape.
    public var inset: Double
    /// What keeps particles near the word's rectangle.
    public var confinement: Confinement

    /// A preset from its parts.
    public init(name: String, emitter: Emitter, inset: Double = 0, confinement: Confinement = .none) {
        self.name = name
        self.emitter = emitter
        self.inset = inset
        self.confinement = confinement
    }

    /// The built-in presets by name.
    public static let builtIn: [String: Preset] = ["dust": .dust, "confetti": .confetti, "snow": .snow]

    /// The names of the built-in presets, sorted.
    public static let builtInNames: [String] = ["confetti", "dust", "snow"]

    /// The colour of secondary text (iOS `systemGray`), which Telegram's dust takes.
    public static let secondaryTextColor = RGBColor(red: 0x8E, green: 0x8E, blue: 0x93)

    /// Telegram's invisible ink, with the numbers of its iOS client: dots of about 1 px,
    /// 20 a second per grapheme, lifetime 1 s, speed 0 ± 20 px/s in every direction, a
    /// random start opacity that rises to full at mid-life and is gone by the end, the
    /// colour of secondary text, born inside the word rectangle shrunk by 1 px and kept
    /// inside the word's rectangle.
    public static var dust: Preset {
        var cell = EmitterCell()
        cell.name = "dustCell"
        cell.birthRate = 20
        cell.lifetime = 1
        cell.velocity = 0
        cell.velocityRange = 20
        cell.emissionRange = EffectMath.twoPi
        cell.alpha = 0.5
        cell.alphaRange = 0.5
        cell.alphaOverLife = [0, 0, 1, 0, -1]
        cell.color = secondaryTextColor
        cell.contents = .dot
        cell.contentsSize = 1
        var e = Emitter()
        e.emitterShape = .rectangle
        e.emitterMode = .surface
        e.emitterCells = [cell]
        return Preset(name: "dust", emitter: e, inset: 1, confinement: .bounce)
    }

    /// Confetti from a line along each word's top edge: red polygons (hexagons), green
    /// squares and blue stars, each cell with birth rate 3, lifetime 7 s, speed 200 ± 50
    /// px/s, longitude π (downward from a line), range π/4, spin 2 ± 3 rad/s, scale
    /// 0.75 ± 0.5 shrinking by 0.05 a second, 8 px across at scale 1.
    ///
    /// Used as a ``Celebration`` it falls from the top edge of the whole view instead.
    public static var confetti: Preset {
        let colors = [
            RGBColor(red: 0xFF, green: 0x3B, blue: 0x30), RGBColor(red: 0x34, green: 0xC7, blue: 0x59),
            RGBColor(red: 0x00, green: 0x7A, blue: 0xFF),
        ]
        let names = ["red", "green", "blue"]
        let shapes: [ParticleShape] = [.polygon, .square, .star]
        var e = Emitter()
        e.emitterShape = .line
        e.emitterMode = .surface
        e.emitterCells = colors.indices.map { k in
            var cell = EmitterCell()
            cell.name = names[k]
            cell.birthRate = 3
            cell.lifetime = 7
            cell.velocity = 200
            cell.velocityRange = 50
            cell.emissionLongitude = Double.pi
            cell.emissionRange = Double.pi / 4
            cell.spin = 2
            cell.spinRange = 3
            cell.scale = 0.75
            cell.scaleRange = 0.5
            cell.scaleSpeed = -0.05
            cell.color = colors[k]
            cell.contents = shapes[k]
            cell.contentsSize = 8
            return cell
        }
        return Preset(name: "confetti", emitter: e, inset: 0, confinement: .none)
    }

    /// Snow over each word: white flakes of about 2 px, 6 a second per grapheme, drifting
    /// down at 12 ± 6 px/s within ±30° of straight down for 3 ± 1 s, wrapping around
    /// the word's rectangle.
    public static var snow: Preset {
        var cell = EmitterCell()
        cell.name = "flake"
        cell.birthRate = 6
        cell.lifetime = 3
        cell.lifetimeRange = 1
        cell.velocity = 12
        cell.velocityRange = 6
        cell.emissionLongitude = Double.pi / 2
        cell.emissionRange = Double.pi / 3
        cell.yAcceleration = 2
        cell.scale = 1
        cell.scaleRange = 0.4
        cell.alpha = 0.8
        cell.alphaRange = 0.2
        cell.alphaOverLife = [-1, 0, 0, 0, -1]
        cell.color = RGBColor(red: 0xF2, green: 0xF6, blue: 0xFF)
        cell.contents = .star
        cell.contentsSize = 2
        var e = Emitter()
        e.emitterShape = .rectangle
        e.emitterMode = .surface
        e.emitterCells = [cell]
        return Preset(name: "snow", emitter: e, inset: 0, confinement: .wrap)
    }
}
