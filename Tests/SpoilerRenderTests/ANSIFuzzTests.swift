import SpoilerCore
import SpoilerEffect
import SpoilerLayout
import SpoilerRender
import SpoilerTestSupport
import Testing

/// The ANSI renderer's fuzz target: random messages with every kind of control and
/// format character, laid out and drawn with reveals. The output must never carry a
/// control byte of the text, and the screen model must end up showing the canvas.
@Suite struct ANSIFuzzTests {
    static let pieces: [String] =
        mixedScriptPieces + [
            "\u{1B}", "\u{1B}]52;c;aGk=\u{07}", "\u{1B}[2J", "\u{07}", "\u{7F}", "\u{9B}", "\u{85}", "\u{202E}",
            "\u{2066}", "\u{200F}", "\u{0}", "\r", "\u{1B}P", "\u{9D}0;x\u{9C}",
        ]

    static func randomMessage(_ rng: inout SplitMix64) -> Message {
        var text = ""
        for _ in 0..<Int(rng.next() % 16) + 1 { text += pieces[Int(rng.next() % UInt64(pieces.count))] }
        let length = text.utf16.count
        var entities: [Entity] = []
        if length > 1 {
            let offset = Int(rng.next() % UInt64(length - 1))
            entities.append(Entity(.spoiler, offset: offset, length: Int(rng.next() % UInt64(length - offset)) + 1))
        }
        return Message(text: text, entities: entities)
    }

    @Test func randomMessagesNeverWriteControlsFromText() {
        forAll({ rng in (ANSIFuzzTests.randomMessage(&rng), rng.nextUnit() * 2) }, count: 400) { message, at in
            let layout = LayoutEngine(wrapWidth: 24).layout(message)
            var scene = SpoilerScene(layout: layout, preset: .dust, seed: 3)
            scene.revealAll(at: 0.2)
            let animation = ANSIAnimation.frames(
                layout: layout, scene: scene, options: ANSIFrameOptions(capability: .palette256), fps: 10, duration: at)
            let bytes = animation.bytes
            for (i, b) in bytes.enumerated() {
                if b == 0x1B {
                    guard i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "[") else { return false }
                } else if b < 0x20 && b != 0x0D || b == 0x7F {
                    return false
                }
            }
            let text = String(decoding: bytes, as: UTF8.self)
            if text.unicodeScalars.contains(where: {
                (0x80...0x9F).contains($0.value) || TerminalSafety.isUnsafe($0.value) && $0.value >= 0x80
            }) {
                return false
            }
            var screen = ANSIScreen(width: animation.width, height: animation.height)
            screen.apply(bytes)
            return screen.unexpected.isEmpty
        }
    }
}
