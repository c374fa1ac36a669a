import Foundation
import SpoilerCore
import SpoilerEffect
import SpoilerLayout
import SpoilerParser
import SpoilerRender
import SpoilerTestSupport

/// The layout of plain chat text (`||…||` marks spoilers) with the default 8×16 mono grid,
/// or with `font`.
func layoutOf(_ plain: String, font: BitmapFont? = nil) throws -> TextLayout {
    let message = try MessageParser.parse(plain, from: .plain)
    let engine = font.map { LayoutEngine(model: .font($0)) } ?? LayoutEngine()
    return engine.layout(message)
}

/// A Debian console font (console-setup-linux), 8×16.
func consoleFont() throws -> BitmapFont {
    let path = "/usr/share/consolefonts/Lat15-Fixed16.psf.gz"
    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    return try BitmapFont.parse(bytes, file: path)
}

/// A still SVG of `layout` at `time`, with `prepare` applied to the fresh scene.
func stillSVG(
    _ layout: TextLayout, at time: Double, font: BitmapFont? = nil, style: SVGStyle = SVGStyle(), seed: UInt64 = 1,
    prepare: (inout SpoilerScene) -> Void = { _ in }
) -> [UInt8] {
    var scene = SpoilerScene(layout: layout, preset: .dust, seed: seed)
    prepare(&scene)
    scene.advance(to: time)
    var out: [UInt8] = []
    SVGRenderer.renderStill(scene: scene, layout: layout, font: font, style: style, into: &out)
    return out
}

/// Whether a pixel is text: near white (the particles are at most #8e8e93).
func isText(_ p: PNGImage.Pixel) -> Bool { p.r > 200 && p.g > 200 && p.b > 200 }

/// The pixels inside `rect` (integer pixel grid, clipped to the image).
func pixels(in rect: SpoilerRect, of image: PNGImage) -> [PNGImage.Pixel] {
    var out: [PNGImage.Pixel] = []
    let x0 = max(Int(rect.minX), 0), x1 = min(Int(rect.maxX.rounded(.up)), image.width)
    let y0 = max(Int(rect.minY), 0), y1 = min(Int(rect.maxY.rounded(.up)), image.height)
    for y in y0..<max(y1, y0) { for x in x0..<max(x1, x0) { out.append(image.pixel(x, y)) } }
    return out
}
