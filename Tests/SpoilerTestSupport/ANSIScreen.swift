/// A small model of an xterm-like screen, for checking what ANSI output does.
///
/// It applies
/// printable text, cursor movement (CUP, CUU/CUD/CUF/CUB, CHA, VPA, CR), erase (ED 2),
/// SGR colours and attributes, and the private modes the player uses (1049, 25, 1000,
/// 1006, 2026), with xterm's deferred wrap after the last column. Anything else is
/// recorded in ``unexpected`` so a test can fail on it.
public struct ANSIScreen: Sendable {
    /// What a cell holds: its text ("" for the right half of a wide character) and pen.
    public struct Cell: Sendable, Hashable, CustomStringConvertible {
        public var text: String = " "
        public var pen: Pen = Pen()
        public var description: String { "\(String(reflecting: text)) \(pen)" }
        public init(text: String = " ", pen: Pen = Pen()) {
            self.text = text
            self.pen = pen
        }
    }

    /// Colours as `default`, `iN` (palette) or `#rrggbb`; attributes as SGR numbers.
    public struct Pen: Sendable, Hashable, CustomStringConvertible {
        public var foreground = "default"
        public var background = "default"
        public var attributes: Set<Int> = []
        public init(foreground: String = "default", background: String = "default", attributes: Set<Int> = []) {
            self.foreground = foreground
            self.background = background
            self.attributes = attributes
        }
        public var description: String { "fg=\(foreground) bg=\(background) attrs=\(attributes.sorted())" }
    }

    public let width: Int
    public let height: Int
    public var cells: [Cell]
    public var cursorColumn = 0
    public var cursorRow = 0
    public var pen = Pen()
    public var wrapPending = false
    public var alternateScreen = false
    public var cursorVisible = true
    public var mouseModes: Set<Int> = []
    public var synchronized = false
    /// How many times synchronized output was begun.
    public var synchronizedFrames = 0
    /// Sequences or bytes the model does not know.
    public var unexpected: [String] = []

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
        cells = Array(repeating: Cell(), count: width * height)
    }

    /// The cell at `column`, `row`.
    public subscript(column: Int, row: Int) -> Cell { cells[row * width + column] }

    /// The screen's text, one string per row (right halves of wide characters omitted).
    public var lines: [String] {
        (0..<height).map { r in (0..<width).map { self[$0, r].text }.joined() }
    }

    /// Applies a stream of output bytes.
    public mutating func apply(_ bytes: [UInt8]) {
        var i = 0
        var text: [UInt8] = []
        func flushText() {
            if text.isEmpty { return }
            for ch in String(decoding: text, as: UTF8.self) { print(String(ch)) }
            text.removeAll()
        }
        while i < bytes.count {
            let b = bytes[i]
            if b == 0x1B {
                flushText()
                i = escape(bytes, at: i)
            } else if b == 0x0D {
                flushText()
                cursorColumn = 0
                wrapPending = false
                i += 1
            } else if b < 0x20 || b == 0x7F {
                flushText()
                unexpected.append("control byte \(b)")
                i += 1
            } else {
                text.append(b)
                i += 1
            }
        }
        flushText()
    }

    /// Display width of a grapheme, by a rough East Asian Width test (enough for tests).
    public static func width(of s: String) -> Int {
        guard let v = s.unicodeScalars.first?.value else { return 0 }
        switch v {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
            0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
            0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x3FFFD:
            return 2
        default:
            return 1
        }
    }

    private mutating func print(_ g: String) {
        let w = ANSIScreen.width(of: g)
        if wrapPending {
            wrapPending = false
            cursorColumn = 0
            if cursorRow < height - 1 { cursorRow += 1 } else { unexpected.append("scroll") }
        }
        if w == 2 && cursorColumn == width - 1 {
            unexpected.append("wide character at the last column")
            return
        }
        let i = cursorRow * width + cursorColumn
        // Overwriting half of a wide character blanks the other half, as xterm does.
        if cells[i].text == "" && cursorColumn > 0 { cells[i - 1] = Cell(text: " ", pen: cells[i - 1].pen) }
        if cursorColumn + 1 < width && ANSIScreen.width(of: cells[i].text) == 2 {
            cells[i + 1] = Cell(text: " ", pen: cells[i + 1].pen)
        }
        cells[i] = Cell(text: g, pen: pen)
        if w == 2 {
            if cursorColumn + 2 < width && ANSIScreen.width(of: cells[i + 1].text) == 2 {
                cells[i + 2] = Cell(text: " ", pen: cells[i + 2].pen)
            }
            cells[i + 1] = Cell(text: "", pen: pen)
        }
        cursorColumn += w
        if cursorColumn >= width {
            cursorColumn = width - 1
            wrapPending = true
        }
    }

    private mutating func escape(_ b: [UInt8], at start: Int) -> Int {
        guard start + 1 < b.count, b[start + 1] == UInt8(ascii: "[") else {
            unexpected.append("ESC not followed by [")
            return start + 1
        }
        var j = start + 2
        while j < b.count && !(0x40...0x7E).contains(b[j]) { j += 1 }
        guard j < b.count else {
            unexpected.append("unterminated CSI")
            return b.count
        }
        let paramText = String(decoding: b[(start + 2)..<j], as: UTF8.self)
        let final = Character(Unicode.Scalar(b[j]))
        csi(paramText, final)
        return j + 1
    }

    private mutating func csi(_ paramText: String, _ final: Character) {
        if paramText.hasPrefix("?") {
            let modes = paramText.dropFirst().split(separator: ";").compactMap { Int($0) }
            guard final == "h" || final == "l" else {
                unexpected.append("CSI \(paramText)\(final)")
                return
            }
            let on = final == "h"
            for m in modes {
                switch m {
                case 1049:
                    if on { cells = Array(repeating: Cell(), count: width * height) }
                    alternateScreen = on
                case 25: cursorVisible = on
                case 1000, 1004, 1006: if on { mouseModes.insert(m) } else { mouseModes.remove(m) }
                case 2026:
                    if on { synchronizedFrames += 1 }
                    synchronized = on
                default: unexpected.append("mode \(m)")
                }
            }
            return
        }
        let params = paramText.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) ?? 0 }
        let n = max(1, params.first ?? 1)
        switch final {
        case "H":
            let row = max(1, params.count > 0 ? params[0] : 1)
            let column = max(1, params.count > 1 ? params[1] : 1)
            cursorRow = min(row, height) - 1
            cursorColumn = min(column, width) - 1
        case "A": cursorRow = max(0, cursorRow - n)
        case "B": cursorRow = min(height - 1, cursorRow + n)
        case "C": cursorColumn = min(width - 1, cursorColumn + n)
        case "D": cursorColumn = max(0, cursorColumn - n)
        case "G": cursorColumn = min(width, n) - 1
        case "d": cursorRow = min(height, n) - 1
        case "J":
            if params.first == 2 {
                cells = Array(repeating: Cell(text: " ", pen: Pen(background: pen.background)), count: width * height)
            } else {
                unexpected.append("CSI \(paramText)J")
            }
        case "m": sgr(paramText.isEmpty ? [0] : params)
        default:
            unexpected.append("CSI \(paramText)\(final)")
        }
        wrapPending = false
    }

    private mutating func sgr(_ p: [Int]) {
        var i = 0
        func color(_ i: inout Int) -> String? {
            guard i + 1 < p.count else { return nil }
            if p[i + 1] == 5, i + 2 < p.count {
                defer { i += 2 }
                return "i\(p[i + 2])"
            }
            if p[i + 1] == 2, i + 4 < p.count {
                defer { i += 4 }
                let hex = [p[i + 2], p[i + 3], p[i + 4]].map { v in
                    let s = String(v, radix: 16)
                    return s.count == 1 ? "0" + s : s
                }
                return "#" + hex.joined()
            }
            return nil
        }
        while i < p.count {
            let v = p[i]
            switch v {
            case 0: pen = Pen()
            case 1, 2, 3, 4, 7: pen.attributes.insert(v)
            case 22:
                pen.attributes.remove(1)
                pen.attributes.remove(2)
            case 23, 24, 27: pen.attributes.remove(v - 20)
            case 30...37: pen.foreground = "i\(v - 30)"
            case 90...97: pen.foreground = "i\(v - 90 + 8)"
            case 40...47: pen.background = "i\(v - 40)"
            case 100...107: pen.background = "i\(v - 100 + 8)"
            case 39: pen.foreground = "default"
            case 49: pen.background = "default"
            case 38: if let c = color(&i) { pen.foreground = c } else { unexpected.append("SGR 38") }
            case 48: if let c = color(&i) { pen.background = c } else { unexpected.append("SGR 48") }
            default: unexpected.append("SGR \(v)")
            }
            i += 1
        }
    }
}
