public import SpoilerCore
public import SpoilerEffect
public import SpoilerLayout

/// The two shapes of the JSON timeline.
public enum TimelineForm: String, Sendable, Hashable, CaseIterable {
    /// The compact form (the default): `"format": "tracks"`, each particle written once
    /// with its word, first and last frame, colour and shape, and one track of quantised,
    /// delta-coded integer keyframes per channel (x, y, size, alpha, rotation); the reveal
    /// radii per word and frame. About a fifth of ``frames``' size. See the README's
    /// "JSON timeline" section for the keys and a decoder.
    case tracks
    /// DESIGN.md §5's per-frame form: for every frame its time, the reveal radii and the
    /// particles that show as columnar arrays.
    case frames
}

/// Writes the effect as a JSON timeline (DESIGN.md §5) that a web, game or app developer can
/// play back: ``TimelineForm/tracks`` (compact, the default) or ``TimelineForm/frames``.
///
/// The per-frame form:
///
/// ```json
/// {"fps":30,"duration":2,"seed":1,"preset":"dust","width":96,"height":16,
///  "words":[{"x":24,"y":0,"width":48,"height":16,"graphemes":6}],
///  "frames":[{"t":0.0333,"reveal":[null],
///             "particles":{"word":[0,…],"x":[25.31,…],"y":[3.5,…],"size":[1,…],
///                          "alpha":[0.412,…],"color":["#8e8e93",…]}}]}
/// ```
///
/// The compact form:
///
/// ```json
/// {"format":"tracks","fps":30,"duration":2,"seed":1,"preset":"dust","width":96,"height":16,
///  "words":[…],"frameCount":60,"units":{"x":20,"y":20,"size":20,"alpha":100,"rotation":100},
///  "colors":["#8e8e93"],"shapes":["dot"],"reveal":[[null,…,0,3.51,…]],
///  "particles":{"word":[0,…],"first":[1,…],"last":[24,…],"color":[0,…],"shape":[0,…],
///               "x":[[506,23,-13],…],"y":[…],"size":[[20],…],"alpha":[[41,6,35,…],…],
///               "rotation":[[0],…]}}
/// ```
///
/// Frames are at `t = k / fps` for `k = 1 … round(duration × fps)`, in seconds from the
/// start (the cloud is already settled at 0). `reveal` holds, per word, the reveal
/// circle's radius in pixels, or null while the word is hidden. The particles are those
/// that show (opacity above zero): the word index, the centre in pixels (origin top-left,
/// y down), the diameter in pixels, the opacity 0…1 and the colour. In the frames form,
/// numbers are written with `t` to 4 decimals, pixels 2, opacity 3, trailing zeros
/// dropped. In the tracks form, a track `[v0, d1, dv1, d2, dv2, …]` starts at the
/// particle's `first` frame with the integer `v0`; each pair moves `d` frames on and
/// changes the integer by `dv`; values in between are interpolated linearly, and after
/// the last keyframe the value holds until `last`. The value is the integer divided by
/// `units[channel]`, within one unit of the scene's (a particle whose decoded opacity is
/// 0 or less is not drawn). No word's text appears anywhere in the timeline.
///
/// With a celebration both forms also have `"celebration"`: its start in seconds and the
/// area it falls over (`x`, `y`, `width`, `height`, in the layout's pixels). In the frames
/// form every frame then has `"confetti"`: the pieces that show, as `x`, `y`, `size`,
/// `alpha`, `color`, `rotation` (radians, 3 decimals) and `shape` (`polygon`, `square`,
/// `star`, `dot`) arrays. In the tracks form `"confetti"` lists every piece once, with the
/// keys and tracks of `"particles"` but no `word`.
public enum TimelineRenderer {
    /// Appends the timeline of `scene` (at time 0) to `out`, stepping the scene through
    /// `duration` seconds at `fps` frames per second.
    ///
    /// - Parameters:
    ///   - scene: a scene made from `layout`, at time 0, with its reveals scheduled.
    ///   - layout: the laid-out message (only its size and word boxes are written).
    ///   - fps: frames per second.
    ///   - duration: seconds, at least 0.
    ///   - form: ``TimelineForm/tracks`` (the default) or ``TimelineForm/frames``.
    ///   - celebration: confetti over the view from the last reveal, if any.
    ///   - out: the JSON (one line, no trailing newline) is appended here.
    ///
    /// The scene is taken by value, as by every renderer: the timeline steps a copy.
    /// - Complexity: O(frames × particles).
    public static func render(
        scene: SpoilerScene, layout: TextLayout, fps: FrameRate, duration: Double, form: TimelineForm = .tracks,
        celebration: Celebration? = nil, into out: inout [UInt8]
    ) {
        var scene = scene
        step(
            scene: &scene, layout: layout, fps: fps.framesPerSecond, duration: duration, form: form,
            celebration: celebration, into: &out)
    }

    /// Writes the timeline as
    /// ``render(scene:layout:fps:duration:form:celebration:into:)-(_,_,FrameRate,_,_,_,_)`` does,
    /// stepping the caller's scene through it (it is left at the last frame).
    ///
    /// - Parameters:
    ///   - scene: a scene made from `layout`, at time 0, with its reveals scheduled; stepped.
    ///   - layout: the laid-out message.
    ///   - fps: frames per second; below 1 counts as 1.
    ///   - duration: seconds, at least 0.
    ///   - form: the timeline's shape.
    ///   - celebration: confetti over the view from the last reveal, if any.
    ///   - out: the JSON is appended here.
    @available(*, deprecated, message: "pass the scene by value and a FrameRate: render(scene: scene, …, fps: 30, …)")
    public static func render(
        scene: inout SpoilerScene, layout: TextLayout, fps: Int, duration: Double, form: TimelineForm = .tracks,
        celebration: Celebration? = nil,
        into out: inout [UInt8]
    ) {
        step(
            scene: &scene, layout: layout, fps: fps, duration: duration, form: form, celebration: celebration,
            into: &out)
    }

    /// Writes the timeline of `scene` (at time 0) a piece at a time: the bytes
    /// ``render(scene:layout:fps:duration:form:celebration:into:)-(_,_,FrameRate,_,_,_,_)``
    /// appends, passed to `write` in pieces of about ``RenderOutput/pieceSize`` bytes, so
    /// that the timeline is never held whole.
    ///
    /// The frames form is written frame by frame as the scene is stepped. The tracks form
    /// writes each channel of every particle in turn; so that the samples of every
    /// particle are never held at once, it steps the scene once for the particles' list
    /// (their word, first and last frame, colour and shape: a few bytes each, kept), and
    /// again from time 0 for each run of tracks whose samples fit a budget that grows with
    /// the scene (96 bytes per live particle, 1 to 12 MiB; the simulation is
    /// deterministic, so every run sees the same particles). The scene's particles are
    /// read where they are, never copied, and the scene is stepped in place: a caller that
    /// passes its last copy (`consume scene`) holds the time-0 scene and one run's.
    ///
    /// ```swift
    /// try TimelineRenderer.render(scene: scene, layout: layout, fps: 30, duration: 2) { piece in
    ///     try file.write(piece)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - scene: a scene made from `layout`, at time 0, with its reveals scheduled; taken
    ///     over (a caller that keeps using its copy keeps it as it was).
    ///   - layout: the laid-out message (only its size and word boxes are written).
    ///   - fps: frames per second.
    ///   - duration: seconds, at least 0.
    ///   - form: ``TimelineForm/tracks`` (the default) or ``TimelineForm/frames``.
    ///   - celebration: confetti over the view from the last reveal, if any.
    ///   - write: called with the JSON's UTF-8 bytes (one line, no trailing newline) in
    ///     order, in pieces; their concatenation is the timeline. The first error it
    ///     throws stops the writing and is rethrown.
    /// - Complexity: O(frames × particles) for the frames form, O(frames × particles ×
    ///   runs) for the tracks form.
    public static func render<E: Error>(
        scene: consuming SpoilerScene, layout: TextLayout, fps: FrameRate, duration: Double,
        form: TimelineForm = .tracks, celebration: Celebration? = nil, write: ([UInt8]) throws(E) -> Void
    ) throws(E) {
        let budget = TimelineTracks.recordBudget(for: scene)
        try render(
            scene: scene, layout: layout, fps: fps, duration: duration, form: form, celebration: celebration,
            budget: budget, write: write)
    }

    /// As the public streaming `render`, with a budget for the samples of one run of the
    /// tracks form (tests give a small one to make many runs).
    static func render<E: Error>(
        scene: consuming SpoilerScene, layout: TextLayout, fps: FrameRate, duration: Double,
        form: TimelineForm = .tracks, celebration: Celebration? = nil, budget: Int,
        pieceSize: Int = RenderOutput.pieceSize, write: ([UInt8]) throws(E) -> Void
    ) throws(E) {
        try PieceSink.run(pieceSize: pieceSize, write) { sink in
            var out: [UInt8] = []
            step(
                scene: &scene, layout: layout, fps: fps.framesPerSecond, duration: duration, form: form,
                celebration: celebration, budget: budget, sink: sink, into: &out)
            sink.pass(&out)
        }
    }

    static func step(
        scene: inout SpoilerScene, layout: TextLayout, fps: Int, duration: Double, form: TimelineForm,
        celebration: Celebration?, budget: Int = .max, sink: PieceSink? = nil, into out: inout [UInt8]
    ) {
        var party = celebration
        let fps = max(fps, 1)
        let duration = max(duration.isFinite ? duration : 0, 0)
        let frameCount = Int((duration * Double(fps)).rounded())
        var w = JSONWriter()
        w.bytes = out
        out = []
        w.object { w in
            switch form {
            case .tracks:
                TimelineTracks.render(
                    scene: &scene, layout: layout, fps: fps, frameCount: frameCount, duration: duration,
                    celebration: &party, budget: budget, sink: sink, into: &w)
            case .frames:
                TimelineTracks.header(&w, scene: scene, layout: layout, fps: fps, duration: duration)
                if let party { TimelineTracks.celebrationHeader(&w, party) }
                // Of the scene's particles a frame keeps the index, size and opacity of
                // those that show (the rest is read from the scene), where a copy took three
                // times that; the confetti (a few thousand pieces at most) is copied.
                var shown = ShownParticles()
                var confetti = VisibleParticles()
                w.key("frames")
                w.array { w in
                    for k in 1..<(frameCount + 1) {
                        let t = Double(k) / Double(fps)
                        scene.advance(to: t)
                        shown.take(scene)
                        if party != nil {
                            party!.advance(to: t)
                            party!.visibleParticles(into: &confetti)
                        }
                        frame(
                            &w, t: t, scene: scene, shown: shown, confetti: party == nil ? nil : confetti, sink: sink)
                    }
                }
            }
        }
        out = w.bytes
    }

    static func frame(
        _ w: inout JSONWriter, t: Double, scene: SpoilerScene, shown: ShownParticles, confetti: VisibleParticles?,
        sink: PieceSink? = nil
    ) {
        w.object { w in
            w.key("t"); w.number(t, decimals: 4)
            w.key("reveal")
            w.array { w in
                for i in scene.words.indices {
                    if let r = scene.revealRadius(word: i) { w.number(r, decimals: 2) } else { w.null() }
                    sink?.spill(&w.bytes)
                }
            }
            w.key("particles")
            w.object { w in
                let field = scene.particles
                w.key("word")
                w.array { w in
                    for i in shown.index {
                        w.number(field.word[Int(i)])
                        sink?.spill(&w.bytes)
                    }
                }
                pieces(
                    &w, count: shown.count, sink: sink,
                    x: { field.x[Int(shown.index[$0])] }, y: { field.y[Int(shown.index[$0])] },
                    size: { shown.size[$0] },
                    alpha: { shown.alpha[$0] }, color: { field.color[Int(shown.index[$0])] })
            }
            if let confetti {
                w.key("confetti")
                w.object { w in
                    pieces(
                        &w, count: confetti.count, sink: sink, x: { confetti.x[$0] }, y: { confetti.y[$0] },
                        size: { confetti.size[$0] }, alpha: { confetti.alpha[$0] }, color: { confetti.color[$0] })
                    w.key("rotation")
                    w.array { w in
                        for v in confetti.rotation {
                            w.number(Double(v), decimals: 3)
                            sink?.spill(&w.bytes)
                        }
                    }
                    w.key("shape")
                    w.array { w in
                        for v in confetti.shape {
                            w.string(v.rawValue)
                            sink?.spill(&w.bytes)
                        }
                    }
                }
            }
        }
    }

    /// The centre, size, opacity and colour arrays of `count` pieces, piece `k`'s values
    /// given by the functions (passed on to `sink` whenever they fill a piece).
    static func pieces(
        _ w: inout JSONWriter, count: Int, sink: PieceSink? = nil, x: (Int) -> Float, y: (Int) -> Float,
        size: (Int) -> Float, alpha: (Int) -> Float, color: (Int) -> UInt32
    ) {
        func numbers(_ w: inout JSONWriter, _ key: String, decimals: Int, _ value: (Int) -> Float) {
            w.key(key)
            w.array { w in
                for k in 0..<count {
                    w.number(Double(value(k)), decimals: decimals)
                    sink?.spill(&w.bytes)
                }
            }
        }
        numbers(&w, "x", decimals: 2, x)
        numbers(&w, "y", decimals: 2, y)
        numbers(&w, "size", decimals: 2, size)
        numbers(&w, "alpha", decimals: 3, alpha)
        w.key("color")
        w.array { w in
            for k in 0..<count {
                let v = color(k)
                w.string(
                    RGBColor(red: UInt8(v >> 16 & 0xFF), green: UInt8(v >> 8 & 0xFF), blue: UInt8(v & 0xFF)).hexString)
                sink?.spill(&w.bytes)
            }
        }
    }
}

/// The particles of a scene that show in one frame, as the frames form writes them: each
/// one's index in ``SpoilerScene/particles`` with the size and opacity it is drawn with
/// (the word, centre and colour are the scene's own), 12 bytes a particle.
struct ShownParticles {
    var index: [Int32] = []
    var size: [Float] = []
    var alpha: [Float] = []

    var count: Int { index.count }

    /// Takes in the particles of `scene` that show now, in the scene's order.
    mutating func take(_ scene: SpoilerScene) {
        index.removeAll(keepingCapacity: true)
        size.removeAll(keepingCapacity: true)
        alpha.removeAll(keepingCapacity: true)
        for i in 0..<scene.particles.count {
            guard let p = scene.visibleParticle(at: i) else { continue }
            index.append(Int32(i))
            size.append(p.size)
            alpha.append(p.alpha)
        }
    }
}
