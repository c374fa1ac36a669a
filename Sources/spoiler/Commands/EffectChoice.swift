import Glibc
import SpoilerCore
import SpoilerEffect
import SpoilerLayout
import SpoilerRender

/// The effect options shared by `render`, `play` and `read`: `--preset`, `--seed`,
/// `--density`, `--reveal-scope`, `--rehide-after`, `--reduced-motion`.
struct EffectChoice {
    var preset: Preset
    var seed: UInt64
    var options: SceneOptions
    var rehideAfter: Double?

    /// The choice the arguments make; a preset that is not built in is read from the
    /// file of that name.
    ///
    /// - Throws: a failure naming the file for a preset file that cannot be read or parsed.
    init(_ args: Arguments) throws(CommandLineError) {
        preset = try EffectChoice.loadPreset(args.text("preset")!)
        seed = args.seed()!
        options = SceneOptions()
        options.density = args.number("density")!
        options.revealScope = args.choice("reveal-scope", as: RevealScope.self)!
        options.reducedMotion = args.flag("reduced-motion") || EffectChoice.environment("REDUCED_MOTION") == "1"
        rehideAfter = args.number("rehide-after")
    }

    /// The scene for a layout.
    func scene(for layout: TextLayout) -> SpoilerScene {
        SpoilerScene(words: ANSIFrameBuilder.sceneWords(for: layout), preset: preset, options: options, seed: seed)
    }

    /// A built-in preset by name, else a JSON preset file.
    static func loadPreset(_ name: String) throws(CommandLineError) -> Preset {
        if let p = Preset.builtIn[name] { return p }
        let bytes: [UInt8]
        do {
            bytes = try InputSource(path: name, what: "preset").readAll()
        } catch {
            var reason = "\(error.description) (built-in presets: \(Preset.builtInNames.joined(separator: ", "))"
            if let s = Spelling.suggestion(for: name, among: Preset.builtInNames) { reason += "; did you mean '\(s)'?" }
            throw .failure(reason + ")")
        }
        do {
            return try Preset.parse(json: bytes)
        } catch {
            throw .failure(error.located(in: name))
        }
    }

    /// An environment variable, read here at the edge.
    static func environment(_ name: String) -> String? {
        guard let v = getenv(name) else { return nil }
        return String(cString: v)
    }
}
