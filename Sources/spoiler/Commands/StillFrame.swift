import SpoilerCore
import SpoilerLayout
import SpoilerRender

/// What `play` and `read` print when standard output is not a terminal: the message once,
/// every hidden word masked, with colours and attributes only when `capability` has them.
enum StillFrame {
    /// Writes `message` laid out by `engine` (wrapped at `COLUMNS` when the engine has no
    /// width of its own) with `effect`'s scene at time 0.
    static func write(
        _ message: Message, engine: LayoutEngine, effect: EffectChoice, capability: ColorCapability,
        glyphs: GlyphSet, environment: [String: String]
    ) {
        var engine = engine
        if engine.wrapWidth == nil, let columns = environment["COLUMNS"].flatMap({ Int($0) }), columns > 0 {
            engine.wrapWidth = columns
        }
        let layout = engine.layout(message)
        let scene = effect.scene(for: layout)
        var options = ANSIFrameOptions(capability: capability, glyphs: glyphs)
        options.fillHiddenCells = true
        options.formatting = message.entities
        var builder = ANSIFrameBuilder(layout: layout, options: options)
        var canvas = CellCanvas(width: builder.columns, height: builder.rows)
        builder.draw(scene, into: &canvas)
        var out: [UInt8] = []
        StillFrameWriter.write(canvas, capability: capability, into: &out)
        StandardStreams.write(out)
    }
}
