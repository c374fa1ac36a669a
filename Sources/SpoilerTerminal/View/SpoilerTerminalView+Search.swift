import SpoilerCore
import SpoilerLayout
import SpoilerRender

/// The reader's search, as in `less`: `/` and a pattern, Enter; `n` and `n` again.
struct SearchState: Sendable {
    /// The pattern being typed after `/`, while it is.
    var prompt: String?
    /// The last pattern searched for.
    var pattern: String?
    /// The match shown: layout row, first column, columns.
    var match: (row: Int, column: Int, columns: Int)?
    /// A line shown instead of the bar until the next key ("Pattern not found").
    var notice: String?
}

extension SpoilerTerminalView {
    /// The match of the last search, if one is shown: its layout row, first column and
    /// width in columns.
    public var searchMatch: (row: Int, column: Int, columns: Int)? { search.match }

    /// Takes a key while the search pattern is typed: text, Backspace, Enter (search),
    /// Escape or Ctrl-C (give up).
    mutating func handleSearchTyping(_ event: InputEvent) -> Response {
        guard var typed = search.prompt else { return .ignored }
        switch event {
        case .key(.character(let c)):
            typed.append(c)
            search.prompt = typed
        case .key(.backspace):
            if typed.isEmpty {
                search.prompt = nil
            } else {
                typed.removeLast()
                search.prompt = typed
            }
        case .key(.escape), .key(.control("c")), .key(.control("g")):
            search.prompt = nil
        case .key(.enter):
            search.prompt = nil
            if !typed.isEmpty {
                search.pattern = typed
                search.match = nil
            }
            if search.pattern != nil { findNext(forward: true, fromScreenTop: search.match == nil) }
        default:
            break
        }
        return .handled
    }

    /// Finds the next (or previous) match of the last pattern in the text that shows:
    /// a hidden word's text is never searched until it is revealed. The match's row goes
    /// to the top of the screen (as far as the text allows) and is highlighted.
    ///
    /// The search starts after the shown match, or at the top of the screen, and does
    /// not wrap around; with no match the bar says "Pattern not found" until the next key.
    mutating func findNext(forward: Bool, fromScreenTop: Bool = false) {
        guard let pattern = search.pattern, !pattern.isEmpty else {
            search.notice = "No previous search pattern"
            return
        }
        let needle = Array(pattern)
        var (row, after) = (scrollRow, -1)
        if let m = search.match, !fromScreenTop, m.row >= scrollRow, m.row < scrollRow + viewRows {
            (row, after) = (m.row, m.column)
        } else if !forward {
            (row, after) = (scrollRow + viewRows - 1, Int.max)
        }
        let start = document.map { $0.position(ofRow: scrollRow) }
        while true {
            if let found = find(needle, fromRow: row, after: after, forward: forward) {
                search.match = found
                scrollAnimation = nil
                if let w = document {
                    // The match's row at the top, with the text below it laid out.
                    let at = w.position(ofRow: found.row)
                    placeWindow(chunk: at.chunk, row: at.row, now: hostNow)
                    return
                }
                scrollRow = min(found.row, maxScroll)
                if found.row >= scrollRow + viewRows { scrollRow = min(found.row - viewRows + 1, maxScroll) }
                return
            }
            // A document: on to the next chunk that holds the pattern, laid out.
            guard let next = chunk(holding: pattern, forward: forward) else { break }
            placeWindow(chunk: next, row: forward ? 0 : Int.max / 2, now: hostNow)
            guard let w = document, let r = w.windowRow(chunk: next, row: forward ? 0 : Int.max / 2) else { break }
            (row, after) = (r, forward ? -1 : Int.max)
        }
        if let start { placeWindow(chunk: start.chunk, row: start.row, now: hostNow) }
        search.notice = "Pattern not found"
    }

    /// The first match from layout row `row` on (or back), after column `after` on that row.
    func find(_ needle: [Character], fromRow row: Int, after: Int, forward: Bool) -> (
        row: Int, column: Int, columns: Int
    )? {
        var row = row
        var after = after
        let step = forward ? 1 : -1
        while row >= 0 && row < builder.rows {
            if let found = find(needle, in: shownText(ofRow: row), forward: forward, after: after) { return found }
            row += step
            after = forward ? -1 : Int.max
        }
        return nil
    }

    /// The characters of a layout row as they show, with their columns; every grapheme
    /// of a hidden word is a stand-in that matches nothing.
    func shownText(ofRow row: Int) -> [(character: Character, column: Int, columns: Int, row: Int)] {
        let graphemes = builder.layout.graphemes
        // Graphemes come row by row: find the row's first.
        var low = 0
        var high = graphemes.count
        while low < high {
            let mid = (low + high) / 2
            if graphemes[mid].line < row { low = mid + 1 } else { high = mid }
        }
        var out: [(character: Character, column: Int, columns: Int, row: Int)] = []
        var i = low
        while i < graphemes.count && graphemes[i].line == row {
            let g = graphemes[i]
            i += 1
            guard g.columns > 0, let c = g.display.first else { continue }
            let hidden = g.word.map { $0 < builder.groups.count && revealedAt[builder.groups[$0]] == nil } ?? false
            out.append((hidden ? "\u{FFFC}" : c, g.column, g.columns, row))
        }
        return out
    }

    /// The first match of `needle` in `line` starting after column `after` (forward), or
    /// the last one before it (backward).
    func find(
        _ needle: [Character], in line: [(character: Character, column: Int, columns: Int, row: Int)],
        forward: Bool, after: Int
    ) -> (row: Int, column: Int, columns: Int)? {
        guard needle.count <= line.count else { return nil }
        let starts = Array(0...(line.count - needle.count))
        for s in forward ? starts : starts.reversed() {
            let column = line[s].column
            if forward ? column <= after : column >= after { continue }
            var matches = true
            for k in needle.indices where line[s + k].character != needle[k] {
                matches = false
                break
            }
            if matches {
                let last = line[s + needle.count - 1]
                return (line[s].row, column, last.column + last.columns - column)
            }
        }
        return nil
    }

    /// Shows the search match in reverse video, if it is on the screen.
    func drawSearchMatch(into canvas: inout CellCanvas) {
        guard let m = search.match, m.row >= scrollRow, m.row < scrollRow + viewRows else { return }
        for c in m.column..<(m.column + m.columns) {
            let column = textColumn + c
            let row = m.row - scrollRow
            guard column < canvas.width, row < canvas.height else { continue }
            var cell = canvas[column, row]
            cell.attributes.insert(.reverse)
            canvas[column, row] = cell
        }
    }
}
