import SpoilerCore
import SpoilerRender
import SpoilerTestSupport

/// The screen model's form of a canvas colour.
func modelColor(_ c: CellColor) -> String {
    switch c.raw >> 24 {
    case 1: return "i\(c.raw & 0xFF)"
    case 2:
        let hex = String(c.raw & 0xFF_FFFF, radix: 16)
        return "#" + String(repeating: "0", count: 6 - hex.count) + hex
    default: return "default"
    }
}

/// The screen model's form of a canvas cell's pen.
func modelPen(_ cell: CanvasCell) -> ANSIScreen.Pen {
    var attributes: Set<Int> = []
    let codes = [1, 2, 3, 4, 7]
    for (bit, code) in codes.enumerated() where cell.attributes.rawValue & (1 << bit) != 0 { attributes.insert(code) }
    return ANSIScreen.Pen(
        foreground: modelColor(cell.foreground), background: modelColor(cell.background), attributes: attributes)
}

/// The cells where the screen model differs from the canvas, described (empty: same).
func differences(_ screen: ANSIScreen, _ canvas: CellCanvas) -> [String] {
    var out: [String] = []
    for row in 0..<canvas.height {
        for column in 0..<canvas.width {
            let cell = canvas[column, row]
            let expected = ANSIScreen.Cell(text: canvas.text(of: cell), pen: modelPen(cell))
            let actual = screen[column, row]
            if expected != actual { out.append("(\(column),\(row)): expected \(expected), got \(actual)") }
        }
    }
    return out + screen.unexpected
}

/// Output bytes with ESC shown as `␛`, for readable fixtures and messages.
func visibleEscapes(_ bytes: [UInt8]) -> String {
    String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "\u{1B}", with: "␛")
}

extension String {
    func replacingOccurrences(of target: String, with replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
