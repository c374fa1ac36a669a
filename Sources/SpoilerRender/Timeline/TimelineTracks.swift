import SpoilerCore
import SpoilerEffect
import SpoilerLayout

/// The compact timeline (``TimelineForm/tracks``): each particle written once, its
/// channels as quantised integer keyframes.
///
/// A channel's samples (one per frame the particle shows) are thinned by
/// ``KeyframeSimplifier`` at half a quantisation step and the kept ones written as
/// integers (the value times ``units``), delta-coded: `[v0, d1, dv1, d2, dv2, …]`, where
/// `d` is the number of frames since the previous keyframe and `dv` the change of the
/// integer. Between keyframes a client interpolates linearly; after the last one the
/// value holds. Rounding (half a step) plus simplification (half a step) keep every
/// decoded value within one step of the scene's.
enum TimelineTracks {
    /// Integer units per pixel (x, y, size), per unit of opacity and per radian.
    static let units: [(name: String, perUnit: Double)] = [
        ("x", 20), ("y", 20), ("size", 20), ("alpha", 100), ("rotation", 100),
    ]

    /// One particle's samples from its first visible frame to its last.
    ///
    /// The samples sit in one array, a frame's channels together, so that a particle
    /// takes two allocations however many channels it has (a render within the limits
    /// can hold hundreds of thousands of particles).
    struct Particle {
        var word: Int
        var shape: ParticleShape
        var color: UInt32
        var first: Int
        /// Per frame from `first`, one sample per channel (in ``units`` order).
        var samples: [Double] = []
        /// Whether the particle showed in each frame from `first`.
        var shown: [Bool] = []

        var last: Int { first + shown.count - 1 }

        /// The samples of channel `c`, one per frame from `first`.
        func channel(_ c: Int) -> [Double] {
            let n = TimelineTracks.units.count
            return (0..<shown.count).map { samples[$0 * n + c] }
        }

        mutating func set(frame k: Int, _ x: Double, _ y: Double, _ size: Double, _ alpha: Double, _ rotation: Double) {
            let i = k - first
            let n = TimelineTracks.units.count
            while shown.count <= i {
                shown.append(false)
                samples.append(contentsOf: repeatElement(0, count: n))
            }
            shown[i] = true
            samples[i * n] = x
            samples[i * n + 1] = y
            samples[i * n + 2] = size
            samples[i * n + 3] = alpha
            samples[i * n + 4] = rotation
        }

        /// Gives the frames inside the life where the particle did not show opacity 0
        /// and a position on the line between the samples around them.
        mutating func fillGaps() {
            let alpha = 3
            let n = TimelineTracks.units.count
            var i = 0
            while i < shown.count {
                guard !shown[i] else {
                    i += 1
                    continue
                }
                let a = i - 1  // shown (the first frame always is)
                var b = i
                while !shown[b] { b += 1 }  // the last frame always shows
                for k in (a + 1)..<b {
                    let s = Double(k - a) / Double(b - a)
                    for c in 0..<n {
                        samples[k * n + c] =
                            c == alpha ? 0 : samples[a * n + c] + (samples[b * n + c] - samples[a * n + c]) * s
                    }
                }
                i = b
            }
        }
    }

    /// Collects the pieces of `visible` shown in frame `k` into `particles`, a piece's
    /// index there found by its id in `index`.
    static func collect(
        _ visible: VisibleParticles, frame k: Int, into particles: inout [Particle], index: inout [UInt32: Int]
    ) {
        for i in 0..<visible.count {
            let id = visible.id[i]
            let p: Int
            if let known = index[id] {
                p = known
            } else {
                p = particles.count
                index[id] = p
                particles.append(
                    Particle(word: Int(visible.word[i]), shape: visible.shape[i], color: visible.color[i], first: k))
            }
            particles[p].set(
                frame: k, Double(visible.x[i]), Double(visible.y[i]), Double(visible.size[i]),
                Double(visible.alpha[i]), Double(visible.rotation[i]))
        }
    }

    static func render(
        scene: inout SpoilerScene, layout: TextLayout, fps: Int, frameCount: Int, duration: Double,
        celebration party: inout Celebration?, into w: inout JSONWriter
    ) {
        var particles: [Particle] = []
        var index: [UInt32: Int] = [:]
        var pieces: [Particle] = []
        var pieceIndex: [UInt32: Int] = [:]
        var radii = [[Double?]](repeating: [], count: scene.words.count)
        var visible = VisibleParticles()
        for k in 1..<(frameCount + 1) {
            let t = Double(k) / Double(fps)
            scene.advance(to: t)
            for i in scene.words.indices { radii[i].append(scene.revealRadius(word: i)) }
            scene.visibleParticles(into: &visible)
            collect(visible, frame: k, into: &particles, index: &index)
            if party != nil {
                party!.advance(to: t)
                party!.visibleParticles(into: &visible)
                collect(visible, frame: k, into: &pieces, index: &pieceIndex)
            }
        }
        for p in particles.indices { particles[p].fillGaps() }
        for p in pieces.indices { pieces[p].fillGaps() }

        // Palettes, in order of first use.
        var colors: [UInt32] = []
        var shapes: [ParticleShape] = []
        for list in [particles, pieces] {
            for p in list {
                if !colors.contains(p.color) { colors.append(p.color) }
                if !shapes.contains(p.shape) { shapes.append(p.shape) }
            }
        }

        w.key("format"); w.string("tracks")
        header(&w, scene: scene, layout: layout, fps: fps, duration: duration)
        if let party { celebrationHeader(&w, party) }
        w.key("frameCount"); w.number(frameCount)
        w.key("units")
        w.object { w in for u in units { w.key(u.name); w.number(Int(u.perUnit)) } }
        w.key("colors")
        w.array { w in for c in colors { w.string(hex(c)) } }
        w.key("shapes")
        w.array { w in for s in shapes { w.string(s.rawValue) } }
        w.key("reveal")
        w.array { w in
            for word in radii {
                w.array { w in for r in word { if let r { w.number(r, decimals: 2) } else { w.null() } } }
            }
        }
        w.key("particles")
        w.object { w in
            w.key("word"); w.array { w in for p in particles { w.number(p.word) } }
            write(&w, particles, colors: colors, shapes: shapes)
        }
        if party != nil {
            w.key("confetti")
            w.object { w in write(&w, pieces, colors: colors, shapes: shapes) }
        }
    }

    /// The `first`, `last`, `color`, `shape` and channel-track arrays of `particles`.
    static func write(_ w: inout JSONWriter, _ particles: [Particle], colors: [UInt32], shapes: [ParticleShape]) {
        w.key("first"); w.array { w in for p in particles { w.number(p.first) } }
        w.key("last"); w.array { w in for p in particles { w.number(p.last) } }
        w.key("color"); w.array { w in for p in particles { w.number(colors.firstIndex(of: p.color)!) } }
        w.key("shape"); w.array { w in for p in particles { w.number(shapes.firstIndex(of: p.shape)!) } }
        for (c, unit) in units.enumerated() {
            w.key(unit.name)
            w.array { w in
                for p in particles {
                    w.array { w in for n in track(p.channel(c), perUnit: unit.perUnit) { w.number(n) } }
                }
            }
        }
    }

    /// `"celebration"`: when the confetti starts and the area it falls over.
    static func celebrationHeader(_ w: inout JSONWriter, _ party: Celebration) {
        w.key("celebration")
        w.object { w in
            w.key("start"); w.number(party.start, decimals: 4)
            w.key("x"); w.number(party.view.x, decimals: 2)
            w.key("y"); w.number(party.view.y, decimals: 2)
            w.key("width"); w.number(party.view.width, decimals: 2)
            w.key("height"); w.number(party.view.height, decimals: 2)
        }
    }

    /// The delta-coded keyframes of one channel: `[v0, d1, dv1, …]`, trailing keyframes
    /// that do not change the value left out.
    static func track(_ samples: [Double], perUnit: Double) -> [Int] {
        let kept = KeyframeSimplifier.keep([samples], tolerance: [0.5 / perUnit])
        var out: [Int] = []
        var previous = (frame: 0, value: 0)
        var lastChange = 1
        for (n, k) in kept.enumerated() {
            let v = Int((samples[k] * perUnit).rounded())
            if n == 0 {
                out.append(v)
            } else {
                out.append(k - previous.frame)
                out.append(v - previous.value)
                if v != previous.value { lastChange = out.count }
            }
            previous = (k, v)
        }
        out.removeSubrange(lastChange...)
        return out
    }

    static func hex(_ v: UInt32) -> String {
        RGBColor(red: UInt8(v >> 16 & 0xFF), green: UInt8(v >> 8 & 0xFF), blue: UInt8(v & 0xFF)).hexString
    }

    /// The keys both forms share: the options and the word rectangles.
    static func header(_ w: inout JSONWriter, scene: SpoilerScene, layout: TextLayout, fps: Int, duration: Double) {
        w.key("fps"); w.number(fps)
        w.key("duration"); w.number(duration, decimals: 4)
        w.key("seed"); w.number(scene.seed)
        w.key("preset"); w.string(scene.preset.name)
        w.key("width"); w.number(layout.width)
        w.key("height"); w.number(layout.height)
        w.key("words")
        w.array { w in
            for box in layout.words {
                w.object { w in
                    w.key("x"); w.number(box.rect.x, decimals: 2)
                    w.key("y"); w.number(box.rect.y, decimals: 2)
                    w.key("width"); w.number(box.rect.width, decimals: 2)
                    w.key("height"); w.number(box.rect.height, decimals: 2)
                    w.key("graphemes"); w.number(box.graphemes)
                }
            }
        }
    }
}
