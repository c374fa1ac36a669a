import Foundation
import SpoilerTestSupport
import Testing

/// `--preset FILE.json` wherever a preset is taken: `render`, `play` and `read` (the last
/// two on a pipe print a still frame, whose dust takes the preset's colour).
@Suite struct PresetFileTests {
    static let embers =
        ##"{"name":"embers","emitterShape":"rectangle","confinement":"bounce","emitterCells":[{"birthRate":40,"lifetime":1,"velocityRange":20,"emissionRange":6.2832,"alpha":1,"color":"#ff8800"}]}"##

    /// A folder with `embers.json` and a broken `bad.json`.
    static func presets() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("spoiler-presets-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try Data(embers.utf8).write(to: dir.appendingPathComponent("embers.json"))
        try Data("{\n  \"emitterCells\": [{\"velocity\": true}]\n}".utf8).write(
            to: dir.appendingPathComponent("bad.json"))
        return dir
    }

    /// The 24-bit foreground of the preset's colour, #ff8800.
    static let orange = "38;2;255;136;0"

    @Test(arguments: [
        ["render", "--format", "ansi", "--at", "0.5"], ["play"], ["read", "--theme", "none"],
    ])
    func aPresetFileIsTaken(command: [String]) throws {
        let dir = try Self.presets()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("embers.json").path
        let environment = ["COLORTERM": "truecolor", "TERM": "xterm-256color"]
        let r = try runSpoiler(
            command + ["--preset", file, "--color", "always"], input: "the butler ||did it||", environment: environment)
        #expect(r.status == 0, "\(command): \(r.err)")
        #expect(r.err == "", "\(command)")
        #expect(r.out.contains(Self.orange), "\(command): the dust is not the preset's colour")
        #expect(!r.out.contains("did it"), "\(command)")
        // The built-in dust is another colour: the file was read, not ignored.
        let dust = try runSpoiler(
            command + ["--color", "always"], input: "the butler ||did it||", environment: environment)
        #expect(dust.status == 0)
        #expect(!dust.out.contains(Self.orange), "\(command)")
    }

    @Test(arguments: [["render", "--format", "svg"], ["play"], ["read"]])
    func aBrokenPresetFileIsAnErrorWithItsPosition(command: [String]) throws {
        let dir = try Self.presets()
        defer { try? FileManager.default.removeItem(at: dir) }
        let bad = dir.appendingPathComponent("bad.json").path
        let r = try runSpoiler(command + ["--preset", bad], input: "a ||b||")
        #expect(r.status == 1)
        #expect(r.err == "error: \(bad):2:21: field 'emitterCells[0].velocity': expected a number\n", "\(command)")
    }
}
