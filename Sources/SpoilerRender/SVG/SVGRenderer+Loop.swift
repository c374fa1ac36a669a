public import SpoilerCore
public import SpoilerEffect
public import SpoilerLayout

extension SVGRenderer {
    /// Writes `duration` seconds of the scene (from time 0) as an SVG that loops in a
    /// browser, with SMIL `<animate>` elements (no script, no CSS).
    ///
    /// The scene is sampled at `fps` frames per second; each particle becomes one element
    /// whose position, size, rotation and opacity are animated through the fewest
    /// keyframes that follow the samples within 0.05 px (0.01 in opacity). Without a
    /// reveal the loop is seamless: the particles born during one period are followed to
    /// their death and folded back onto the loop, so its end flows into its start. A word that
    /// is revealed during the loop is drawn under a mask whose circle grows and shrinks
    /// with the reveal; a word hidden for the whole loop has no text in the file. Viewers
    /// without animation (rsvg-convert) show the first frame.
    ///
    /// - Parameters:
    ///   - scene: a scene made from `layout`, at time 0, its reveals scheduled.
    ///   - layout: the message's layout, with graphemes.
    ///   - font: the bitmap font the layout was made with (nil for `mono`).
    ///   - style: colours and the font family.
    ///   - fps: samples per second.
    ///   - duration: the loop's length in seconds; 0 writes a still of time 0.
    ///   - formatting: the message's entities (bold, italic, underline, strikethrough).
    ///   - celebration: confetti over the view, if any.
    ///   - stage: the picture's size when it should be larger than the layout.
    ///   - out: the SVG is appended here.
    ///
    /// The scene is taken by value, as by every renderer: the loop steps a copy.
    /// - Complexity: O(frames × particles).
    public static func renderLoop(
        scene: SpoilerScene, layout: TextLayout, font: BitmapFont? = nil, style: SVGStyle = SVGStyle(),
        fps: FrameRate, duration: Double, formatting: [Entity] = [], celebration: Celebration? = nil,
        stage: SpoilerSize? = nil, into out: inout [UInt8]
    ) {
        var scene = scene
        stepLoop(
            scene: &scene, layout: layout, font: font, style: style, fps: fps.framesPerSecond, duration: duration,
            formatting: formatting, celebration: celebration, stage: stage, into: &out)
    }

    /// Writes the loop as
    /// ``renderLoop(scene:layout:font:style:fps:duration:formatting:celebration:stage:into:)-(_,_,_,_,FrameRate,_,_,_,_,_)``
    /// does, stepping the caller's scene through it (it is left at the loop's last sample).
    ///
    /// - Parameters:
    ///   - scene: a scene made from `layout`, at time 0, its reveals scheduled; stepped.
    ///   - layout: the message's layout, with graphemes.
    ///   - font: the bitmap font the layout was made with (nil for `mono`).
    ///   - style: colours and the font family.
    ///   - fps: samples per second; below 1 counts as 1.
    ///   - duration: the loop's length in seconds.
    ///   - formatting: the message's entities.
    ///   - celebration: confetti over the view, if any.
    ///   - stage: the picture's size when it should be larger than the layout.
    ///   - out: the SVG is appended here.
    @available(
        *, deprecated, message: "pass the scene by value and a FrameRate: renderLoop(scene: scene, …, fps: 30, …)"
    )
    public static func renderLoop(
        scene: inout SpoilerScene, layout: TextLayout, font: BitmapFont? = nil, style: SVGStyle = SVGStyle(), fps: Int,
        duration: Double, formatting: [Entity] = [], celebration: Celebration? = nil, stage: SpoilerSize? = nil,
        into out: inout [UInt8]
    ) {
        stepLoop(
            scene: &scene, layout: layout, font: font, style: style, fps: fps, duration: duration,
            formatting: formatting, celebration: celebration, stage: stage, into: &out)
    }

    static func stepLoop(
        scene: inout SpoilerScene, layout: TextLayout, font: BitmapFont?, style: SVGStyle, fps: Int,
        duration: Double, formatting: [Entity], celebration: Celebration?, stage: SpoilerSize?,
        into out: inout [UInt8]
    ) {
        var w = SVGWriter(into: out)
        out = []
        writeLoop(
            scene: &scene, layout: layout, font: font, style: style, fps: fps, duration: duration,
            formatting: formatting, celebration: celebration, stage: stage, budget: .max, to: &w)
        out = w.bytes
    }

    /// Writes `duration` seconds of the scene (from time 0) as an SVG that loops in a
    /// browser, a piece at a time: the bytes
    /// ``renderLoop(scene:layout:font:style:fps:duration:formatting:celebration:stage:into:)-(_,_,_,_,FrameRate,_,_,_,_,_)``
    /// appends, passed to `write` in pieces of about ``RenderOutput/pieceSize`` bytes.
    ///
    /// The particles are written word by word, each with all its samples, while the scene
    /// is simulated frame by frame; so that the samples of every particle are never held
    /// at once, the scene is simulated again from time 0 for each run of words whose
    /// samples fit a budget that grows with the scene (192 bytes per live particle, 1
    /// to 8 MiB; the simulation is deterministic, so every run sees the same particles);
    /// a word whose samples alone are over it is cut between its particles, and the next
    /// run goes on with it.
    /// Memory beyond the scene: that record, one piece and the reveal radii; time: the
    /// simulation once per run. The scene is stepped in place: a caller that passes its
    /// last copy (`consume scene`) holds the time-0 scene and one run's.
    ///
    /// ```swift
    /// try SVGRenderer.renderLoop(scene: scene, layout: layout, fps: 30, duration: 2) { piece in
    ///     try file.write(piece)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - scene: a scene made from `layout`, at time 0, its reveals scheduled; taken over
    ///     (a caller that keeps using its copy keeps it as it was).
    ///   - layout: the message's layout, with graphemes.
    ///   - font: the bitmap font the layout was made with (nil for `mono`).
    ///   - style: colours and the font family.
    ///   - fps: samples per second.
    ///   - duration: the loop's length in seconds; 0 writes a still of time 0.
    ///   - formatting: the message's entities (bold, italic, underline, strikethrough).
    ///   - celebration: confetti over the view, if any.
    ///   - stage: the picture's size when it should be larger than the layout.
    ///   - write: called with the SVG's UTF-8 bytes in order, in pieces; their concatenation
    ///     is the loop. The first error it throws stops the writing and is rethrown.
    /// - Complexity: O(frames × particles × runs).
    public static func renderLoop<E: Error>(
        scene: consuming SpoilerScene, layout: TextLayout, font: BitmapFont? = nil, style: SVGStyle = SVGStyle(),
        fps: FrameRate, duration: Double, formatting: [Entity] = [], celebration: Celebration? = nil,
        stage: SpoilerSize? = nil, write: ([UInt8]) throws(E) -> Void
    ) throws(E) {
        let budget = RenderOutput.recordBudget(for: scene, perParticle: 192, cap: recordBudget)
        try renderLoop(
            scene: scene, layout: layout, font: font, style: style, fps: fps, duration: duration,
            formatting: formatting, celebration: celebration, stage: stage, budget: budget, write: write)
    }

    /// As the public streaming `renderLoop`, with a budget for the record of one run
    /// (tests give a small one to make many runs).
    static func renderLoop<E: Error>(
        scene: consuming SpoilerScene, layout: TextLayout, font: BitmapFont? = nil, style: SVGStyle = SVGStyle(),
        fps: FrameRate, duration: Double, formatting: [Entity] = [], celebration: Celebration? = nil,
        stage: SpoilerSize? = nil, budget: Int, pieceSize: Int = RenderOutput.pieceSize,
        write: ([UInt8]) throws(E) -> Void
    ) throws(E) {
        try PieceSink.run(pieceSize: pieceSize, write) { sink in
            var w = SVGWriter(into: [], sink: sink)
            writeLoop(
                scene: &scene, layout: layout, font: font, style: style, fps: fps.framesPerSecond,
                duration: duration, formatting: formatting, celebration: celebration, stage: stage, budget: budget,
                to: &w)
            w.finish()
        }
    }

    /// The most bytes of particle samples that one run of a loop written a piece at a time
    /// records (about; a run always takes at least one particle's samples); a smaller scene
    /// records less: 192 bytes per live particle (``RenderOutput/recordBudget(for:perParticle:cap:)``).
    static let recordBudget = 8 << 20

    /// Writes the loop to `w`, simulating the scene once per run of words whose samples
    /// fit `budget` bytes (`.max`: one run); `scene` is left at the loop's last sample.
    static func writeLoop(
        scene: inout SpoilerScene, layout: TextLayout, font: BitmapFont?, style: SVGStyle, fps: Int,
        duration: Double, formatting: [Entity], celebration: Celebration?, stage: SpoilerSize?, budget: Int,
        to w: inout SVGWriter
    ) {
        let fps = max(fps, 1)
        let frames = Int((max(duration.isFinite ? duration : 0, 0) * Double(fps)).rounded())
        guard frames > 0 else {
            var party = celebration
            party?.advance(to: scene.time)
            writeStill(
                scene: scene, layout: layout, font: font, style: style, formatting: formatting, celebration: party,
                stage: stage, to: &w)
            return
        }
        let loop = Double(frames) / Double(fps)

        // A loop with no reveal is made seamless: only the particles born during one
        // period (0, duration] are drawn, each followed to its death and folded back onto
        // the loop (a particle still alive at the end continues, in a second element,
        // at the start). In a steady cloud that is exactly what the loop shows at every
        // instant, so the wrap does not show. With a reveal the loop restarts instead.
        let cells = scene.preset.emitter.emitterCells
        let longest = (cells.map { $0.lifetime + $0.lifetimeRange }.max() ?? 0) * scene.preset.emitter.lifetime
        let seamless =
            !scene.options.reducedMotion && scene.reveals.allSatisfy { $0 == nil } && longest.isFinite && longest > 0
            && longest <= 60 && celebration == nil
        let lastFrame = seamless ? frames + Int((longest * Double(fps)).rounded(.up)) + 1 : frames
        // The frames an element of a word can show in (the confetti's pieces live longer
        // than the dust: their elements' room grows as they need it).
        let maxFrames =
            !scene.options.reducedMotion && longest.isFinite && longest <= 60
            ? Int((longest * Double(fps)).rounded(.up)) + 2 : frames + 1

        // The groups of elements, in the order they are written: one per word, then the
        // celebration's. Each run records the groups from `firstGroup` on that fit.
        let initial = scene
        let wordCount = scene.words.count
        let celebrationGroup = wordCount
        var hasTracks = [Bool](repeating: false, count: wordCount + 1)
        var firstGroup = 0
        // Past the elements of `firstGroup` an earlier run recorded, when it cut that group.
        var firstElement = 0
        var run = 0
        var durText = ""
        while true {
            scene = initial
            var party = celebration
            var record = LoopRecord(
                groups: firstGroup..<(wordCount + 1), firstElement: firstElement, frames: frames,
                maxFrames: maxFrames, budget: budget)
            var bounds = Bounds(layout: layout, stage: stage)
            var radii = [[Double]](repeating: [], count: run == 0 ? wordCount : 0)
            var visible = VisibleParticles()
            for k in 0...lastFrame {
                let t = Double(k) / Double(fps)
                scene.advance(to: t)
                if run == 0 && k <= frames {
                    for w in scene.words.indices { radii[w].append(scene.revealRadius(word: w) ?? 0) }
                }
                scene.visibleParticles(into: &visible)
                for i in 0..<visible.count {
                    // (element, frame within the loop) pairs this sample belongs to.
                    var places: [(j: Int, frame: Int)] = []
                    if seamless {
                        let birth = t - Double(visible.age[i])
                        guard birth > 0, birth <= loop + 1e-9 else { continue }
                        let j = k / frames
                        places.append((j, k - j * frames))
                        if k % frames == 0 && j > 0 { places.append((j - 1, frames)) }
                    } else {
                        places.append((0, k))
                    }
                    let word = Int(visible.word[i])
                    let group = word >= 0 && word < wordCount ? word : nil
                    if run == 0 {
                        bounds.include(x: Double(visible.x[i]), y: Double(visible.y[i]), size: Double(visible.size[i]))
                        if let group { hasTracks[group] = true }
                    }
                    guard let group, record.records(group) else { continue }
                    for (j, frame) in places {
                        record.set(
                            group: group, key: UInt64(visible.id[i]) << 16 | UInt64(j), frame: frame,
                            of: visible, i)
                    }
                }
                if k <= frames, party != nil {
                    party!.advance(to: t)
                    let pieces = party!.visibleParticles()
                    for i in 0..<pieces.count {
                        if run == 0 {
                            bounds.include(
                                x: Double(pieces.x[i]), y: Double(pieces.y[i]), size: Double(pieces.size[i]))
                            hasTracks[celebrationGroup] = true
                        }
                        guard record.records(celebrationGroup) else { continue }
                        record.set(
                            group: celebrationGroup, key: UInt64(1) << 63 | UInt64(pieces.id[i]), frame: k,
                            of: pieces, i)
                    }
                }
                record.keepWithinBudget()
            }

            if run == 0 {
                openDocument(&w, bounds: bounds, style: style)
                var dur = SVGWriter(into: [])
                dur.number(loop, 4)
                durText = String(decoding: dur.bytes, as: UTF8.self)
                writeMasksAndText(
                    &w, scene: scene, layout: layout, font: font, style: style, formatting: formatting,
                    frames: frames, dur: durText, radii: radii)
            }
            for group in record.written {
                let tracks = record.tracks[group - firstGroup]
                // A group cut by the budget is opened by the run that starts it and closed by
                // the run that ends it.
                let opens = group != firstGroup || firstElement == 0
                let closes = group != record.written.upperBound - 1 || record.elementEnd == nil
                guard !tracks.isEmpty || !opens else { continue }
                if opens {
                    if group == celebrationGroup {
                        w.raw("<g class=\"celebration\">\n")
                    } else {
                        openWordGroup(&w, titled: true)
                    }
                }
                for t in tracks {
                    track(
                        &w, t.expanded(word: group == celebrationGroup ? celebrationWord : group, frames: frames),
                        frames: frames, dur: durText)
                }
                if closes { w.raw("</g>\n") }
            }
            if let cut = record.elementEnd {
                firstGroup = record.written.upperBound - 1
                firstElement = cut
            } else {
                firstGroup = record.written.upperBound
                firstElement = 0
                while firstGroup <= wordCount && !hasTracks[firstGroup] { firstGroup += 1 }
            }
            run += 1
            if firstGroup > wordCount || w.sink?.stopped == true { break }
        }
        w.raw("</svg>\n")
    }

    /// The reveal masks (one per reveal that shows at some point of the loop) and the
    /// text: plain text in full, revealed words under their masks.
    static func writeMasksAndText(
        _ w: inout SVGWriter, scene: SpoilerScene, layout: TextLayout, font: BitmapFont?, style: SVGStyle,
        formatting: [Entity], frames: Int, dur durText: String, radii: [[Double]]
    ) {
        let text = SVGText(layout: layout, font: font, style: style, formatting: formatting)
        var masks: [RevealState] = []
        var maskOf = [Int?](repeating: nil, count: scene.words.count)
        for i in scene.words.indices where radii[i].contains(where: { $0 > 0 }) {
            guard let state = scene.reveals[i] else { continue }
            if let m = masks.firstIndex(of: state) {
                maskOf[i] = m
            } else {
                maskOf[i] = masks.count
                masks.append(state)
            }
        }
        if !masks.isEmpty {
            w.raw("<defs>\n")
            gradient(&w)
            for (m, state) in masks.enumerated() {
                let word = maskOf.firstIndex(of: m)!
                revealMaskOpening(&w, id: m, layout: layout, origin: state.origin, radius: radii[word][0])
                w.raw(">")
                animate(&w, "r", frames: frames, dur: durText, channels: [radii[word]], tolerance: [0.05]) { w, k in
                    w.number(radii[word][k])
                }
                w.raw("</circle></mask>\n")
            }
            w.raw("</defs>\n")
        }

        text.open(&w)
        text.draw(&w) { g in g.word == nil }
        w.raw("</g>\n")
        for m in masks.indices {
            text.open(&w, mask: "reveal\(m)")
            text.draw(&w) { g in g.word.map { $0 < maskOf.count && maskOf[$0] == m } ?? false }
            w.raw("</g>\n")
        }
    }

    /// One particle's samples over the loop.
    struct Track {
        var word: Int
        var shape: ParticleShape
        var color: UInt32
        var x: [Double], y: [Double], size: [Double], rotation: [Double], alpha: [Double]
        var alive: [Bool]

        init(word: Int, shape: ParticleShape, color: UInt32, frames: Int) {
            self.word = word
            self.shape = shape
            self.color = color
            x = Array(repeating: 0, count: frames + 1)
            y = x
            size = x
            rotation = x
            alpha = x
            alive = Array(repeating: false, count: frames + 1)
        }

        mutating func set(_ k: Int, x px: Double, y py: Double, size s: Double, rotation r: Double, alpha a: Double) {
            x[k] = px
            y[k] = py
            size[k] = s
            rotation[k] = r
            alpha[k] = a
            alive[k] = true
        }

        /// Fills the frames outside the particle's life with its nearest known state
        /// (invisible there: opacity 0), so that it does not fly in from elsewhere.
        mutating func hold() {
            guard let first = alive.firstIndex(of: true), let last = alive.lastIndex(of: true) else { return }
            for k in alive.indices where !alive[k] {
                let from = k < first ? first : (k > last ? last : (alive[..<k].lastIndex(of: true) ?? first))
                x[k] = x[from]
                y[k] = y[from]
                size[k] = size[from]
                rotation[k] = rotation[from]
            }
        }
    }

    static func track(_ w: inout SVGWriter, _ t: Track, frames: Int, dur: String) {
        var t = t
        t.hold()
        let degrees = t.rotation.map { $0 * 180 / Double.pi }
        let opacity = {
            (w: inout SVGWriter) in
            w.raw(" fill=\"")
            w.color(t.color)
            w.raw("\" opacity=\"")
            w.number(t.alpha[0], 3)
            w.raw("\">")
        }
        switch t.shape {
        case .dot:
            w.raw("<circle cx=\"")
            w.number(t.x[0])
            w.raw("\" cy=\"")
            w.number(t.y[0])
            w.raw("\" r=\"")
            w.number(t.size[0] / 2)
            w.raw("\"")
            opacity(&w)
            animatePair(&w, "cx", "cy", frames: frames, dur: dur, t.x, t.y)
            if t.size.contains(where: { $0 != t.size[0] }) {
                animate(&w, "r", frames: frames, dur: dur, channels: [t.size], tolerance: [0.04]) { w, k in
                    w.number(t.size[k] / 2)
                }
            }
            animate(&w, "opacity", frames: frames, dur: dur, channels: [t.alpha], tolerance: [0.01]) { w, k in
                w.number(t.alpha[k], 3)
            }
            w.raw("</circle>\n")
        case .square, .polygon, .star:
            // Outer group: position; the shape inside: rotation and scale about its centre.
            w.raw("<g transform=\"translate(")
            w.number(t.x[0])
            w.raw(" ")
            w.number(t.y[0])
            w.raw(")\">")
            transform(
                &w, "translate", frames: frames, dur: dur, channels: [t.x, t.y], tolerance: [0.05, 0.05],
                additive: false
            ) { w, k in
                w.number(t.x[k])
                w.raw(" ")
                w.number(t.y[k])
            }
            w.raw("<polygon points=\"")
            shapePoints(&w, shape: t.shape, x: 0, y: 0, size: 1, rotation: 0)
            w.raw("\" transform=\"rotate(")
            w.number(degrees[0], 1)
            w.raw(") scale(")
            w.number(t.size[0])
            w.raw(")\"")
            opacity(&w)
            transform(&w, "rotate", frames: frames, dur: dur, channels: [degrees], tolerance: [0.5], additive: false) {
                w, k in
                w.number(degrees[k], 1)
            }
            transform(&w, "scale", frames: frames, dur: dur, channels: [t.size], tolerance: [0.02], additive: true) {
                w, k in
                w.number(t.size[k])
            }
            animate(&w, "opacity", frames: frames, dur: dur, channels: [t.alpha], tolerance: [0.01]) { w, k in
                w.number(t.alpha[k], 3)
            }
            w.raw("</polygon></g>\n")
        }
    }

    static func animatePair(
        _ w: inout SVGWriter, _ a: StaticString, _ b: StaticString, frames: Int, dur: String, _ xs: [Double],
        _ ys: [Double]
    ) {
        let keep = KeyframeSimplifier.keep([xs, ys], tolerance: [0.05, 0.05])
        if keep.count > 2 || xs[0] != xs[frames] || ys[0] != ys[frames] {
            animate(&w, a, keep: keep, frames: frames, dur: dur) { w, k in w.number(xs[k]) }
            animate(&w, b, keep: keep, frames: frames, dur: dur) { w, k in w.number(ys[k]) }
        }
    }

    /// An `<animate>` of `attribute` through the kept keyframes (nothing if constant).
    static func animate(
        _ w: inout SVGWriter, _ attribute: StaticString, frames: Int, dur: String, channels: [[Double]],
        tolerance: [Double], value: (inout SVGWriter, Int) -> Void
    ) {
        let keep = KeyframeSimplifier.keep(channels, tolerance: tolerance)
        if keep.count == 2, channels.allSatisfy({ $0[keep[0]] == $0[keep[1]] }) { return }
        animate(&w, attribute, keep: keep, frames: frames, dur: dur, value: value)
    }

    static func animate(
        _ w: inout SVGWriter, _ attribute: StaticString, keep: [Int], frames: Int, dur: String,
        value: (inout SVGWriter, Int) -> Void
    ) {
        w.raw("<animate attributeName=\"")
        w.raw(attribute)
        w.raw("\" dur=\"")
        w.raw(dur)
        w.raw("s\" repeatCount=\"indefinite\"")
        keyframes(&w, keep: keep, frames: frames, value: value)
        w.raw("/>")
    }

    static func transform(
        _ w: inout SVGWriter, _ type: StaticString, frames: Int, dur: String, channels: [[Double]], tolerance: [Double],
        additive: Bool, value: (inout SVGWriter, Int) -> Void
    ) {
        let keep = KeyframeSimplifier.keep(channels, tolerance: tolerance)
        if keep.count == 2, channels.allSatisfy({ $0[keep[0]] == $0[keep[1]] }) { return }
        w.raw("<animateTransform attributeName=\"transform\" type=\"")
        w.raw(type)
        w.raw("\"")
        if additive { w.raw(" additive=\"sum\"") }
        w.raw(" dur=\"")
        w.raw(dur)
        w.raw("s\" repeatCount=\"indefinite\"")
        keyframes(&w, keep: keep, frames: frames, value: value)
        w.raw("/>")
    }

    static func keyframes(_ w: inout SVGWriter, keep: [Int], frames: Int, value: (inout SVGWriter, Int) -> Void) {
        w.raw(" keyTimes=\"")
        for (n, k) in keep.enumerated() {
            if n > 0 { w.raw(";") }
            w.number(Double(k) / Double(frames), 5)
        }
        w.raw("\" values=\"")
        for (n, k) in keep.enumerated() {
            if n > 0 { w.raw(";") }
            value(&w, k)
        }
        w.raw("\"")
    }
}
