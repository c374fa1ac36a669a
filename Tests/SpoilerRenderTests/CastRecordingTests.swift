import Foundation
import SpoilerCore
import SpoilerEffect
import SpoilerLayout
import SpoilerRender
import SpoilerTestSupport
import Testing

@Suite struct CastRecordingTests {
    static let message = Message(
        text: "the butler did it in the library", entities: [Entity(.spoiler, offset: 11, length: 6)])

    static func animation(revealAt: Double?, capability: ColorCapability = .trueColor) -> ANSIAnimation {
        let layout = LayoutEngine().layout(message)
        var scene = SpoilerScene(words: ANSIFrameBuilder.sceneWords(for: layout), preset: .dust, seed: 7)
        if let revealAt { scene.revealAll(at: revealAt) }
        return ANSIAnimation.frames(
            layout: layout, scene: scene, options: ANSIFrameOptions(capability: capability), fps: 10, duration: 2)
    }

    @Test func aRecordingIsAsciicastV2() throws {
        let cast = CastRecordingTests.animation(revealAt: 0.5).asciicast()
        let lines = String(decoding: cast, as: UTF8.self).split(separator: "\n")
        let header = try JSONValue.parse(Array(lines[0].utf8))
        #expect(header["version"]?.intValue == 2)
        #expect(header["width"]?.intValue == 32)
        #expect(header["height"]?.intValue == 2)
        var last = -1.0
        for line in lines.dropFirst() {
            let event = try JSONValue.parse(Array(line.utf8))
            guard case .array(let parts) = event, parts.count == 3 else {
                Issue.record("not an event: \(line)")
                continue
            }
            let t = try #require(parts[0].doubleValue)
            #expect(t >= last)
            last = t
            #expect(parts[1].stringValue == "o")
        }
        #expect(last == 2)
    }

    @Test func asciinemaReadsIt() throws {
        let cast = CastRecordingTests.animation(revealAt: 0.5).asciicast()
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("spoiler-\(UUID().uuidString).cast")
        try Data(cast).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        // asciinema opens /dev/tty, so it runs under script(1), which gives it a terminal.
        let result = try runProgram(
            URL(fileURLWithPath: "/usr/bin/script"), ["-qec", "asciinema cat \(file.path)", "/dev/null"],
            environment: ["ASCIINEMA_CONFIG_HOME": FileManager.default.temporaryDirectory.path])
        #expect(result.status == 0, "\(result.err)")
        var screen = ANSIScreen(width: 32, height: 2)
        screen.apply(Array(result.stdout))
        #expect(screen.lines[0] == "the butler did it in the library")
        #expect(screen.cursorVisible)
    }

    @Test func withoutARevealTheHiddenWordNeverAppears() {
        let animation = CastRecordingTests.animation(revealAt: nil)
        let text = String(decoding: animation.asciicast(), as: UTF8.self)
        let bytes = Array(text.utf8)
        let needle = Array("did".utf8)
        let hit = (0..<max(0, bytes.count - 2)).first { Array(bytes[$0..<$0 + 3]) == needle }
        if let hit {
            Issue.record("hidden text in the recording: \(visibleEscapes(Array(bytes[max(0, hit - 60)..<hit + 3])))")
        }
        var screen = ANSIScreen(width: 32, height: 2)
        screen.apply(animation.bytes)
        #expect(screen.lines[0].hasPrefix("the butler "))
        #expect(!screen.lines[0].contains("did"))
        #expect(screen.unexpected.isEmpty)
    }

    @Test func theFramesAreDiffs() {
        let animation = CastRecordingTests.animation(revealAt: nil)
        let first = animation.frames[0].bytes.count
        let rest = animation.frames.dropFirst().map(\.bytes.count)
        #expect(rest.allSatisfy { $0 < first })
    }
}
