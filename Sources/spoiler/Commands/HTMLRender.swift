import SpoilerCore
import SpoilerParser
import SpoilerRender

/// `spoiler render --format html`: the message as an interactive page (``HTMLRenderer``).
enum HTMLRender {
    /// The options that do not apply to a page, whose layout and clock are the browser's.
    static let notForHTML = ["font", "width", "cell", "fps", "duration", "at", "reveal-at", "reveal-origin", "color"]

    static func render(_ args: Arguments) throws(CommandLineError) -> [UInt8] {
        for name in notForHTML where args[name] != nil {
            throw .usage("'--\(name)' does not apply to --format html (the browser lays out and animates)", command: "render")
        }
        let from = try args.choice("from", as: InputFormat.self) ?? .plain
        if from == .export {
            throw .usage("render takes one message; '--from export' holds many", command: "render")
        }
        var options = HTMLOptions()
        options.seed = try args.integer("seed", in: 0...Int.max).map(UInt64.init) ?? 1
        options.density = try args.number("density", in: 0...1000) ?? 20
        options.revealScope = try args.choice("reveal-scope", as: HTMLRevealScope.self) ?? .spoiler
        options.rehideAfter = try args.number("rehide-after", in: 0...3600)
        options.reducedMotion = args.has("reduced-motion") || RenderCommand.environment("REDUCED_MOTION") == "1"
        options.redact = args.has("redact")
        options.embed = args.has("embed")
        options.preset = try RenderCommand.loadPreset(args["preset"] ?? "dust")
        let input = try InputSource(path: args.inputPath)
        let message = try MessageBatch.wholeMessage(from: input, format: from)
        var out: [UInt8] = []
        HTMLRenderer.render(message, options: options, into: &out)
        return out
    }
}
