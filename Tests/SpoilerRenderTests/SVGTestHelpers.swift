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

/// A console font from console-setup (public domain), 8×16, kept in Fixtures/fonts.
func consoleFont() throws -> BitmapFont {
    let path = fixturesRoot.appendingPathComponent("fonts/Lat15-Fixed16.psf.gz").path
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

/// The SVG rendered by rsvg-convert, cropped so that pixel (0, 0) is the layout's origin
/// (the picture has a margin and a viewBox that starts left of and above 0).
func renderLayoutArea(_ svg: [UInt8]) throws -> PNGImage {
    let full = try renderSVG(svg)
    let (x0, y0) = viewBoxOrigin(svg)
    var out = PNGImage(width: full.width + x0, height: full.height + y0, rgba: [])
    for y in 0..<out.height {
        for x in 0..<out.width {
            let p = full.pixel(x - x0, y - y0)
            out.rgba.append(contentsOf: [p.r, p.g, p.b, p.a])
        }
    }
    return out
}

/// The viewBox's top-left corner (whole pixels, at most 0).
func viewBoxOrigin(_ svg: [UInt8]) -> (Int, Int) {
    let source = String(decoding: svg.prefix(300), as: UTF8.self)
    guard let start = source.range(of: "viewBox=\"") else { return (0, 0) }
    let numbers = source[start.upperBound...].prefix { $0 != "\"" }.split(separator: " ").compactMap { Double($0) }
    return numbers.count == 4 ? (Int(numbers[0]), Int(numbers[1])) : (0, 0)
}

/// The text a reader gets from an SVG: the character data of its `<text>` elements, in
/// order, each element's joined to the next by nothing (entities decoded).
func svgTextContent(_ svg: [UInt8]) -> String {
    let source = String(decoding: svg, as: UTF8.self)
    var out = ""
    var rest = source[...]
    while let open = rest.range(of: "<text") {
        guard let tagEnd = rest[open.upperBound...].firstIndex(of: ">"),
            let close = rest[tagEnd...].range(of: "</text>")
        else { break }
        out += rest[rest.index(after: tagEnd)..<close.lowerBound]
        rest = rest[close.upperBound...]
    }
    return out.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
        .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
        .replacingOccurrences(of: "&amp;", with: "&")
}
