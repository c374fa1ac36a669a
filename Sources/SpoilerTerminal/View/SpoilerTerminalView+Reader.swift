import SpoilerCore
import SpoilerLayout
import SpoilerRender

/// The reader's part of the view (``SpoilerTerminalView/Options/reader``): reading keys,
/// the idle timer, the scroll back to the top, and drawing the bar.
extension SpoilerTerminalView {
    /// How much of the text has been read: the scroll position over its range, 1 when
    /// everything fits.
    public var readFraction: Double {
        if let fraction = documentFraction { return fraction }
        return maxScroll == 0 ? 1 : Double(scrollRow) / Double(maxScroll)
    }

    /// Whether the reader's bar has shrunk to the wheel at host time `now`.
    func isCompact(at now: Double) -> Bool {
        guard let reader = options.reader else { return false }
        return now - lastInput >= reader.idleSeconds
    }

    /// When the chrome changes on its own next (the bar shrinking), if it will.
    func nextChromeChange() -> Double? {
        guard let reader = options.reader, !drawnCompact else { return nil }
        return lastInput + reader.idleSeconds
    }

    /// Whether the chrome drawn last is not what host time `time` shows (the host
    /// should draw a frame even though nothing moves).
    public func chromeNeedsRedraw(at time: Double) -> Bool {
        options.reader != nil && search.prompt == nil && isCompact(at: time) != drawnCompact
    }

    /// The indicator as it is at `now`.
    func bar(at now: Double) -> ReaderBar {
        ReaderBar(
            fraction: readFraction, isCompact: isCompact(at: now),
            showsTopButton: (maxScroll > 0 || (document?.chunks.lowerBound ?? 0) > 0) && isAtEnd
                && scrollAnimation == nil)
    }

    /// Draws the bar or wheel on the bottom row (or the search prompt or its message).
    mutating func drawChrome(into canvas: inout CellCanvas, at now: Double) {
        guard let reader = options.reader, chromeRows > 0 else { return }
        let row = size.rows - 1
        if let line = search.prompt.map({ "/" + $0 }) ?? search.notice {
            var style = reader.theme.textStyle(options.frame.capability)
            if search.prompt == nil { style.attributes.insert(.reverse) }
            canvas.write(line, column: 0, row: row, style: style)
            return
        }
        let b = bar(at: now)
        b.draw(
            into: &canvas, row: row, theme: reader.theme, capability: options.frame.capability,
            glyphs: options.frame.glyphs)
        drawnCompact = b.isCompact
    }

    /// Moves the scroll animation to `now`, ending it when it is over.
    mutating func advanceScrollAnimation(to now: Double) {
        guard let a = scrollAnimation else { return }
        scrollRow = min(max(0, a.row(at: now)), maxScroll)
        if a.isFinished(at: now) { scrollAnimation = nil }
    }

    /// Starts the movement back to the top (at once with reduced motion).
    mutating func scrollToTop(now: Double) {
        if document != nil { document!.waitsForEnd = false }
        guard let reader = options.reader, scrollRow > 0 || (document?.chunks.lowerBound ?? 0) > 0 else { return }
        if scene.options.reducedMotion {
            scrollAnimation = nil
            scrollToStart()
            return
        }
        if let w = document, w.chunks.lowerBound > 0 {
            // The glide covers the last two screens before the top; the text between
            // there and here is not laid out.
            placeWindow(chunk: 0, row: 0, now: now)
            scrollRow = min(maxScroll, 2 * viewRows)
        }
        scrollAnimation = ScrollAnimation(
            from: Double(scrollRow), to: 0, start: now, duration: reader.scrollToTopSeconds)
    }

    /// Scrolls by `rows` as the user asked, ending any movement to the top.
    mutating func userScroll(by rows: Int) {
        scrollAnimation = nil
        scroll(by: rows)
    }

    /// Handles a reader key or click; returns nil when it is not one (the player's
    /// handling then applies: quit, reveal all, hide, Tab, Escape).
    ///
    /// The keys follow `less`: ↑ ↓ `j` `k` `e` `y` (and Ctrl-E, Ctrl-Y, Ctrl-N, Ctrl-P)
    /// a line; space, PgDn, `f`, `z`, Ctrl-F, Ctrl-V a page down and `b`, PgUp, Ctrl-B
    /// a page up; `d`, Ctrl-D, `u`, Ctrl-U half a page; Home, `<` the top, End, `G`, `>`
    /// the end; `/` a search, `n` and `N` the next and previous match.
    mutating func handleReaderEvent(_ event: InputEvent, now: Double) -> Response? {
        if search.prompt != nil { return handleSearchTyping(event) }
        search.notice = nil
        let page = max(1, viewRows - 1)
        let half = max(1, viewRows / 2)
        switch event {
        case .key(.up), .key(.character("k")), .key(.character("y")), .key(.control("y")), .key(.control("p")),
            .key(.control("k")):
            userScroll(by: -1)
        case .key(.down), .key(.character("j")), .key(.character("e")), .key(.control("e")), .key(.control("n")):
            userScroll(by: 1)
        case .key(.pageDown), .key(.character(" ")), .key(.character("f")), .key(.character("z")),
            .key(.control("f")), .key(.control("v")):
            userScroll(by: page)
        case .key(.pageUp), .key(.character("b")), .key(.control("b")):
            userScroll(by: -page)
        case .key(.character("d")), .key(.control("d")):
            userScroll(by: half)
        case .key(.character("u")), .key(.control("u")):
            userScroll(by: -half)
        case .key(.home), .key(.character("<")):
            scrollAnimation = nil
            scrollToStart()
        case .key(.end), .key(.character("G")), .key(.character(">")):
            scrollAnimation = nil
            scrollToEnd()
        case .key(.character("g")):
            scrollToTop(now: now)
        case .key(.character("/")):
            search.prompt = ""
        case .key(.character("n")):
            findNext(forward: true)
        case .key(.character("N")):
            findNext(forward: false)
        case .mouse(let m) where m.kind == .wheelDown:
            userScroll(by: 3)
        case .mouse(let m) where m.kind == .wheelUp:
            userScroll(by: -3)
        case .key(.enter):
            // Reveal the highlighted word and leave the view on it (the player moves on to
            // the next word, which could scroll the page away from what was just revealed).
            if let g = builder.focusedGroup, let w = builder.groups.firstIndex(of: g) {
                revealWord(w, origin: nil)
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
            return nil
        }
        return .handled
    }
}
