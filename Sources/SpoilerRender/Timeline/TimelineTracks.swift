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

        /// The bytes a particle takes besides its samples (about): itself, its arrays'
        /// headers and allocations, its index entry.
        static let bytes = MemoryLayout<Particle>.stride + 96 + 24

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

    /// The most bytes of samples that one run of a timeline written a piece at a time
    /// records (about; a run always takes at least one track).
    static let recordBudget = 12 << 20

    /// The bytes of samples one run records for `scene`: 96 per live particle, 1 to 12 MiB
    /// (``RenderOutput/recordBudget(for:perParticle:cap:)``).
    static func recordBudget(for scene: SpoilerScene) -> Int {
        RenderOutput.recordBudget(for: scene, perParticle: 96, cap: recordBudget)
    }

    /// What the timeline writes of a particle besides its tracks.
    struct Entry {
        var word: Int32
        var shape: ParticleShape
        var color: UInt32
        var first: Int32
        var last: Int32
    }

    /// The list of particles (or confetti pieces) in order of first showing, with each one's
    /// index by id, and while they fit the budget their samples.
    struct Listing {
        var entries: [Entry] = []
        /// Each particle's place in `entries` by its id, -1 for none: the scene and the
        /// confetti number their particles 0, 1, 2, … as they are born, so this is one
        /// `Int32` per particle born, where a dictionary took three times that.
        var index: [Int32] = []

        /// The place in `entries` of the particle `id`, if it showed.
        func place(of id: UInt32) -> Int? {
            let i = Int(id)
            return i < index.count && index[i] >= 0 ? Int(index[i]) : nil
        }
        /// The particles with their samples; nil once they took more than the budget.
        var full: [Particle]? = []
        var fullBytes = 0

        /// Takes in the pieces shown in frame `k`: `particle(i)` for `i` in `0 ..< count`,
        /// those that are not nil.
        mutating func collect(count: Int, frame k: Int, budget: Int, _ particle: (Int) -> VisibleParticle?) {
            for i in 0..<count {
                guard let v = particle(i) else { continue }
                let id = v.id
                let p: Int
                if let known = place(of: id) {
                    p = known
                    entries[p].last = Int32(k)
                } else {
                    p = entries.count
                    if Int(id) >= index.count {
                        index.append(contentsOf: repeatElement(-1, count: Int(id) + 1 - index.count))
                    }
                    index[Int(id)] = Int32(p)
                    entries.append(Entry(word: v.word, shape: v.shape, color: v.color, first: Int32(k), last: Int32(k)))
                    if full != nil {
                        full!.append(Particle(word: Int(v.word), shape: v.shape, color: v.color, first: k))
                        fullBytes += Particle.bytes
                    }
                }
                guard full != nil else { continue }
                let before = full![p].samples.capacity * 8 + full![p].shown.capacity
                full![p].set(
                    frame: k, Double(v.x), Double(v.y), Double(v.size), Double(v.alpha), Double(v.rotation))
                fullBytes += full![p].samples.capacity * 8 + full![p].shown.capacity - before
                // Checked per particle: the first frame alone holds every particle.
                if fullBytes > budget { full = nil }
            }
        }
    }

    static func render(
        scene: inout SpoilerScene, layout: TextLayout, fps: Int, frameCount: Int, duration: Double,
        celebration party: inout Celebration?, budget: Int = .max, sink: PieceSink? = nil, into w: inout JSONWriter
    ) {
        let initial = (scene: scene, party: party)
        // The first run keeps every sample while they take a quarter of the budget (a
        // short render is simulated once); past that only the list, and the tracks come
        // from further runs.
        let fullBudget = budget == .max ? budget : budget / 4
        var particles = Listing()
        var pieces = Listing()
        var radii = [[Double?]](repeating: [], count: scene.words.count)
        // The scene's particles are read where they are, never copied; the confetti's
        // (a few thousand at most) through a copy.
        var visible = VisibleParticles()
        for k in 1..<(frameCount + 1) {
            let t = Double(k) / Double(fps)
            scene.advance(to: t)
            for i in scene.words.indices { radii[i].append(scene.revealRadius(word: i)) }
            particles.collect(count: scene.particles.count, frame: k, budget: fullBudget - pieces.fullBytes) {
                [scene] i in scene.visibleParticle(at: i)
            }
            if party != nil {
                party!.advance(to: t)
                party!.visibleParticles(into: &visible)
                pieces.collect(count: visible.count, frame: k, budget: fullBudget - particles.fullBytes) {
                    [visible] i in visible[i]
                }
            }
        }
        if particles.full == nil || pieces.full == nil {
            particles.full = nil
            pieces.full = nil
            // The tracks come from runs from time 0: the stepped scene is let go (a
            // caller that handed over its scene then holds the time-0 one and a run's).
            scene = initial.scene
        }
        for p in (particles.full ?? []).indices { particles.full![p].fillGaps() }
        for p in (pieces.full ?? []).indices { pieces.full![p].fillGaps() }

        // Palettes, in order of first use.
        var colors: [UInt32] = []
        var shapes: [ParticleShape] = []
        for list in [particles.entries, pieces.entries] {
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
                sink?.spill(&w.bytes)
            }
        }
        radii = []
        var source = ChannelSource(
            particles: particles, pieces: pieces, scene: initial.scene, party: initial.party, fps: fps,
            frameCount: frameCount, budget: budget)
        w.key("particles")
        w.object { w in
            w.key("word")
            w.array { w in
                for p in source.particles.entries {
                    w.number(Int(p.word))
                    sink?.spill(&w.bytes)
                }
            }
            write(&w, list: 0, source: &source, colors: colors, shapes: shapes, sink: sink)
        }
        if party != nil {
            w.key("confetti")
            w.object { w in write(&w, list: 1, source: &source, colors: colors, shapes: shapes, sink: sink) }
        }
    }

    /// The `first`, `last`, `color`, `shape` and channel-track arrays of list `list` of
    /// `source` (0: the particles, 1: the confetti).
    static func write(
        _ w: inout JSONWriter, list: Int, source: inout ChannelSource, colors: [UInt32], shapes: [ParticleShape],
        sink: PieceSink?
    ) {
        let entries = list == 0 ? source.particles.entries : source.pieces.entries
        for (key, value) in [
            ("first", { (p: Entry) in Int(p.first) }), ("last", { (p: Entry) in Int(p.last) }),
            ("color", { (p: Entry) in colors.firstIndex(of: p.color)! }),
            ("shape", { (p: Entry) in shapes.firstIndex(of: p.shape)! }),
        ] {
            w.key(key)
            w.array { w in
                for p in entries {
                    w.number(value(p))
                    sink?.spill(&w.bytes)
                }
            }
        }
        for (c, unit) in units.enumerated() {
            w.key(unit.name)
            w.array { w in
                for p in entries.indices {
                    let samples = source.channel(list: list, c, p)
                    w.array { w in for n in track(samples, perUnit: unit.perUnit) { w.number(n) } }
                    sink?.spill(&w.bytes)
                }
            }
        }
    }

    /// The samples of each channel of each particle, in the order the timeline writes
    /// them (channel by channel, particle by particle, the confetti after the particles):
    /// from the first run's record when it kept them all, or else from runs of the scene
    /// from time 0, each recording the next tracks that fit the budget.
    struct ChannelSource {
        let particles: Listing
        let pieces: Listing
        let scene: SpoilerScene
        let party: Celebration?
        let fps: Int
        let frameCount: Int
        let budget: Int
        /// The tracks the last run recorded (numbered as ``unit(list:_:_:)`` numbers them).
        private var recorded: Range<Int> = 0..<0
        /// Where each track of `recorded` starts in `values` and `shown` (and one more: the end).
        private var offsets: [Int] = []
        /// The recorded tracks' samples, one after another, per frame from the particle's first.
        private var values: [Float] = []
        /// Whether the particle showed in each of those frames.
        private var shown: [Bool] = []

        init(
            particles: Listing, pieces: Listing, scene: SpoilerScene, party: Celebration?, fps: Int, frameCount: Int,
            budget: Int
        ) {
            self.particles = particles
            self.pieces = pieces
            self.scene = scene
            self.party = party
            self.fps = fps
            self.frameCount = frameCount
            self.budget = budget
        }

        private var channels: Int { TimelineTracks.units.count }

        /// The number of track `c` of particle `p` of `list` in the order they are written.
        private func unit(list: Int, _ c: Int, _ p: Int) -> Int {
            list == 0
                ? c * particles.entries.count + p : channels * particles.entries.count + c * pieces.entries.count + p
        }

        private func entry(ofUnit u: Int) -> Entry {
            let n = channels * particles.entries.count
            return u < n
                ? particles.entries[u % particles.entries.count]
                : pieces.entries[(u - n) % pieces.entries.count]
        }

        /// Channel `c` of particle `p` of `list`, one sample per frame from its first to
        /// its last, the frames where it did not show filled as ``Particle/fillGaps()`` does.
        mutating func channel(list: Int, _ c: Int, _ p: Int) -> [Double] {
            if let full = list == 0 ? particles.full : pieces.full { return full[p].channel(c) }
            let u = unit(list: list, c, p)
            if !recorded.contains(u) { record(from: u) }
            let r = u - recorded.lowerBound
            let v = values[offsets[r]..<offsets[r + 1]]
            let s = shown[offsets[r]..<offsets[r + 1]]
            var out = v.map { Double($0) }
            var i = 0
            let base = s.startIndex
            while i < s.count {
                guard !s[base + i] else {
                    i += 1
                    continue
                }
                let a = i - 1  // shown (the first frame always is)
                var b = i
                while !s[base + b] { b += 1 }  // the last frame always shows
                for k in (a + 1)..<b {
                    let f = Double(k - a) / Double(b - a)
                    out[k] = c == 3 ? 0 : out[a] + (out[b] - out[a]) * f
                }
                i = b
            }
            return out
        }

        /// Runs the scene from time 0, recording the tracks from `start` on that fit the budget.
        private mutating func record(from start: Int) {
            values.removeAll(keepingCapacity: true)
            shown.removeAll(keepingCapacity: true)
            offsets.removeAll(keepingCapacity: true)
            let total = channels * (particles.entries.count + pieces.entries.count)
            var end = start
            var bytes = 0
            while end < total {
                let e = entry(ofUnit: end)
                let cost = Int(e.last - e.first + 1) * 5 + 8
                if end > start && bytes + cost > budget { break }
                bytes += cost
                end += 1
            }
            recorded = start..<end
            offsets.append(0)
            for u in recorded {
                let e = entry(ofUnit: u)
                offsets.append(offsets[offsets.count - 1] + Int(e.last - e.first + 1))
            }
            // The buffers of the previous run are reused (emptied, their capacity kept).
            values.append(contentsOf: repeatElement(0, count: offsets[offsets.count - 1]))
            shown.append(contentsOf: repeatElement(false, count: offsets[offsets.count - 1]))
            var scene = scene
            var party = party
            var visible = VisibleParticles()
            let n = channels * particles.entries.count
            for k in 1..<(frameCount + 1) {
                let t = Double(k) / Double(fps)
                if recorded.lowerBound < n {
                    scene.advance(to: t)
                    take(count: scene.particles.count, frame: k, list: 0) { [scene] i in scene.visibleParticle(at: i) }
                }
                if recorded.upperBound > n, party != nil {
                    party!.advance(to: t)
                    party!.visibleParticles(into: &visible)
                    take(count: visible.count, frame: k, list: 1) { [visible] i in visible[i] }
                }
            }
        }

        /// Records the samples shown in frame `k` (`particle(i)` for `i` in `0 ..< count`,
        /// those that are not nil) that belong to recorded tracks.
        private mutating func take(count: Int, frame k: Int, list: Int, _ particle: (Int) -> VisibleParticle?) {
            let listing = list == 0 ? particles : pieces
            for i in 0..<count {
                guard let v = particle(i), let p = listing.place(of: v.id) else { continue }
                let at = k - Int(listing.entries[p].first)
                for c in 0..<channels {
                    let u = unit(list: list, c, p)
                    guard recorded.contains(u) else { continue }
                    let o = offsets[u - recorded.lowerBound] + at
                    switch c {
                    case 0: values[o] = v.x
                    case 1: values[o] = v.y
                    case 2: values[o] = v.size
                    case 3: values[o] = v.alpha
                    default: values[o] = v.rotation
                    }
                    shown[o] = true
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
