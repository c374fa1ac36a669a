import SpoilerCore
import SpoilerEffect
import SpoilerParser
import SpoilerRender

/// `spoiler render --format html`: the message as an interactive page (``HTMLRenderer``).
enum HTMLRender {
    /// The options that do not apply to a page, whose layout and clock are the browser's.
    static let notForHTML = [
        "font", "width", "cell", "fps", "duration", "at", "reveal-at", "reveal-origin", "color", "stage",
    ]

    /// The message and the page's options from `args`; the page is then written with
    /// ``HTMLRenderer/render(_:options:write:)``, a piece at a time.
    static func prepare(_ args: Arguments) throws(CommandLineError) -> (Message, HTMLOptions) {
        for name in notForHTML where args.given(name) {
            throw .usage(
                "'--\(name)' does not apply to --format html (the browser lays out and animates)", command: "render")
        }
        let from = args.choice("from", as: InputFormat.self)!
        if from == .export {
            throw .usage("render takes one message; '--from export' holds many", command: "render")
        }
        let effect = try EffectChoice(args)
        var options = HTMLOptions()
        options.seed = effect.seed
        options.density = effect.options.density
        options.revealScope = RevealScope(rawValue: args.text("reveal-scope")!) ?? .spoiler
        options.rehideAfter = effect.rehideAfter
        options.reducedMotion = effect.options.reducedMotion
        options.redact = args.flag("redact")
        options.embed = args.flag("embed")
        options.preset = effect.preset
        if args.flag("celebrate") { options.celebration = .confetti }
        let input = try InputSource(path: args.inputPath)
        let message = try MessageBatch.wholeMessage(from: input, format: from, options: MessageReading.options(args))
        return (message, options)
    }
}
