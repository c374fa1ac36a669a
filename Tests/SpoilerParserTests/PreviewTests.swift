import SpoilerCore
import SpoilerParser
import SpoilerTestSupport
import Testing

@Suite struct PreviewTests {
    func preview(_ m: Message, _ options: PreviewOptions = PreviewOptions()) -> String {
        MessageSerializer.serialize(m, to: .preview, options: SerializationOptions(preview: options)).output
    }

    @Test func aSpoilerIsAFixedMaskByDefault() {
        let m = Message(text: "the butler did it", entities: [Entity(.spoiler, offset: 11, length: 6)])
        #expect(preview(m) == "the butler ▒▒▒▒")
        #expect(preview(m, PreviewOptions(mask: .length)) == "the butler ▒▒▒▒▒▒")
    }

    @Test func aGraphemePartlyHiddenIsMaskedWhole() {
        // tdesktop#24376 showed the last character of spoiler words.
        let m = Message(text: "ae\u{301}b", entities: [Entity(.spoiler, offset: 1, length: 1)])
        #expect(preview(m, PreviewOptions(mask: .length)) == "a▒b")
    }

    @Test func theMaskIsNeverACharacterOfTheMessage() {
        let m = Message(text: "▒▒ x", entities: [Entity(.spoiler, offset: 3, length: 1)])
        #expect(preview(m, PreviewOptions(mask: .length)) == "▒▒ ░")
    }

    @Test func linesAndControlsAreMadeSafe() {
        let m = Message(text: "a\nb\u{1B}[31m\u{7F}\u{202E}c")
        #expect(preview(m) == "a b␛[31m␡�c")
    }

    @Test func maxCutsOnGraphemes() {
        let m = Message(text: "👩‍👩‍👧👩‍👩‍👧👩‍👩‍👧 abc")
        #expect(preview(m, PreviewOptions(maxGraphemes: 3)) == "👩‍👩‍👧👩‍👩‍👧…")
        #expect(preview(m, PreviewOptions(maxGraphemes: 7)) == "👩‍👩‍👧👩‍👩‍👧👩‍👩‍👧 abc")
    }

    @Test func reasonsAndLinkURLsDoNotShow() {
        let m = Message(
            text: "see here",
            entities: [
                Entity(.spoiler, offset: 4, length: 4, reason: "why"),
                Entity(.textLink, offset: 4, length: 4, url: "https://leak/"),
            ])
        let out = MessageSerializer.serialize(m, to: .preview, options: SerializationOptions())
        #expect(out.output == "see ▒▒▒▒")
        #expect(out.warnings.count == 1)
    }

    /// No spoiler's text, nor any two-character piece of it that is not also in the shown
    /// text, appears in a preview, with either mask and any cut.
    @Test func previewsRevealNothingOfASpoiler() {
        forAll(
            { rng -> (Message, PreviewOptions) in
                let text = randomMixedText(&rng, maxPieces: 14)
                let n = text.utf16.count
                var entities: [Entity] = []
                let boundaries = Array(Set(text.unicodeScalars.indices.map { $0.utf16Offset(in: text) } + [n])).sorted()
                for _ in 0..<Int(rng.next() % 4) {
                    var a = boundaries[Int(rng.next() % UInt64(boundaries.count))]
                    var b = boundaries[Int(rng.next() % UInt64(boundaries.count))]
                    if a > b { swap(&a, &b) }
                    if a < b {
                        entities.append(Entity(rng.next() % 3 == 0 ? .bold : .spoiler, offset: a, length: b - a))
                    }
                }
                let options = PreviewOptions(
                    mask: rng.next() % 2 == 0 ? .fixed : .length,
                    maxGraphemes: rng.next() % 2 == 0 ? nil : Int(rng.next() % 10) + 1)
                return (Message(text: text, entities: entities), options)
            }, count: 2000
        ) { m, options in
            let out = preview(m, options)
            // Shown text: the graphemes outside every spoiler, as the preview shows them.
            let spoilers = m.entities.filter { $0.type == .spoiler }
            var shown: [Character] = []
            var hiddenRuns: [[Character]] = []
            var u = 0
            var run: [Character] = []
            for c in m.text {
                let start = u
                u += c.utf16.count
                if spoilers.contains(where: { $0.offset < u && $0.end > start }) {
                    run.append(c)
                } else {
                    if !run.isEmpty { hiddenRuns.append(run); run = [] }
                    shown.append(c.isNewline || c == "\t" ? " " : c)
                }
            }
            if !run.isEmpty { hiddenRuns.append(run) }
            let shownText = String(shown)
            let outChars = Array(out)
            for hidden in hiddenRuns {
                if hidden.count >= 1, !shownText.contains(String(hidden)), out.contains(String(hidden)) { return false }
                for k in 0..<max(hidden.count - 1, 0) {
                    let piece = String(hidden[k...(k + 1)])
                    if shownText.contains(piece) { continue }
                    for j in 0..<max(outChars.count - 1, 0) where String(outChars[j...(j + 1)]) == piece {
                        return false
                    }
                }
            }
            return true
        }
    }
}
