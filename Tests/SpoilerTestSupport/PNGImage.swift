import CZlib
import Foundation

/// A decoded 8-bit PNG (the kind rsvg-convert writes), as RGBA pixels, so that tests can
/// check what an SVG looks like. Reads colour types 0, 2, 4 and 6 at bit depth 8,
/// unfilters all five filter types, inflates with zlib; no interlacing.
public struct PNGImage: Sendable {
    public var width: Int
    public var height: Int
    /// `width × height × 4` bytes, rows top to bottom, RGBA.
    public var rgba: [UInt8]

    public struct Pixel: Sendable, Hashable {
        public var r, g, b, a: UInt8
        public init(r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
            self.r = r
            self.g = g
            self.b = b
            self.a = a
        }
    }

    /// The pixel at (`x`, `y`), top-left origin.
    public func pixel(_ x: Int, _ y: Int) -> Pixel {
        let i = (y * width + x) * 4
        return Pixel(r: rgba[i], g: rgba[i + 1], b: rgba[i + 2], a: rgba[i + 3])
    }

    public struct DecodeError: Error, CustomStringConvertible {
        public var description: String
    }

    /// Decodes `data` (a whole PNG file).
    /// An image from its pixels: `rgba` holds 4 bytes a pixel, rows top to bottom.
    public init(width: Int, height: Int, rgba: [UInt8]) {
        self.width = width
        self.height = height
        self.rgba = rgba
    }

    public init(_ data: Data) throws {
        let b = [UInt8](data)
        guard b.count > 8, b[0..<8].elementsEqual([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) else {
            throw DecodeError(description: "not a PNG")
        }
        func u32(_ i: Int) -> Int { Int(b[i]) << 24 | Int(b[i + 1]) << 16 | Int(b[i + 2]) << 8 | Int(b[i + 3]) }
        var i = 8
        var w = 0, h = 0, colorType = 0
        var idat: [UInt8] = []
        while i + 8 <= b.count {
            let length = u32(i)
            let type = String(decoding: b[(i + 4)..<(i + 8)], as: UTF8.self)
            let body = (i + 8)..<min(i + 8 + length, b.count)
            switch type {
            case "IHDR":
                w = u32(body.lowerBound)
                h = u32(body.lowerBound + 4)
                guard b[body.lowerBound + 8] == 8 else {
                    throw DecodeError(description: "bit depth \(b[body.lowerBound + 8])")
                }
                colorType = Int(b[body.lowerBound + 9])
                guard b[body.lowerBound + 12] == 0 else { throw DecodeError(description: "interlaced") }
            case "IDAT": idat.append(contentsOf: b[body])
            default: break
            }
            if type == "IEND" { break }
            i = body.upperBound + 4
        }
        let channels: Int
        switch colorType {
        case 0: channels = 1
        case 2: channels = 3
        case 4: channels = 2
        case 6: channels = 4
        default: throw DecodeError(description: "colour type \(colorType)")
        }
        let stride = w * channels
        var raw = [UInt8](repeating: 0, count: h * (stride + 1))
        var rawLength = uLongf(raw.count)
        let status = raw.withUnsafeMutableBufferPointer { out in
            idat.withUnsafeBufferPointer { input in
                uncompress(out.baseAddress, &rawLength, input.baseAddress, uLong(input.count))
            }
        }
        guard status == Z_OK, Int(rawLength) == raw.count else {
            throw DecodeError(description: "zlib status \(status)")
        }
        var pixels = [UInt8](repeating: 0, count: h * stride)
        for y in 0..<h {
            let filter = raw[y * (stride + 1)]
            for x in 0..<stride {
                let v = raw[y * (stride + 1) + 1 + x]
                let a = x >= channels ? Int(pixels[y * stride + x - channels]) : 0
                let up = y > 0 ? Int(pixels[(y - 1) * stride + x]) : 0
                let c = (x >= channels && y > 0) ? Int(pixels[(y - 1) * stride + x - channels]) : 0
                let predicted: Int
                switch filter {
                case 0: predicted = 0
                case 1: predicted = a
                case 2: predicted = up
                case 3: predicted = (a + up) / 2
                case 4:
                    let p = a + up - c
                    let pa = abs(p - a), pb = abs(p - up), pc = abs(p - c)
                    predicted = pa <= pb && pa <= pc ? a : (pb <= pc ? up : c)
                default: throw DecodeError(description: "filter \(filter)")
                }
                pixels[y * stride + x] = UInt8(truncatingIfNeeded: Int(v) + predicted)
            }
        }
        width = w
        height = h
        rgba = [UInt8](repeating: 255, count: w * h * 4)
        for p in 0..<(w * h) {
            let s = p * channels
            switch channels {
            case 1: rgba[p * 4] = pixels[s]; rgba[p * 4 + 1] = pixels[s]; rgba[p * 4 + 2] = pixels[s]
            case 2:
                rgba[p * 4] = pixels[s]; rgba[p * 4 + 1] = pixels[s]; rgba[p * 4 + 2] = pixels[s]
                rgba[p * 4 + 3] = pixels[s + 1]
            default:
                rgba[p * 4] = pixels[s]; rgba[p * 4 + 1] = pixels[s + 1]; rgba[p * 4 + 2] = pixels[s + 2]
                if channels == 4 { rgba[p * 4 + 3] = pixels[s + 3] }
            }
        }
    }
}

/// Renders SVG source to a PNG with the real rsvg-convert (Debian librsvg2-bin) and
/// decodes it.
public func renderSVG(_ svg: [UInt8]) throws -> PNGImage {
    let program =
        ["/usr/bin/rsvg-convert", "/usr/local/bin/rsvg-convert"].first {
            FileManager.default.isExecutableFile(atPath: $0)
        } ?? "/usr/bin/rsvg-convert"
    let result = try runProgram(URL(fileURLWithPath: program), ["--format", "png"], stdin: Data(svg))
    guard result.status == 0 else {
        throw PNGImage.DecodeError(description: "rsvg-convert failed (\(result.status)): \(result.err)")
    }
    return try PNGImage(result.stdout)
}
