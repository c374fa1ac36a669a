import SpoilerCore
import SpoilerLayout
import SpoilerRender

/// The reader's part of the player (``PlayerOptions/reader``): rows and margins, reading
/// keys, the idle timer, the scroll back to the top, and drawing the bar.
extension Player {
    /// Rows kept for the reader's bar at the bottom (none for the plain player, or on a
    /// screen of one row).
    var chromeRows: Int { options.reader != nil && size.rows >= 2 ? 1 : 0 }

    /// Rows that show text.
    var viewRows: Int { max(1, size.rows - chromeRows) }

    /// The screen column of the text's first column.
    var textColumn: Int { options.reader?.margin(columns: size.columns) ?? 0 }

    /// How much of the text has been read: the scroll position over its range, 1 when
    /// everything fits.
    public var readFraction: Double {
        maxScroll == 0 ? 1 : Double(scrollRow) / Double(maxScroll)
    }

    /// The first row of the text on the screen.
    public var firstVisibleRow: Int { scrollRow }

    /// The rows whose hidden words get dust when the screen starts at `row`: the screen
    /// and a screen above and below it.
    func sceneWindow(around row: Int) -> Range<Int> {
        max(0, row - viewRows)..<(row + 2 * viewRows)
    }

    /// `layout` with the words outside `window` made inert: no graphemes, so no dust
    /// (their boxes, groups and order stay, so scene word `i` is still layout word `i`).
    static func inert(_ layout: TextLayout, outside window: Range<Int>) -> TextLayout {
        var l = layout
        for i in l.words.indices where !window.contains(l.words[i].line) { l.words[i].graphemes = 0 }
        return l
    }

    /// Makes a new scene when the screen has left the rows the scene animates.
    ///
    /// The revealed words stay revealed (as in a reflow). A long document so costs only
    /// the dust near the screen, and a frame only the rows on it.
    func updateSceneWindow(now: Double) {
        guard options.reader != nil else { return }
        if let w = sceneWindowRows, w.lowerBound <= scrollRow, scrollRow + viewRows <= w.upperBound { return }
        let window = sceneWindow(around: scrollRow)
        sceneWindowRows = window
        scene = makeScene(Player.inert(builder.layout, outside: window))
        for g in revealedAt.keys {
            if let w = builder.groups.firstIndex(of: g) { scene.reveal(word: w, at: -10) }
        }
        for g in revealedAt.keys { revealedAt[g] = 0 }
        sceneEpoch = now
        if pausedSceneTime != nil { pausedSceneTime = 0 }
    }

    /// Whether anything moves on the text rows of the screen.
    ///
    /// Particles there count, and words there being revealed or hidden. Dust above or
    /// below the screen does not, so the reader sleeps while none is in view.
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

    /// Whether the reader's bar has shrunk to the wheel at clock time `now`.
    func isCompact(at now: Double) -> Bool {
        guard let reader = options.reader else { return false }
        return now - lastInput >= reader.idleSeconds
    }

    /// When the chrome changes on its own next (the bar shrinking), if it will.
    func nextChromeChange() -> Double? {
        guard let reader = options.reader, !drawnCompact else { return nil }
        return lastInput + reader.idleSeconds
    }

    /// Whether the chrome drawn last is not what `now` shows.
    func chromeNeedsRedraw(at now: Double) -> Bool {
        options.reader != nil && isCompact(at: now) != drawnCompact
    }

    /// The indicator as it is at `now`.
    func bar(at now: Double) -> ReaderBar {
        ReaderBar(
            fraction: readFraction, isCompact: isCompact(at: now),
            showsTopButton: maxScroll > 0 && scrollRow >= maxScroll && scrollAnimation == nil)
    }

    /// Draws the bar or wheel on the bottom row.
    func drawChrome(into canvas: inout CellCanvas, at now: Double) {
        guard let reader = options.reader, chromeRows > 0 else { return }
        let b = bar(at: now)
        b.draw(
            into: &canvas, row: size.rows - 1, theme: reader.theme, capability: options.frame.capability,
            glyphs: options.frame.glyphs)
        drawnCompact = b.isCompact
    }

    /// Moves the scroll animation to `now`, ending it when it is over.
    func advanceScrollAnimation(to now: Double) {
        guard let a = scrollAnimation else { return }
        scrollRow = min(max(0, a.row(at: now)), maxScroll)
        if a.isFinished(at: now) { scrollAnimation = nil }
    }

    /// Starts the movement back to the top (at once with reduced motion).
    func scrollToTop(now: Double) {
        guard let reader = options.reader, scrollRow > 0 else { return }
        if scene.options.reducedMotion {
            scrollAnimation = nil
            scrollRow = 0
            return
        }
        scrollAnimation = ScrollAnimation(
            from: Double(scrollRow), to: 0, start: now, duration: reader.scrollToTopSeconds)
    }

    /// Scrolls by `rows` as the user asked, ending any movement to the top.
    func userScroll(by rows: Int) {
        scrollAnimation = nil
        scroll(by: rows)
    }

    /// Handles a reader key or click; returns whether it was one (else the player's
    /// handling applies: quit, reveal all, hide, Tab, Escape).
    func handleReaderEvent(_ event: InputEvent, now: Double) -> Bool {
        let page = max(1, viewRows - 1)
        switch event {
        case .key(.up), .key(.character("k")):
            userScroll(by: -1)
        case .key(.down), .key(.character("j")):
            userScroll(by: 1)
        case .key(.pageDown), .key(.character(" ")):
            userScroll(by: page)
        case .key(.pageUp), .key(.character("b")):
            userScroll(by: -page)
        case .key(.home):
            userScroll(by: -scrollRow)
        case .key(.end), .key(.character("G")):
            userScroll(by: builder.rows)
        case .key(.character("g")):
            scrollToTop(now: now)
        case .mouse(let m) where m.kind == .wheelDown:
            userScroll(by: 3)
        case .mouse(let m) where m.kind == .wheelUp:
            userScroll(by: -3)
        case .key(.enter):
            // Reveal the highlighted word and leave the view on it (the player moves on to
            // the next word, which could scroll the page away from what was just revealed).
            if let g = builder.focusedGroup, let w = builder.groups.firstIndex(of: g) {
                scene.reveal(word: w)
                revealedAt[g] = scene.time
                builder.focusedGroup = nil
            }
        case .mouse(let m) where m.kind == .press && m.button == 0:
            if chromeRows > 0 && m.row == size.rows - 1 {
                // The bar as the user saw it: the click came after the last frame.
                var b = bar(at: now)
                b.isCompact = drawnCompact
                if let button = b.layout(width: size.columns).topButton, button.contains(m.column) {
                    scrollToTop(now: now)
                }
            } else {
                reveal(atColumn: m.column, row: m.row)
            }
        case .key(.left), .key(.right):
            break
        default:
            return false
        }
        return true
    }
}
