import SpoilerCore
import Testing

@testable import SpoilerLayout

/// The placements made one at a time without keeping them (``PlacementStream``) against
/// those the whole layout keeps (``LineBreaker`` with a ``PlacementStore``), on generated
/// texts and wrap widths that move runs to the next line, break inside them, and hang
/// whitespace at line ends.
@Suite struct PlacementStreamTests {
    /// Every field of every placement, and the lines, of `text` laid out by `engine`, the
    /// whole way and streamed; nil when they agree, else what differs first.
    static func difference(_ engine: LayoutEngine, _ text: [UInt8]) -> String? {
        text.withUnsafeBufferPointer { p -> String? in
            let whole = engine.place(p)
            func describe(_ q: Placement) -> String {
                "\(q.utf8Start)-\(q.utf8End) u\(q.utf16Start)+\(q.utf16Length) x\(q.x)+\(q.width) l\(q.line) \(q.kind)"
            }
            return GraphemeScanner.BMPInfo.table.withUnsafeBufferPointer { table -> String? in
                func compare<M: GraphemeMeasure>(_ measure: M) -> String? {
                    var stream = PlacementStream(
                        p, count: p.count, wrap: engine.wrapWidth, measure: measure, table: table)
                    for (k, expected) in whole.placements.enumerated() {
                        guard let q = stream.next() else { return "the stream ended at placement \(k)" }
                        if describe(q) != describe(expected) || q.isFallback != expected.isFallback {
                            return "placement \(k): \(describe(q)), expected \(describe(expected))"
                        }
                    }
                    if stream.next() != nil { return "the stream gave more than \(whole.placements.count)" }
                    var lines: [String] = []
                    let fallbacks = engine.forEachLine(p, count: p.count, measure: measure, table: table) { e in
                        lines.append("\(e.utf16Start)-\(e.utf16End) w\(e.width)")
                    }
                    let expectedLines = whole.lines.map { e in "\(e.utf16Start)-\(e.utf16End) w\(e.width)" }
                    if lines != expectedLines { return "lines \(lines), expected \(expectedLines)" }
                    if fallbacks != whole.fallbacks { return "\(fallbacks) fallbacks, expected \(whole.fallbacks)" }
                    return nil
                }
                switch engine.model {
                case .mono: return compare(MonoMeasure())
                case .font(let font): return compare(FontMeasure(font: font))
                }
            }
        }
    }

    static let engines: [LayoutEngine] = {
        var engines = [LayoutEngine()]
        for wrap in [1, 2, 3, 5, 7, 12] { engines.append(LayoutEngine(wrapWidth: wrap)) }
        if let font = try? BitmapFont.parse(LayoutFixtures.fixtureBytes("tiny.bdf"), file: "tiny.bdf") {
            for wrap in [nil, 4, 9, 30] { engines.append(LayoutEngine(model: .font(font), wrapWidth: wrap)) }
        }
        return engines
    }()

    @Test func streamedPlacementsAreTheWholeLayouts() {
        var rng = SplitMix64(seed: 0x57A)
        var failures: [String] = []
        for round in 0..<4_000 {
            let text = GeometryStreamTests.text(&rng)
            let engine = Self.engines[round % Self.engines.count]
            if let difference = Self.difference(engine, Array(text.utf8)) {
                failures.append(
                    "\(text.debugDescription) wrap \(engine.wrapWidth.map(String.init) ?? "none"): \(difference)")
            }
        }
        #expect(Self.engines.count == 11, "the BDF fixture did not load")
        #expect(failures.isEmpty, "\(failures.count) texts differ, first: \(failures.first ?? "")")
    }

    /// Runs that may still move for a long while: a word after a space, made of graphemes
    /// of no width (which never fill the line), then one that does not fit.
    @Test func longPendingRunsMoveAsAWhole() {
        for wrap in [1, 3, 8] {
            for zeroWidth in ["\u{200B}", "\u{301}", "\u{2060}"] {
                let text = "ab " + String(repeating: zeroWidth, count: 5_000) + String(repeating: "x", count: 20) + " c"
                let difference = Self.difference(LayoutEngine(wrapWidth: wrap), Array(text.utf8))
                #expect(difference == nil, "wrap \(wrap), \(zeroWidth.unicodeScalars.first!): \(difference ?? "")")
            }
        }
    }
}
