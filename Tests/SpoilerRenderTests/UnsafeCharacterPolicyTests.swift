import SpoilerCore
import SpoilerEffect
import SpoilerLayout
import SpoilerRender
import SpoilerTestSupport
import Testing

/// One policy for characters that must not reach a terminal raw, checked over every code
/// point against Unicode's own properties (general category Cc and Bidi_Control), not
/// against our table: the layout draws each character as itself, as nothing (a zero-width
/// format character), or as a visible symbol, and the terminal renderer agrees.
@Suite struct UnsafeCharacterPolicyTests {
    /// What Unicode says must never be drawn raw.
    static func mustBeReplaced(_ s: Unicode.Scalar) -> Bool {
        s.properties.generalCategory == .control || s.properties.isBidiControl
    }

    static let allScalars: [Unicode.Scalar] = (0...0x10FFFF as ClosedRange<UInt32>).compactMap(Unicode.Scalar.init)

    static func hex(_ v: UInt32) -> String { "U+" + String(v, radix: 16, uppercase: true) }

    @Test func thePolicyIsUnicodesControlsAndBidiControls() {
        var wrong: [String] = []
        for s in Self.allScalars {
            let v = s.value
            let unsafe = ControlPictures.isUnsafe(v)
            let stand = ControlPictures.standIn(for: v)
            if unsafe != Self.mustBeReplaced(s) { wrong.append("\(Self.hex(v)) unsafe: \(unsafe)") }
            if TerminalSafety.isUnsafe(v) != unsafe || TerminalSafety.visible(v) != stand {
                wrong.append("\(Self.hex(v)): the terminal renderer disagrees with the layout")
            }
            if unsafe {
                // The stand-in is a visible symbol (So: Control Pictures, U+FFFD), safe itself.
                guard let symbol = Unicode.Scalar(stand), symbol.properties.generalCategory == .otherSymbol,
                    !Self.mustBeReplaced(symbol), ControlPictures.picture(for: v) == symbol
                else {
                    wrong.append("\(Self.hex(v)) -> \(Self.hex(stand)) is not a visible symbol")
                    continue
                }
            } else if stand != v || ControlPictures.picture(for: v) != nil {
                wrong.append("\(Self.hex(v)) is safe but replaced")
            }
        }
        #expect(wrong.isEmpty, "\(wrong.prefix(20))")
        // The three the layout and the terminal used to disagree on.
        for v: UInt32 in [0x061C, 0x200E, 0x200F] { #expect(ControlPictures.picture(for: v) == "\u{FFFD}") }
    }

    /// Every code point, each followed by "x", laid out in the mono model: each grapheme is
    /// drawn as its own text, as nothing, as spaces (a tab) or as the stand-in of its first
    /// scalar, and no drawn scalar is one Unicode calls a control or a bidi control.
    @Test func everyCodePointIsDrawnAsItselfOrAVisibleSymbol() {
        var wrong: [String] = []
        let engine = LayoutEngine(wrapWidth: 120)
        for start in stride(from: 0, to: Self.allScalars.count, by: 8192) {
            var text = String.UnicodeScalarView()
            for s in Self.allScalars[start..<min(start + 8192, Self.allScalars.count)] {
                text.append(s)
                text.append("x")
            }
            let layout = engine.layout(Message(text: String(text)))
            for g in layout.graphemes {
                let first = g.text.unicodeScalars.first!
                if g.display.unicodeScalars.contains(where: Self.mustBeReplaced) {
                    wrong.append("\(Self.hex(first.value)) drawn raw")
                } else if let picture = ControlPictures.picture(for: first.value) {
                    // Line breaks end a line and draw nothing; a tab is spaces.
                    let isBreak = [0x0A, 0x0D, 0x85].contains(first.value) && g.display.isEmpty
                    let isTab = first.value == 0x09 && g.display.allSatisfy { $0 == " " }
                    if g.display != String(Character(picture)) && !isBreak && !isTab {
                        wrong.append("\(Self.hex(first.value)) drawn as \(g.display.debugDescription)")
                    }
                } else if g.display != g.text && !g.display.isEmpty && g.display.contains(where: { $0 != " " }) {
                    wrong.append("\(Self.hex(first.value)) drawn as \(g.display.debugDescription)")
                }
            }
        }
        #expect(wrong.isEmpty, "\(wrong.prefix(20))")
    }

    /// Every unsafe character, shown and hidden, drawn by the ANSI renderer: the bytes hold
    /// no control but the renderer's own CSI sequences, and no unsafe scalar.
    @Test func theTerminalRendererDrawsNoUnsafeScalar() {
        let unsafe = Self.allScalars.filter(Self.mustBeReplaced)
        var text = ""
        for s in unsafe { text += "a\(Character(s))b " }
        let length = text.utf16.count
        let message = Message(text: text, entities: [Entity(.spoiler, offset: length / 2, length: length / 4)])
        let layout = LayoutEngine(wrapWidth: 40).layout(message)
        var scene = SpoilerScene(layout: layout, preset: .dust, seed: 3)
        scene.revealAll(at: 0.1)
        let bytes = ANSIAnimation.frames(
            layout: layout, scene: scene, options: ANSIFrameOptions(capability: .palette256), fps: 10, duration: 0.5
        ).bytes
        var i = 0
        var stray: [Int] = []
        while i < bytes.count {
            if bytes[i] == 0x1B, i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "[") {
                i += 2
                while i < bytes.count, !(0x40...0x7E).contains(bytes[i]) { i += 1 }
            } else if bytes[i] < 0x20 && bytes[i] != 0x0D && bytes[i] != 0x0A || bytes[i] == 0x7F {
                stray.append(i)
            }
            i += 1
        }
        #expect(stray.isEmpty, "control bytes at \(stray.prefix(10))")
        let drawn = String(decoding: bytes, as: UTF8.self).unicodeScalars
        #expect(!drawn.contains { Self.mustBeReplaced($0) && $0.value >= 0x80 })
        #expect(drawn.contains("\u{FFFD}") && drawn.contains("\u{241B}"))
    }
}
