public import SpoilerCore
public import SpoilerLayout

/// How much hidden text, and how much text, the simulating renderers (SVG, the JSON
/// timeline, the terminal animation and asciicast) take in one message, and the check a
/// program makes before it lays the message out and builds a scene.
///
/// Every hidden grapheme feeds its word's emitter, so the particles, and with them the
/// memory and time of a render, grow with the hidden graphemes, with `density` and, for
/// the animations, with the frames. A message past these limits would take gigabytes
/// (10 MB of `||ab|| ` is 1.4 million spoilers); it is refused with a clear reason
/// before the scene is made, never half-drawn. The text itself is limited too
/// (``maxTextBytes``): each of its graphemes is placed and drawn. The HTML page has no
/// such limit: the browser lays out and simulates only what it shows.
///
/// ```swift
/// let layout = LayoutEngine().layout(message)
/// if let problem = RenderLimits.problem(layout: layout, frames: 60, density: 20, format: "svg") {
///     print(problem)  // "… hidden graphemes: --format svg draws at most …"
/// }
/// ```
public enum RenderLimits {
    /// The most hidden graphemes (weighted by `density ÷ 20`) that one render simulates:
    /// a whole Telegram message of 4,096 characters, hidden. About 22 particles are alive
    /// per hidden grapheme, at about 50 bytes each; with the limits below, every simulating
    /// format stays within 8 × its input + 30 MB of memory, the floor of the process and
    /// its laid-out text included (see BENCHMARKS.md, "Renders within the limits").
    public static let maxHiddenGraphemes = 4_096

    /// The most hidden graphemes (weighted by `density ÷ 20`) of an animated SVG or a JSON
    /// timeline: they hold the time-0 scene, a run's (a run simulates the loop again from
    /// time 0 for the next words) and a record of samples that grows with the particles,
    /// so a quarter of ``maxHiddenGraphemes``.
    public static let maxAnimatedHiddenGraphemes = 1_024

    /// The most hidden graphemes × frames (weighted by `density ÷ 20`) that an animated
    /// SVG or a JSON timeline holds: 1,024 hidden graphemes for 64 frames (2 seconds at
    /// 30 fps are 60).
    public static let maxGraphemeFrames = 65_536

    /// The most UTF-8 bytes of text that one render lays out and draws: every grapheme
    /// of the text is placed and drawn (about 150 bytes of memory each, whatever is
    /// hidden), so that 4 MB of text took 600 to 850 MB. 64 KiB is sixteen times the
    /// longest Telegram message. Checked with the hidden graphemes, before the layout.
    public static let maxTextBytes = 65_536

    /// The most cells (columns × rows) of the screen a terminal animation or a whole still
    /// terminal frame draws at once (`render --format cast`, `--format ansi` with
    /// `--duration`, `--reveal-at`, `--celebrate`, `--stage` or `-o`): each frame holds
    /// two cell canvases, the dot raster and the encoder's, about 70 bytes a cell, so that
    /// a 60 KB text of one long line and many short ones (30,000 × 30,000 cells) took over
    /// 20 GB. 131,072 cells is a 64 KiB document wrapped at 80 columns, or a 512 × 256
    /// screen. Checked after the layout, before the first canvas; the still frame drawn a
    /// piece at a time (standard output, no reveal or stage) has no such limit.
    public static let maxCells = 131_072

    /// Why a terminal render of a screen `columns` × `rows` cells is over ``maxCells``,
    /// or nil.
    ///
    /// - Parameters:
    ///   - columns: The screen's width in cells (the layout's, or the stage's).
    ///   - rows: The screen's height in cells.
    ///   - format: The format's name for the message (`cast`).
    /// - Returns: One line without a final newline, or nil when the render may go on.
    public static func problem(columns: Int, rows: Int, format: String) -> String? {
        let (cells, overflow) = max(columns, 0).multipliedReportingOverflow(by: max(rows, 0))
        guard overflow || cells > maxCells else { return nil }
        return "a screen of \(columns)x\(rows) cells: --format \(format) draws at most \(maxCells) cells; "
            + "wrap the text with --width N, \(advice)"
    }

    /// The hidden graphemes of `layout`: the graphemes of its word boxes.
    ///
    /// - Complexity: O(words).
    public static func hiddenGraphemes(in layout: TextLayout) -> Int {
        layout.words.reduce(0) { $0 + max($1.graphemes, 0) }
    }

    /// A lower bound of the hidden graphemes of `message`, found without laying it out:
    /// the printable ASCII characters under a spoiler that are graphemes of their own
    /// (followed by ASCII or the end).
    ///
    /// - Complexity: O(n) in the text's UTF-8 bytes; no allocation when the entities are
    ///   in order of offset (a message's are), one index per spoiler otherwise.
    public static func hiddenGraphemesAtLeast(in message: Message) -> Int {
        let entities = message.entities
        // The spoilers by offset: the entities themselves when in order, else their indices sorted.
        let inOrder = entities.indices.dropFirst().allSatisfy { entities[$0 - 1].offset <= entities[$0].offset }
        let sortedSpoilers: [Int] =
            inOrder
            ? []
            : entities.indices.filter { entities[$0].type == .spoiler && entities[$0].length > 0 }.sorted {
                entities[$0].offset < entities[$1].offset
            }
        let spoilerCount = inOrder ? entities.count : sortedSpoilers.count
        /// The `k`-th candidate: a spoiler, or for entities in order any entity (nil when
        /// it is not a non-empty spoiler).
        func spoiler(_ k: Int) -> Entity? {
            let e = inOrder ? entities[k] : entities[sortedSpoilers[k]]
            return e.type == .spoiler && e.length > 0 ? e : nil
        }
        guard entities.contains(where: { $0.type == .spoiler && $0.length > 0 }) else { return 0 }
        var next = 0
        var coveredUntil = 0
        var unit = 0
        var count = 0
        var previousASCIIPrintable = false
        for b in message.text.utf8 {
            // The previous byte was a printable ASCII under a spoiler; it is a cluster of
            // its own when this byte is ASCII too.
            if previousASCIIPrintable && b < 0x80 { count += 1 }
            while next < spoilerCount && entities[inOrder ? next : sortedSpoilers[next]].offset <= unit {
                if let s = spoiler(next) { coveredUntil = max(coveredUntil, s.end) }
                next += 1
            }
            previousASCIIPrintable = unit < coveredUntil && b > 0x20 && b < 0x7F
            if b & 0xC0 != 0x80 { unit += b >= 0xF0 ? 2 : 1 }
        }
        if previousASCIIPrintable { count += 1 }
        return count
    }

    /// Why `message` is over a limit before it is laid out, or nil: it holds at least
    /// ``hiddenGraphemesAtLeast(in:)`` hidden graphemes, or more than ``maxTextBytes``
    /// of text.
    ///
    /// - Parameters:
    ///   - message: The message.
    ///   - density: The effect's `density` (20 by default).
    ///   - format: The format's name for the message (`svg`).
    /// - Returns: One line without a final newline, or nil when the message may be laid out.
    public static func problem(message: Message, density: Double, format: String) -> String? {
        let weight = max(density, 0) / 20
        let hidden = weight > 0 ? hiddenGraphemesAtLeast(in: message) : 0
        guard Double(hidden) * weight > Double(maxHiddenGraphemes) else {
            let bytes = message.text.utf8.count
            guard bytes > maxTextBytes else { return nil }
            return "a text of \(bytes) bytes: --format \(format) draws at most \(maxTextBytes) (64 KiB); \(advice)"
        }
        let spoilers = message.entities.reduce(0) { $0 + ($1.type == .spoiler ? 1 : 0) }
        return
            "\(spoilers) \(spoilers == 1 ? "spoiler" : "spoilers"), at least \(hidden) hidden graphemes: --format \(format) draws at most "
            + "\(maxHiddenGraphemes)\(densityNote(density)); \(advice)"
    }

    /// The hidden graphemes a reduced-motion scene of `layout` weighs as: Telegram's still
    /// pattern has one dot per 4 px² of a hidden word, whatever its graphemes, and 22 dots
    /// count as one hidden grapheme (the dust's live particles per grapheme), so 88 px² of
    /// hidden words, rounded up (an 8 × 16 cell is about 1.45).
    ///
    /// - Complexity: O(words).
    public static func reducedMotionWeight(in layout: TextLayout) -> Int {
        let area = layout.words.reduce(0.0) { $0 + max($1.rect.width, 0) * max($1.rect.height, 0) }
        return Int((area / 88).rounded(.up))
    }

    /// Why `layout` is over a limit for a render of `frames` frames (0 for a still), or nil.
    ///
    /// With reduced motion the particles are Telegram's still pattern, one dot per 4 px² of a
    /// hidden word, so the limits count ``reducedMotionWeight(in:)`` where they count hidden
    /// graphemes (density does not change the pattern).
    ///
    /// - Parameters:
    ///   - layout: The message's layout.
    ///   - frames: The frames the render holds at once: an animated SVG's or a JSON
    ///     timeline's; 0 for a still picture or a streamed animation.
    ///   - density: The effect's `density` (20 by default).
    ///   - reducedMotion: Whether the scene is the reduced-motion still pattern.
    ///   - format: The format's name for the message (`svg`).
    /// - Returns: One line without a final newline, or nil when the render may go on.
    public static func problem(
        layout: TextLayout, frames: Int, density: Double, reducedMotion: Bool = false, format: String
    ) -> String? {
        let hidden = reducedMotion ? reducedMotionWeight(in: layout) : hiddenGraphemes(in: layout)
        let weight = reducedMotion ? 1 : max(density, 0) / 20
        let what =
            reducedMotion
            ? "hidden graphemes' worth of dots (--reduced-motion: one per 4 px² of a hidden word)" : "hidden graphemes"
        let note = reducedMotion ? "" : densityNote(density)
        if Double(hidden) * weight > Double(maxHiddenGraphemes) {
            return "\(hidden) \(what): --format \(format) draws at most \(maxHiddenGraphemes)\(note); \(advice)"
        }
        if frames > 0, Double(hidden) * weight > Double(maxAnimatedHiddenGraphemes) {
            return
                "\(hidden) \(what): --format \(format) animates at most \(maxAnimatedHiddenGraphemes)\(note); \(advice)"
        }
        if frames > 0, Double(hidden) * Double(frames) * weight > Double(maxGraphemeFrames) {
            return "\(hidden) \(what) over \(frames) frames: --format \(format) animates at most "
                + "\(maxGraphemeFrames) grapheme-frames\(note); lower --duration or --fps, " + advice
        }
        return nil
    }

    private static let advice = "use --format html or split the message"

    private static func densityNote(_ density: Double) -> String {
        density == 20 ? "" : " at --density 20"
    }
}
