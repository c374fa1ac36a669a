// A terminal program that owns its screen buffer and its clock, and embeds two animated
// messages side by side through the public API only (SpoilerTerminalView). A scripted
// click reveals the right-hand spoiler; the program checks what its screen shows.
//
//   swift run TUIEmbedder      (prints the final screen; exit status 1 if a check fails)
import Glibc
import SpoilerKit

/// The host's own screen: one string per cell, as a TUI framework keeps it.
struct Screen {
    let width: Int
    let height: Int
    var cells: [String]

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        cells = Array(repeating: " ", count: width * height)
    }

    /// Copies a view's cells into the screen at the view's origin.
    mutating func blit(_ canvas: CellCanvas, column: Int, row: Int) {
        for r in 0..<canvas.height where row + r < height {
            for c in 0..<canvas.width where column + c < width {
                cells[(row + r) * width + column + c] = canvas.text(column: c, row: r)
            }
        }
    }

    /// Row `row` as text, trailing spaces dropped.
    func line(_ row: Int) -> String {
        var s = cells[(row * width)..<((row + 1) * width)].joined()
        while s.last == " " { s.removeLast() }
        return s
    }

    /// The text of columns `range` of row `row`.
    func text(row: Int, columns range: Range<Int>) -> String {
        cells[(row * width + range.lowerBound)..<(row * width + range.upperBound)].joined()
    }
}

/// Stops the program with a reason when a check fails.
func check(_ condition: Bool, _ reason: String) {
    if !condition {
        print("check failed: \(reason)")
        exit(1)
    }
}

var screen = Screen(width: 80, height: 2)
let size = TerminalSize(columns: 38, rows: 2)
var left = SpoilerTerminalView(
    message: try Message(parsing: "Ana: the butler ||did it||"), size: size,
    frame: ANSIFrameOptions(capability: .none, glyphs: .braille))
var right = SpoilerTerminalView(
    message: try Message(parsing: "Bo: the ending ||is a dream||"), size: size,
    frame: ANSIFrameOptions(capability: .none, glyphs: .braille))
right.originColumn = 42

// The hidden word's cell on the host's screen, from the view's own layout.
let target = right.layout.words[0]
let clickColumn = right.originColumn + (target.column ?? 0) + 1
let hiddenColumns = (left.originColumn + (left.layout.words[0].column ?? 0))..<(left.originColumn + 26)

var leftDust: Set<String> = []
let fps = 30.0
for frame in 0...Int(3 * fps) {
    let t = Double(frame) / fps
    if frame == 15 {  // t = 0.5: the user clicks the right-hand spoiler
        check(!left.click(column: clickColumn, row: 0, at: t), "a click on the right view changed the left one")
        check(right.click(column: clickColumn, row: 0, at: t), "the click did not reveal the right spoiler")
    }
    screen.blit(left.frame(at: t), column: left.originColumn, row: left.originRow)
    screen.blit(right.frame(at: t), column: right.originColumn, row: right.originRow)
    if frame % 15 == 0 { leftDust.insert(screen.text(row: 0, columns: hiddenColumns)) }
}

print(screen.line(0))
check(screen.line(0).hasPrefix("Ana: the butler "), "the left text is missing")
check(!screen.line(0).contains("did it"), "the left spoiler shows although nobody clicked it")
check(screen.line(0).hasSuffix("Bo: the ending is a dream"), "the right spoiler is not revealed")
check(
    screen.text(row: 0, columns: hiddenColumns).unicodeScalars.contains { (0x2801...0x28FF).contains($0.value) },
    "no dust over the left spoiler")
check(leftDust.count > 3, "the left dust does not move")
check(left.needsFrames(at: 3), "the left view stopped although its dust moves")
check(!right.needsFrames(at: 3), "the right view still asks for frames once all is shown and still")
print("ok: \(Int(3 * fps) + 1) frames, the left spoiler hidden and moving, the right one revealed by a click")
