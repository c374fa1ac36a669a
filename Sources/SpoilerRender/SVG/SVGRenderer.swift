public import SpoilerCore
public import SpoilerEffect
public import SpoilerLayout

/// Writes the spoiler effect as SVG: a still frame of a scene, or an animated loop that
/// plays in a browser (see ``renderLoop(scene:layout:font:style:fps:duration:formatting:celebration:stage:into:)-(_,_,_,_,FrameRate,_,_,_,_,_)``).
///
/// Text: one `<text>` per run of equally formatted graphemes, in a monospace family with
/// per-glyph `x` positions, for `mono` layouts (so a browser selects, searches and reads
/// it as words), glyph pixels (`<path>` runs) for bitmap fonts; bold, italic, underline and
/// strikethrough (from `formatting`) are drawn as in the terminal. Each hidden word's dust
/// is a group titled "Hidden text (spoiler)" for assistive technology. Hidden means
/// absent: a word that shows nowhere in the picture has no text, glyph or any other trace
/// of its text in the source. The picture has a margin of ``margin`` pixels around the
/// layout, widened to take in every particle drawn, so nothing is clipped; the viewBox
/// starts left of and above 0, so the content keeps the layout's coordinates. A word
/// partly uncovered is drawn under a mask: a circle from the click whose radial
/// gradient is opaque to 0.7 of its radius and clear from 0.95 (Telegram's feather).
///
/// ```swift
/// var scene = Scene(layout: layout, preset: .dust, seed: 1)
/// scene.advance(to: 0.5)
/// var svg: [UInt8] = []
/// SVGRenderer.renderStill(scene: scene, layout: layout, into: &svg)
/// ```
///
/// Units: the SVG's user units are the layout's pixels; numbers are written with at most
/// two decimals, so the same scene gives the same bytes every time.
public enum SVGRenderer {
    /// Writes the scene as it is now as one still SVG picture.
    ///
    /// - Parameters:
    ///   - scene: a scene made from `layout` (word `i` of the scene is `layout.words[i]`).
    ///   - layout: the message's layout, with graphemes.
    ///   - font: the bitmap font the layout was made with (nil for `mono`).
    ///   - style: colours and the font family.
    ///   - out: the SVG is appended here.
    ///   - formatting: the message's entities; bold, italic, underline (links too) and
    ///     strikethrough are drawn, the others change nothing.
    /// - Complexity: O(graphemes + particles).
    public static func renderStill(
        scene: SpoilerScene, layout: TextLayout, font: BitmapFont? = nil, style: SVGStyle = SVGStyle(),
        formatting: [Entity] = [], celebration: Celebration? = nil, stage: SpoilerSize? = nil, into out: inout [UInt8]
    ) {
        var w = SVGWriter(into: out)
        out = []
        writeStill(
            scene: scene, layout: layout, font: font, style: style, formatting: formatting, celebration: celebration,
            stage: stage, to: &w)
        out = w.bytes
    }

    /// Writes the scene as it is now as one still SVG picture a piece at a time: the bytes
    /// ``renderStill(scene:layout:font:style:formatting:celebration:stage:into:)`` appends,
    /// passed to `write` in pieces of about ``RenderOutput/pieceSize`` bytes, so that the
    /// picture is never held whole.
    ///
    /// ```swift
    /// try SVGRenderer.renderStill(scene: scene, layout: layout) { piece in try file.write(piece) }
    /// ```
    ///
    /// - Parameters:
    ///   - scene: a scene made from `layout`, at the time to draw.
    ///   - layout: the message's layout, with graphemes.
    ///   - font: the bitmap font the layout was made with (nil for `mono`).
    ///   - style: colours and the font family.
    ///   - formatting: the message's entities.
    ///   - celebration: confetti over the view, at the scene's time, if any.
    ///   - stage: the picture's size when it should be larger than the layout.
    ///   - write: called with the SVG's UTF-8 bytes in order, in pieces; their concatenation
    ///     is the picture. The first error it throws stops the writing and is rethrown.
    /// - Complexity: O(graphemes + particles); memory beyond the scene: one piece and one
    ///   index per particle that shows (the particles are read from the scene, never copied).
    public static func renderStill<E: Error>(
        scene: SpoilerScene, layout: TextLayout, font: BitmapFont? = nil, style: SVGStyle = SVGStyle(),
        formatting: [Entity] = [], celebration: Celebration? = nil, stage: SpoilerSize? = nil,
        write: ([UInt8]) throws(E) -> Void
    ) throws(E) {
        try PieceSink.run(write) { sink in
            var w = SVGWriter(into: [], sink: sink)
            writeStill(
                scene: scene, layout: layout, font: font, style: style, formatting: formatting,
                celebration: celebration, stage: stage, to: &w)
            w.finish()
        }
    }

    /// Writes the still picture to `w`.
    static func writeStill(
        scene: SpoilerScene, layout: TextLayout, font: BitmapFont?, style: SVGStyle, formatting: [Entity],
        celebration: Celebration?, stage: SpoilerSize?, to w: inout SVGWriter
    ) {
        // The particles are read from the scene where they are (never copied): once for
        // the bounds, once to sort them by word and once to draw them.
        let count = scene.particles.count
        var bounds = Bounds(layout: layout, stage: stage)
        for i in 0..<count {
            guard let p = scene.visibleParticle(at: i) else { continue }
            bounds.include(x: Double(p.x), y: Double(p.y), size: Double(p.size))
        }
        openDocument(&w, bounds: bounds, style: style)
        let text = SVGText(layout: layout, font: font, style: style, formatting: formatting)

        // Masks, one per distinct partial reveal.
        var partial: [RevealState: [Int]] = [:]
        var order: [RevealState] = []
        for i in layout.words.indices where i < scene.words.count {
            guard !scene.isHidden(word: i), !scene.isFullyRevealed(word: i), let state = scene.reveals[i] else {
                continue
            }
            if partial[state] == nil { order.append(state) }
            partial[state, default: []].append(i)
        }
        if !order.isEmpty {
            w.raw("<defs>\n")
            gradient(&w)
            for (k, state) in order.enumerated() {
                revealMaskOpening(
                    &w, id: k, layout: layout, origin: state.origin, radius: state.radius(at: scene.time) ?? 0)
                w.raw("/></mask>\n")
            }
            w.raw("</defs>\n")
        }

        // Text that shows in full: plain text, and fully revealed words.
        text.open(&w)
        text.draw(&w) { g in
            guard let word = g.word else { return true }
            return word < scene.words.count && scene.isFullyRevealed(word: word)
        }
        w.raw("</g>\n")
        // Text under a reveal in progress.
        for (k, state) in order.enumerated() {
            let members = Set(partial[state] ?? [])
            text.open(&w, mask: "reveal\(k)")
            text.draw(&w) { g in g.word.map(members.contains) ?? false }
            w.raw("</g>\n")
        }

        // Particles, one group per word, in word order: the visible particles' indices in
        // the scene sorted by word (a counting sort, one index each), each word's in the
        // scene's order.
        let words = scene.words.count
        let wordOf = scene.particles.word
        func shows(_ i: Int) -> Bool { Int(wordOf[i]) < words && scene.visibleParticle(at: i) != nil }
        var start = [Int](repeating: 0, count: words + 1)
        for i in 0..<count where shows(i) { start[Int(wordOf[i]) + 1] += 1 }
        for word in 0..<words { start[word + 1] += start[word] }
        var next = start
        var sorted = [Int32](repeating: 0, count: start[words])
        for i in 0..<count where shows(i) {
            let word = Int(wordOf[i])
            sorted[next[word]] = Int32(i)
            next[word] += 1
        }
        for word in 0..<words where start[word] < start[word + 1] {
            openWordGroup(&w, titled: !scene.isFullyRevealed(word: word))
            for i in sorted[start[word]..<start[word + 1]] {
                guard let p = scene.visibleParticle(at: Int(i)) else { continue }
                particle(
                    &w, shape: p.shape, x: p.x, y: p.y, size: p.size, rotation: p.rotation, color: p.color,
                    alpha: p.alpha)
            }
            w.raw("</g>\n")
        }
        if let celebration { drawCelebration(&w, celebration.visibleParticles()) }
        w.raw("</svg>\n")
    }

    /// Pixels of room around the layout on every side, so that text never touches the
    /// picture's edge.
    public static let margin = 4

    /// How far a particle may reach beyond the margin before it is left to be clipped
    /// (confetti falls for seconds; the picture stays a picture of the message).
    static let reach = 256.0

    /// The area the picture shows: the layout, the margin, and every particle drawn.
    struct Bounds {
        var minX: Double, minY: Double, maxX: Double, maxY: Double
        let limit: (minX: Double, minY: Double, maxX: Double, maxY: Double)
        /// A stage was given: the area is fixed and particles outside it are clipped.
        let isFixed: Bool

        init(layout: TextLayout, stage: SpoilerSize? = nil) {
            if let stage {
                let r = SVGRenderer.stageRect(stage)
                (minX, minY, maxX, maxY) = (r.minX, r.minY, r.maxX, r.maxY)
                isFixed = true
            } else {
                let m = Double(SVGRenderer.margin)
                minX = -m
                minY = -m
                maxX = Double(max(layout.width, 1)) + m
                maxY = Double(max(layout.height, 1)) + m
                isFixed = false
            }
            limit = (minX - reach, minY - reach, maxX + reach, maxY + reach)
        }

        /// Takes in a particle centred on (`x`, `y`), `size` across (whole pixels, within reach).
        mutating func include(x: Double, y: Double, size: Double) {
            guard !isFixed, x.isFinite, y.isFinite, size.isFinite else { return }
            let r = max(size, 1) / 2 + 1
            minX = min(minX, max(((x - r)).rounded(.down), limit.minX))
            minY = min(minY, max(((y - r)).rounded(.down), limit.minY))
            maxX = max(maxX, min(((x + r)).rounded(.up), limit.maxX))
            maxY = max(maxY, min(((y + r)).rounded(.up), limit.maxY))
        }
    }

    static func openDocument(_ w: inout SVGWriter, bounds b: Bounds, style: SVGStyle) {
        let width = b.maxX - b.minX
        let height = b.maxY - b.minY
        w.raw("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"")
        w.number(width)
        w.raw("\" height=\"")
        w.number(height)
        w.raw("\" viewBox=\"")
        w.number(b.minX)
        w.raw(" ")
        w.number(b.minY)
        w.raw(" ")
        w.number(width)
        w.raw(" ")
        w.number(height)
        w.raw("\">\n")
        if let bg = style.background {
            w.raw("<rect x=\"")
            w.number(b.minX)
            w.raw("\" y=\"")
            w.number(b.minY)
            w.raw("\" width=\"")
            w.number(width)
            w.raw("\" height=\"")
            w.number(height)
            w.raw("\" fill=\"")
            w.color(bg)
            w.raw("\"/>\n")
        }
    }

    /// Opens one word's particle group; while any of the word is hidden, it is titled for
    /// assistive technology (never with the word's text).
    static func openWordGroup(_ w: inout SVGWriter, titled: Bool) {
        if titled {
            w.raw("<g role=\"img\" aria-label=\"Hidden text (spoiler)\"><title>Hidden text (spoiler)</title>\n")
        } else {
            w.raw("<g>\n")
        }
    }

    /// Opens reveal mask `reveal<id>` over the whole layout and its feathered circle at
    /// `origin` with `radius`, leaving the `<circle` tag open so that the caller ends it
    /// (`/>` for a still, `>` and an animation for a loop).
    static func revealMaskOpening(
        _ w: inout SVGWriter, id: Int, layout: TextLayout, origin: SpoilerPoint, radius: Double
    ) {
        w.raw("<mask id=\"reveal")
        w.number(id)
        w.raw("\" maskUnits=\"userSpaceOnUse\" x=\"0\" y=\"0\" width=\"")
        w.number(layout.width)
        w.raw("\" height=\"")
        w.number(layout.height)
        w.raw("\"><circle cx=\"")
        w.number(origin.x)
        w.raw("\" cy=\"")
        w.number(origin.y)
        w.raw("\" r=\"")
        w.number(radius)
        w.raw("\" fill=\"url(#feather)\"")
    }

    /// The reveal mask's radial gradient: white (shown) to 0.7, black (hidden) from 0.95.
    static func gradient(_ w: inout SVGWriter) {
        w.raw(
            "<radialGradient id=\"feather\"><stop offset=\"0\" stop-color=\"#fff\"/><stop offset=\"0.7\" stop-color=\"#fff\"/><stop offset=\"0.95\" stop-color=\"#000\"/></radialGradient>\n"
        )
    }

    /// One particle centred on (`x`, `y`), `size` pixels across (with `piece`, a
    /// `data-piece` attribute holding that serial number).
    static func particle(
        _ w: inout SVGWriter, shape: ParticleShape, x: Float, y: Float, size: Float, rotation: Float, color: UInt32,
        alpha: Float, piece: UInt32? = nil
    ) {
        switch shape {
        case .dot:
            w.raw("<circle cx=\"")
            w.number(x)
            w.raw("\" cy=\"")
            w.number(y)
            w.raw("\" r=\"")
            w.number(size / 2)
            w.raw("\"")
        case .square, .polygon, .star:
            w.raw("<polygon points=\"")
            shapePoints(&w, shape: shape, x: Double(x), y: Double(y), size: Double(size), rotation: Double(rotation))
            w.raw("\"")
        }
        if let piece {
            w.raw(" data-piece=\"")
            w.number(Int(piece))
            w.raw("\"")
        }
        w.raw(" fill=\"")
        w.color(color)
        w.raw("\"")
        if alpha < 1 {
            w.raw(" fill-opacity=\"")
            w.number(alpha, 3)
            w.raw("\"")
        }
        w.raw("/>\n")
    }

    /// The corner points of a square, hexagon or five-pointed star `size` across,
    /// centred on (`x`, `y`), turned by `rotation` radians.
    static func shapePoints(
        _ w: inout SVGWriter, shape: ParticleShape, x: Double, y: Double, size: Double, rotation: Double
    ) {
        let r = size / 2
        var points: [(Double, Double)] = []
        switch shape {
        case .dot: return
        case .square:
            for k in 0..<4 { points.append((r * 1.414_213_562, rotation + Double.pi / 4 + Double(k) * Double.pi / 2)) }
        case .polygon:
            for k in 0..<6 { points.append((r, rotation + Double(k) * Double.pi / 3)) }
        case .star:
            for k in 0..<10 {
                points.append((k % 2 == 0 ? r : r * 0.4, rotation - Double.pi / 2 + Double(k) * Double.pi / 5))
            }
        }
        for (k, (radius, angle)) in points.enumerated() {
            if k > 0 { w.raw(" ") }
            let (s, c) = Trig.sinCos(angle)
            w.number(x + radius * c)
            w.raw(",")
            w.number(y + radius * s)
        }
    }
}

/// Sine and cosine from `+` and `*` only, so that shape corners are the same bits on
/// every machine (a pure module does not import Glibc's `sin`).
enum Trig {
    static func sinCos(_ x: Double) -> (Double, Double) {
        let halfPi = 1.570_796_326_794_896_6
        let k = (x / halfPi).rounded()
        let r = x - k * halfPi
        let r2 = r * r
        let s =
            r * (1 + r2 * (-1.0 / 6 + r2 * (1.0 / 120 + r2 * (-1.0 / 5040 + r2 * (1.0 / 362_880 - r2 / 39_916_800)))))
        let c = 1 + r2 * (-0.5 + r2 * (1.0 / 24 + r2 * (-1.0 / 720 + r2 * (1.0 / 40320 - r2 / 3_628_800))))
        switch Int(k.truncatingRemainder(dividingBy: 4)) {
        case 0: return (s, c)
        case 1, -3: return (c, -s)
        case 2, -2: return (-s, -c)
        default: return (-c, s)
        }
    }
}
