public import SpoilerCore
public import SpoilerEffect
public import SpoilerLayout

/// A message's spoiler animation as terminal output: timed frames of ANSI bytes, the
/// first a full frame and each next one only the cells that changed (as `spoiler play`
/// draws them), for `render --format ansi` and `--format cast`.
///
/// ```swift
/// let frames = ANSIAnimation.frames(layout: layout, scene: scene,
///                                   options: ANSIFrameOptions(capability: .trueColor),
///                                   fps: 30, duration: 2)
/// var cast = AsciicastWriter(width: frames.width, height: frames.height)
/// for f in frames.frames { cast.output(at: f.time, f.bytes) }
/// ```
public struct ANSIAnimation: Sendable {
    /// One frame: its time in seconds from the start, and the bytes that draw it.
    public struct Frame: Sendable, Hashable {
        /// Seconds from the start of the animation at which the frame is shown.
        public var time: Double
        /// The bytes that bring the terminal from the previous frame to this one.
        public var bytes: [UInt8]
    }

    /// The screen size in cells: the layout's, at least 1 × 1.
    public var width: Int
    /// Rows in cells: the layout's (at least 1) plus one, the row below the message where the
    /// last frame leaves the cursor.
    public var height: Int
    /// The frames, in time order; a frame that changed nothing is left out.
    public var frames: [Frame]

    /// Records `duration` seconds of `scene` (from its current time) at `fps` frames a
    /// second; frame k is drawn at scene time `start + k / fps`, k = 0 … ⌊duration × fps⌋.
    ///
    /// The first frame hides the cursor and clears the screen; after the last one the
    /// pen is reset, the cursor is put below the message and shown again, so the output
    /// can be written to a terminal as it is.
    ///
    /// The scene is taken by value, as by every renderer: the recording steps a copy, and
    /// the caller's scene stays at the time it was.
    ///
    /// - Parameters:
    ///   - layout: The message laid out in `mono` cells.
    ///   - scene: The scene of `layout`, at the time the recording starts.
    ///   - options: The look of the frames.
    ///   - fps: Frames a second.
    ///   - duration: Seconds to record; negative or not finite records the first frame only.
    ///   - celebration: confetti drawn over the frames from its start (in the scene's
    ///     time and in the layout's pixels, cell (0, 0) at pixel (0, 0)), in blank cells.
    ///   - stageColumns: the screen's width in cells when it should be wider than the
    ///     layout (room for the confetti to fall).
    ///   - stageRows: the screen's height in cells when it should be taller than the layout.
    /// - Returns: The frames, with the screen size they need.
    /// - Complexity: O(frames × (cells + particles)).
    public static func frames(
        layout: TextLayout, scene: SpoilerScene, options: ANSIFrameOptions, fps: FrameRate, duration: Double,
        celebration: Celebration? = nil, stageColumns: Int? = nil, stageRows: Int? = nil
    ) -> ANSIAnimation {
        var frames: [Frame] = []
        var scene = scene
        let size = record(
            layout: layout, scene: &scene, options: options, fps: fps, duration: duration, celebration: celebration,
            stageColumns: stageColumns, stageRows: stageRows, size: { _, _ in }, frame: { frames.append($0) })
        return ANSIAnimation(width: size.width, height: size.height, frames: frames)
    }

    /// Records the animation as
    /// ``frames(layout:scene:options:fps:duration:celebration:stageColumns:stageRows:)-(_,_,_,FrameRate,_,_,_,_)``
    /// does, passing the screen size (``width`` and ``height``) to `size` first and then
    /// each frame to `frame` as it is drawn, so that no frame is held after it is passed on.
    /// `scene` is stepped in place (a caller that hands over the only copy of its scene
    /// holds one scene, not two).
    ///
    /// - Returns: The screen size passed to `size`.
    static func record(
        layout: TextLayout, scene: inout SpoilerScene, options: ANSIFrameOptions, fps: FrameRate, duration: Double,
        celebration: Celebration?, stageColumns: Int?, stageRows: Int?, size: (_ width: Int, _ height: Int) -> Void,
        frame: (Frame) -> Void
    ) -> (width: Int, height: Int) {
        var builder = ANSIFrameBuilder(layout: layout, options: options)
        let width = max(1, stageColumns ?? builder.columns)
        let height = max(1, stageRows ?? builder.rows)
        size(width, height + 1)
        var party = celebration
        let start = scene.time
        let count = fps.frames(in: duration, rounding: .down) + 1
        var encoder = ANSIEncoder(capability: options.capability)
        var previous: CellCanvas? = nil
        var spare: CellCanvas? = nil
        for k in 0..<count {
            let t = fps.time(ofFrame: k)
            scene.advance(to: start + t)
            var canvas = spare ?? CellCanvas(width: width, height: height)
            canvas.clear()
            builder.draw(scene, into: &canvas)
            if party != nil {
                party!.advance(to: scene.time)
                canvas.drawCelebration(
                    party!, cellWidth: builder.cellWidth, cellHeight: builder.cellHeight,
                    capability: options.capability, glyphs: options.glyphs)
            }
            var out: [UInt8] = []
            if k == 0 { out += hideCursor }
            encoder.encodeFrame(from: previous, to: canvas, into: &out)
            if k == count - 1 {
                out += ANSI.resetPen
                ANSI.appendCUP(column: 0, row: height, to: &out)
                out += showCursor
            }
            if !out.isEmpty { frame(Frame(time: t, bytes: out)) }
            spare = previous
            previous = canvas
        }
        return (width, height + 1)
    }

    /// Writes the animation's frames one after another (the bytes of ``bytes``) a piece at
    /// a time, each frame as it is drawn: the screen, the previous frame and one piece
    /// are held, never the recording.
    ///
    /// ```swift
    /// try ANSIAnimation.writeFrames(layout: layout, scene: scene, options: options,
    ///                               fps: 30, duration: 2) { piece in try file.write(piece) }
    /// ```
    ///
    /// - Parameters:
    ///   - layout: The message laid out in `mono` cells.
    ///   - scene: The scene of `layout`, at the time the recording starts; stepped in place,
    ///     so that a caller that passes its last copy (`consume scene`) holds one scene.
    ///   - options: The look of the frames.
    ///   - fps: Frames a second.
    ///   - duration: Seconds to record; negative or not finite records the first frame only.
    ///   - celebration: confetti drawn over the frames from its start, as for `frames`.
    ///   - stageColumns: the screen's width in cells when it should be wider than the layout.
    ///   - stageRows: the screen's height in cells when it should be taller than the layout.
    ///   - write: called with the bytes in order, in pieces of about
    ///     ``RenderOutput/pieceSize`` bytes (a frame longer than that is one piece). The
    ///     first error it throws stops the writing and is rethrown.
    /// - Complexity: O(frames × (cells + particles)).
    public static func writeFrames<E: Error>(
        layout: TextLayout, scene: consuming SpoilerScene, options: ANSIFrameOptions, fps: FrameRate, duration: Double,
        celebration: Celebration? = nil, stageColumns: Int? = nil, stageRows: Int? = nil,
        write: ([UInt8]) throws(E) -> Void
    ) throws(E) {
        try PieceSink.run(write) { sink in
            var buffer: [UInt8] = []
            _ = record(
                layout: layout, scene: &scene, options: options, fps: fps, duration: duration,
                celebration: celebration, stageColumns: stageColumns, stageRows: stageRows, size: { _, _ in },
                frame: { frame in
                    buffer += frame.bytes
                    sink.spill(&buffer)
                })
            sink.pass(&buffer)
        }
    }

    /// Writes the animation as an asciicast v2 recording (the bytes of
    /// ``asciicast(title:)``) a piece at a time, each frame as it is drawn: the screen,
    /// the previous frame and one piece are held, never the recording.
    ///
    /// ```swift
    /// try ANSIAnimation.writeAsciicast(layout: layout, scene: scene, options: options,
    ///                                  fps: 30, duration: 2) { piece in try file.write(piece) }
    /// ```
    ///
    /// - Parameters:
    ///   - layout: The message laid out in `mono` cells.
    ///   - scene: The scene of `layout`, at the time the recording starts; stepped in place,
    ///     so that a caller that passes its last copy (`consume scene`) holds one scene.
    ///   - options: The look of the frames.
    ///   - fps: Frames a second.
    ///   - duration: Seconds to record; negative or not finite records the first frame only.
    ///   - celebration: confetti drawn over the frames from its start, as for `frames`.
    ///   - stageColumns: the screen's width in cells when it should be wider than the layout.
    ///   - stageRows: the screen's height in cells when it should be taller than the layout.
    ///   - title: the recording's title, shown by players, if given.
    ///   - write: called with the recording's UTF-8 bytes in order, in pieces of about
    ///     ``RenderOutput/pieceSize`` bytes (an event longer than that is one piece). The
    ///     first error it throws stops the writing and is rethrown.
    /// - Complexity: O(frames × (cells + particles)).
    public static func writeAsciicast<E: Error>(
        layout: TextLayout, scene: consuming SpoilerScene, options: ANSIFrameOptions, fps: FrameRate, duration: Double,
        celebration: Celebration? = nil, stageColumns: Int? = nil, stageRows: Int? = nil, title: String? = nil,
        write: ([UInt8]) throws(E) -> Void
    ) throws(E) {
        try PieceSink.run(write) { sink in
            var cast: AsciicastWriter?
            _ = record(
                layout: layout, scene: &scene, options: options, fps: fps, duration: duration,
                celebration: celebration, stageColumns: stageColumns, stageRows: stageRows,
                size: { width, height in cast = AsciicastWriter(width: width, height: height, title: title) },
                frame: { frame in
                    cast!.output(at: frame.time, frame.bytes)
                    cast!.spill(to: sink)
                })
            cast?.pass(to: sink)
        }
    }

    /// Records `duration` seconds of `scene` at `fps` frames a second, given as a `Double`.
    ///
    /// - Parameters:
    ///   - layout: The message laid out in `mono` cells.
    ///   - scene: The scene of `layout`, at the time the recording starts.
    ///   - options: The look of the frames.
    ///   - fps: Frames a second, rounded and clamped to ``FrameRate/range``.
    ///   - duration: Seconds to record.
    ///   - celebration: confetti drawn over the frames from its start.
    ///   - stageColumns: the screen's width in cells, when wider than the layout.
    ///   - stageRows: the screen's height in cells, when taller than the layout.
    /// - Returns: The frames, with the screen size they need.
    @available(*, deprecated, message: "pass a FrameRate: fps: FrameRate(clamping: fps)")
    @_disfavoredOverload
    public static func frames(
        layout: TextLayout, scene: SpoilerScene, options: ANSIFrameOptions, fps: Double, duration: Double,
        celebration: Celebration? = nil, stageColumns: Int? = nil, stageRows: Int? = nil
    ) -> ANSIAnimation {
        frames(
            layout: layout, scene: scene, options: options, fps: FrameRate(clamping: fps), duration: duration,
            celebration: celebration, stageColumns: stageColumns, stageRows: stageRows)
    }

    /// All frames one after another (the `--format ansi` stream).
    public var bytes: [UInt8] { frames.flatMap(\.bytes) }

    /// The frames as an asciicast v2 recording.
    public func asciicast(title: String? = nil) -> [UInt8] {
        var cast = AsciicastWriter(width: width, height: height, title: title)
        for f in frames { cast.output(at: f.time, f.bytes) }
        return cast.bytes
    }

    static let hideCursor: [UInt8] = Array("\u{1B}[?25l".utf8)
    static let showCursor: [UInt8] = Array("\u{1B}[?25h".utf8)
}
