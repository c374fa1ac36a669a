import SpoilerCore
import SpoilerLayout
import SpoilerRender

/// What `play` and `read` print when standard output is not a terminal: the message once,
/// every hidden word masked, with colours and attributes only when `capability` has them.
enum StillFrame {
    /// Writes `message` laid out by `engine` (wrapped at `COLUMNS` when the engine has no
    /// width of its own) with `effect`'s scene at time 0
    /// (``StillFrameWriter/writeMessage(_:engine:options:scene:write:)``, a piece at a time).
    static func write(
        _ message: Message, engine: LayoutEngine, effect: EffectChoice, capability: ColorCapability,
        glyphs: GlyphSet, environment: [String: String]
    ) {
        var engine = engine
        if engine.wrapWidth == nil, let columns = environment["COLUMNS"].flatMap({ Int($0) }), columns > 0 {
            engine.wrapWidth = columns
        }
        let options = ANSIFrameOptions(capability: capability, glyphs: glyphs)
        StillFrameWriter.writeMessage(message, engine: engine, options: options, scene: { effect.scene(for: $0) }) {
            StandardStreams.write($0)
        }
    }
}
