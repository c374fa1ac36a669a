import SpoilerCore
import SpoilerLayout
import SpoilerRender

/// What `play` and `read` print when standard output is not a terminal: the message once,
/// every hidden word masked, with colours and attributes only when `capability` has them.
enum StillFrame {
    /// Writes `message` laid out by `engine` (wrapped at `COLUMNS` when the engine has no
    /// width of its own) with `effect`'s scene at time 0
    /// (``StillFrameWriter/writeMessage(layout:options:scene:into:)``).
    static func write(
        _ message: Message, engine: LayoutEngine, effect: EffectChoice, capability: ColorCapability,
        glyphs: GlyphSet, environment: [String: String]
    ) {
        var engine = engine
        if engine.wrapWidth == nil, let columns = environment["COLUMNS"].flatMap({ Int($0) }), columns > 0 {
            engine.wrapWidth = columns
        }
        let layout = engine.layout(message)
        var options = ANSIFrameOptions(capability: capability, glyphs: glyphs)
        options.formatting = message.entities
        var out: [UInt8] = []
        StillFrameWriter.writeMessage(layout: layout, options: options, scene: { effect.scene(for: $0) }, into: &out)
        StandardStreams.write(out)
    }
}
