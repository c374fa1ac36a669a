import SpoilerCore
import SpoilerEffect
public import SpoilerLayout
import SpoilerRender

/// Only the words near the screen are simulated: the scene window.
extension SpoilerTerminalView {
    /// Rows kept for the reader's bar at the bottom (none for the plain player, or on a
    /// screen of one row).
    var chromeRows: Int { options.reader != nil && size.rows >= 2 ? 1 : 0 }

    /// Rows that show text.
    var viewRows: Int { max(1, size.rows - chromeRows) }

    /// The view column of the text's first column.
    var textColumn: Int { options.reader?.margin(columns: size.columns) ?? 0 }

    /// The rows whose hidden words get dust when the screen starts at `row`: the screen
    /// and a screen above and below it.
    func sceneWindow(around row: Int) -> Range<Int> {
        max(0, row - viewRows)..<(row + 2 * viewRows)
    }

    /// `layout` with the words outside `window` made inert: no graphemes, so no dust
    /// (their boxes, groups and order stay, so scene word `i` is still layout word `i`).
    ///
    /// - Complexity: O(words).
    public static func inert(_ layout: TextLayout, outside window: Range<Int>) -> TextLayout {
        var l = layout
        for i in l.words.indices where !window.contains(l.words[i].line) { l.words[i].graphemes = 0 }
        return l
    }

    /// Makes a new scene when the screen has left the rows the scene animates.
    ///
    /// The revealed words stay revealed (as in a reflow). A long message so costs only
    /// the dust near the screen, and a frame only the rows on it.
    mutating func updateSceneWindow(now: Double) {
        let w = sceneWindowRows
        if w.lowerBound <= scrollRow, scrollRow + viewRows <= w.upperBound { return }
        rebuildScene(window: sceneWindow(around: scrollRow), now: now)
    }

    /// A new scene animating `window`, the revealed groups revealed (already done), its
    /// time 0 at host time `now`.
    mutating func rebuildScene(window: Range<Int>, now: Double) {
        sceneWindowRows = window
        scene = makeScene(SpoilerTerminalView.inert(builder.layout, outside: window))
        var revealed: [Int] = []
        for (w, g) in builder.groups.enumerated() where revealedAt[g] != nil { revealed.append(w) }
        if let first = revealed.first {
            scene.reveal(words: revealed, origin: scene.words[first].rect.center, at: -10)
        }
        for g in revealedAt.keys { revealedAt[g] = 0 }
        sceneEpoch = now
        lastInput = min(lastInput, now)
        // The new scene starts at 0: a time saved from the old one must not be caught up to.
        if pausedSceneTime != nil { pausedSceneTime = 0 }
    }

    /// Whether anything moves on the text rows of the screen.
    ///
    /// Particles there count, and words there being revealed or hidden. Dust above or
    /// below the screen does not, so the host may sleep while none is in view.
    ///
    /// - Complexity: O(words + particles).
    func movesInView() -> Bool {
        let top = Double(scrollRow) * builder.cellHeight
        let bottom = Double(scrollRow + viewRows) * builder.cellHeight
        let s = scene
        let words = builder.layout.words
        // Words come in text order, so by line: find the first on the screen.
        var low = 0
        var high = words.count
        while low < high {
            let mid = (low + high) / 2
            if words[mid].line < scrollRow { low = mid + 1 } else { high = mid }
        }
        var w = low
        while w < words.count && w < s.words.count && words[w].line < scrollRow + viewRows {
            defer { w += 1 }
            // Revealing, or hiding (from the moment of the key, while the circle is still whole).
            let hiding = s.reveals[w]?.hideStart != nil && s.revealRadius(word: w) != nil
            if hiding || (!s.isHidden(word: w) && !s.isFullyRevealed(word: w)) { return true }
        }
        for y in s.particles.y where Double(y) >= top - 1 && Double(y) <= bottom + 1 { return true }
        return false
    }
}
