/// One glyph of a bitmap font: its advance and its pixels.
///
/// Coordinates follow BDF 2.1: the glyph's origin is the left end of its baseline; the
/// bitmap is a `width` × `height` box whose bottom-left corner sits at (`xOffset`,
/// `yOffset`) from the origin, y growing upward. `bitmap` holds `height` rows, the top row
/// first, each `bytesPerRow` bytes, the most significant bit leftmost.
///
/// A renderer that has placed a grapheme at pixel `x` on a line whose top is `lineY`
/// draws the pixel (`px`, `py`) of ``inkedPixels(ascent:)`` at (`x + px`, `lineY + py`).
public struct Glyph: Sendable, Hashable {
    /// Horizontal advance in pixels.
    public var advance: Int
    /// Bitmap size in pixels.
    public var width: Int
    /// Bitmap height in pixels: the number of rows in ``bitmap`` (the width is ``width``).
    public var height: Int
    /// Bottom-left corner of the bitmap relative to the origin, in pixels, y up (BDF `BBX`).
    public var xOffset: Int
    /// Vertical offset of the bitmap's bottom edge from the baseline, in pixels, y up (BDF `BBX`);
    /// negative for a glyph that descends below the baseline.
    public var yOffset: Int
    /// Bytes in each bitmap row: `(width + 7) / 8`.
    public var bytesPerRow: Int
    /// `height` rows of `bytesPerRow` bytes, top row first, most significant bit leftmost.
    public var bitmap: ArraySlice<UInt8>

    /// Creates a glyph; `bitmap` must hold `height * ((width + 7) / 8)` bytes.
    public init(
        advance: Int, width: Int, height: Int, xOffset: Int, yOffset: Int, bitmap: ArraySlice<UInt8>
    ) {
        self.advance = advance
        self.width = width
        self.height = height
        self.xOffset = xOffset
        self.yOffset = yOffset
        self.bytesPerRow = (width + 7) / 8
        self.bitmap = bitmap
        precondition(bitmap.count >= height * bytesPerRow, "glyph bitmap too short: \(bitmap.count) bytes")
    }

    /// Whether the bitmap pixel at column `x`, row `y` (0 = top row) is set.
    public func isInked(x: Int, y: Int) -> Bool {
        guard x >= 0, x < width, y >= 0, y < height else { return false }
        let byte = bitmap[bitmap.startIndex + y * bytesPerRow + x / 8]
        return byte & (0x80 >> UInt8(x % 8)) != 0
    }

    /// Calls `body(px, py)` for every set pixel.
    ///
    /// Coordinates are pixels from the top-left corner of the glyph's line box, y down, for
    /// a font with the given `ascent` (the baseline is `ascent` pixels below the line's
    /// top). Rows come top to bottom, pixels left to right.
    public func forEachInkedPixel(ascent: Int, _ body: (_ px: Int, _ py: Int) -> Void) {
        let top = ascent - (yOffset + height)
        for y in 0..<height {
            let row = bitmap.startIndex + y * bytesPerRow
            for x in 0..<width where bitmap[row + x / 8] & (0x80 >> UInt8(x % 8)) != 0 {
                body(xOffset + x, top + y)
            }
        }
    }

    /// Every set pixel as in ``forEachInkedPixel(ascent:_:)``.
    public func inkedPixels(ascent: Int) -> [(x: Int, y: Int)] {
        var out: [(x: Int, y: Int)] = []
        forEachInkedPixel(ascent: ascent) { out.append((x: $0, y: $1)) }
        return out
    }
}
