import SpoilerCore
import SpoilerEffect
import SpoilerLayout
import SpoilerRender

/// A hidden word found by a hit test (``SpoilerTerminalView/word(atColumn:row:)``).
public struct SpoilerWordHit: Sendable, Hashable {
    /// The index in the layout's words (``TextLayout/words``) and the scene's.
    public var word: Int
    /// The word's group: the fragments of one wrapped word share it.
    public var group: Int
    /// The spoiler entity's index in the message's entities.
    public var entity: Int
    /// Whether the word is still hidden.
    public var isHidden: Bool

    /// A hit from its parts.
    public init(word: Int, group: Int, entity: Int, isHidden: Bool) {
        self.word = word
        self.group = group
        self.entity = entity
        self.isHidden = isHidden
    }
}

extension SpoilerTerminalView {
    // MARK: Input

    /// Handles one input event at host time `time`; mouse coordinates are the host's
    /// screen cells (0-based), taken relative to ``originColumn``, ``originRow``.
    ///
    /// Keys: a click (button 1) reveals the word under it with the wave from the click;
    /// Tab / Shift-Tab (or the arrows) move the focus between hidden words and Enter (or
    /// space) reveals the focused one; `r` reveals everything, `h` hides it again; PgUp,
    /// PgDn, Home, End and the wheel scroll a message taller than the view; `q`, Ctrl-C
    /// and Escape with nothing focused answer ``Response/quit``. With
    /// ``Options/reader``, the reader's keys (``ReaderOptions``) come first. Focus
    /// events pause and resume (``setFocus(_:at:)``).
    ///
    /// - Returns: whether the view took the event, or the user asked to quit.
    @discardableResult
    public mutating func handle(_ event: InputEvent, at time: Double) -> Response {
        if case .focus(let gained) = event {
            setFocus(gained, at: time)
            return .handled
        }
        if case .mouse(let m) = event {
            let column = m.column - originColumn
            let row = m.row - originRow
            guard column >= 0, row >= 0, column < size.columns, row < size.rows else { return .ignored }
            return handleInput(.mouse(MouseEvent(kind: m.kind, button: m.button, column: column, row: row)), at: time)
        }
        return handleInput(event, at: time)
    }

    /// Handles a key at host time `time` (see ``handle(_:at:)``).
    @discardableResult
    public mutating func key(_ key: TerminalKey, at time: Double) -> Response {
        handleInput(.key(key), at: time)
    }

    /// A click (left button) at the host's screen cell `column`, `row` (0-based) at host
    /// time `time`: reveals the hidden word under it, or the nearest on that row within
    /// one cell, with the wave from the click.
    ///
    /// - Returns: whether a word was revealed.
    @discardableResult
    public mutating func click(column: Int, row: Int, at time: Double) -> Bool {
        let c = column - originColumn
        let r = row - originRow
        guard c >= 0, r >= 0, c < size.columns, r < size.rows else { return false }
        wake(at: time)
        return reveal(atColumn: c, row: r)
    }

    /// A click at a pixel of the view (origin at the rectangle's top-left, y downward,
    /// in the layout's cells of ``LayoutMetrics/cellWidth`` × ``LayoutMetrics/lineHeight``
    /// pixels) at host time `time`, for hosts that know where the pointer is inside a
    /// cell.
    ///
    /// - Returns: whether a word was revealed.
    @discardableResult
    public mutating func click(pixelX: Double, pixelY: Double, at time: Double) -> Bool {
        guard pixelX >= 0, pixelY >= 0 else { return false }
        let row = Int(pixelY / builder.cellHeight)
        guard row < viewRows, Int(pixelX / builder.cellWidth) < size.columns else { return false }
        wake(at: time)
        let point = SpoilerPoint(
            x: pixelX - Double(textColumn) * builder.cellWidth, y: pixelY + Double(scrollRow) * builder.cellHeight)
        return reveal(at: point)
    }

    /// Reveals layout word `word` and what the scope adds at host time `time`, with the
    /// wave from the word's centre (as Enter on a focused word does), for a host that
    /// picks the word itself (a search hit, a link from elsewhere).
    ///
    /// - Parameters:
    ///   - word: An index into ``layout``'s words.
    ///   - time: The host's time.
    /// - Returns: Whether `word` named a word of the layout (an index out of range does
    ///   nothing).
    @discardableResult
    public mutating func reveal(word: Int, at time: Double) -> Bool {
        guard builder.layout.words.indices.contains(word) else { return false }
        wake(at: time)
        revealWord(word, origin: nil)
        return true
    }

    /// The hidden word drawn at the host's screen cell `column`, `row`, if any.
    ///
    /// - Complexity: O(words).
    public func word(atColumn column: Int, row: Int) -> SpoilerWordHit? {
        let c = column - originColumn - textColumn
        let r = row - originRow
        guard r >= 0, r < viewRows, c >= 0 else { return nil }
        let line = r + scrollRow
        for (w, box) in builder.layout.words.enumerated() where box.line == line {
            guard let first = box.column, let count = box.columns, (first..<(first + count)).contains(c) else {
                continue
            }
            return SpoilerWordHit(
                word: w, group: builder.groups[w], entity: box.entity, isHidden: revealedAt[builder.groups[w]] == nil)
        }
        return nil
    }

    /// Reveals every hidden word at host time `time`, with one wave.
    public mutating func revealAll(at time: Double) {
        wake(at: time)
        scene.revealAll()
        for g in builder.groups { revealedAt[g] = scene.time }
        documentRevealAll(true)
    }

    /// Hides every word again at host time `time` (the circles shrink back).
    public mutating func hideAll(at time: Double) {
        wake(at: time)
        scene.hideAll()
        revealedAt.removeAll()
        documentRevealAll(false)
    }

    /// Resizes the view to `size` at host time `time`: the text reflows, what was
    /// revealed stays revealed (at once, without a new wave), the focus stays on its word.
    public mutating func resize(to size: TerminalSize, at time: Double) {
        self.size = size
        reflow(now: time)
    }

    // MARK: Internals

    /// Catches the animation up to `time` and counts it as input (waking a paused view).
    mutating func wake(at time: Double) {
        isPaused = false
        advanceScene(to: time)
        lastInput = time
    }

    mutating func handleInput(_ event: InputEvent, at now: Double) -> Response {
        // Any input wakes a paused view, in case the terminal never says it has focus.
        isPaused = false
        advanceScene(to: now)
        if event != .unknown { lastInput = now }
        if options.reader != nil, let response = handleReaderEvent(event, now: now) { return response }
        switch event {
        case .key(.character("q")), .key(.character("Q")), .key(.control("c")), .key(.control("d")):
            return .quit
        case .key(.escape):
            if builder.focusedGroup == nil { return .quit }
            builder.focusedGroup = nil
        case .key(.character("r")), .key(.character("R")):
            revealAll(at: now)
        case .key(.character("h")), .key(.character("H")):
            hideAll(at: now)
        case .key(.tab), .key(.right), .key(.down):
            moveFocus(by: 1)
        case .key(.backTab), .key(.left), .key(.up):
            moveFocus(by: -1)
        case .key(.enter), .key(.character(" ")):
            if builder.focusedGroup == nil { moveFocus(by: 1) }
            if let g = builder.focusedGroup, let w = builder.groups.firstIndex(of: g) {
                revealWord(w, origin: nil)
                moveFocus(by: 1)
            }
        case .mouse(let m) where m.kind == .wheelDown:
            scroll(by: 3)
        case .mouse(let m) where m.kind == .wheelUp:
            scroll(by: -3)
        case .key(.pageDown):
            scroll(by: max(1, viewRows - 1))
        case .key(.pageUp):
            scroll(by: -max(1, viewRows - 1))
        case .key(.home):
            scrollToStart()
        case .key(.end):
            scrollToEnd()
        case .mouse(let m) where m.kind == .press && m.button == 0:
            reveal(atColumn: m.column, row: m.row)
        case .mouse, .unknown:
            return .ignored
        default:
            return .ignored
        }
        return .handled
    }

    /// Reveals the word under the view's cell `column`, `row` (0-based), if any, with the
    /// reveal wave from that cell's centre.
    @discardableResult
    mutating func reveal(atColumn column: Int, row: Int) -> Bool {
        guard row < viewRows else { return false }
        let point = SpoilerPoint(
            x: (Double(column - textColumn) + 0.5) * builder.cellWidth,
            y: (Double(row + scrollRow) + 0.5) * builder.cellHeight)
        return reveal(at: point)
    }

    /// Reveals the word at `point` (layout pixels), or the nearest one on its row within
    /// one cell (a click on the space between two words of a spoiler).
    mutating func reveal(at point: SpoilerPoint) -> Bool {
        var target = scene.word(at: point)
        if target == nil, let near = scene.nearestWord(to: point, maxDistance: builder.cellWidth),
            abs(scene.words[near].rect.center.y - point.y) < builder.cellHeight / 2
        {
            target = near
        }
        guard let w = target else { return false }
        revealWord(w, origin: point)
        return true
    }

    /// Reveals scene word `w` and what the scope adds, and remembers each group revealed.
    mutating func revealWord(_ w: Int, origin: SpoilerPoint?) {
        // One message kept a chunk at a time: scope `message` reveals the chunks not laid out too.
        if scene.options.revealScope == .message, document?.document.isOneMessage == true { documentRevealAll(true) }
        scene.reveal(word: w, origin: origin)
        for t in scene.revealTargets(of: w) {
            revealedAt[builder.groups[t]] = scene.time
            if builder.focusedGroup == builder.groups[t] { builder.focusedGroup = nil }
        }
    }

    /// Moves the focus to the next (or previous) group that is still hidden.
    mutating func moveFocus(by step: Int) {
        defer { scrollToFocus() }
        let all = Array(Set(builder.groups)).sorted()
        let hidden = all.filter { revealedAt[$0] == nil }
        guard !hidden.isEmpty else {
            builder.focusedGroup = nil
            return
        }
        guard let current = builder.focusedGroup else {
            builder.focusedGroup = step > 0 ? hidden.first : hidden.last
            return
        }
        if step > 0 {
            builder.focusedGroup = hidden.first { $0 > current } ?? hidden.first
        } else {
            builder.focusedGroup = hidden.last { $0 < current } ?? hidden.last
        }
    }

    /// The rows of the message that fit on the screen.
    var maxScroll: Int { max(0, builder.rows - hiddenTailRows - viewRows) }

    /// Scrolls the message by `rows` (down when positive), within its length.
    mutating func scroll(by rows: Int) {
        if document != nil {
            scrollDocument(by: rows)
            return
        }
        // Scrolling back while a long layout is being made: the screen stays where it is
        // taken, not at the end, once the layout comes.
        if rows < 0, prefix?.pending != nil { prefix!.pending!.toEnd = false }
        var remaining = rows
        while true {
            let target = scrollRow + remaining
            scrollRow = min(max(0, target), maxScroll)
            remaining = target - scrollRow
            if remaining <= 0 || !followPrefix() { break }
        }
    }

    /// Scrolls so that the focused word's first line is on the screen.
    mutating func scrollToFocus() {
        guard let g = builder.focusedGroup, let w = builder.groups.firstIndex(of: g) else { return }
        scrollToShow(row: builder.layout.words[w].line)
    }

    /// Scrolls as little as it takes to bring layout row `line` on the screen.
    mutating func scrollToShow(row line: Int) {
        if line < scrollRow {
            scrollRow = line
        } else if line >= scrollRow + viewRows {
            scrollRow = min(line - viewRows + 1, maxScroll)
        }
        if document != nil { followScreen() }
        if prefix != nil { followPrefix() }
    }

    func nextRehide() -> Double? {
        guard let after = options.rehideAfter else { return nil }
        return revealedAt.values.min().map { $0 + after }
    }

    mutating func rehideDue(at sceneTime: Double) {
        guard let after = options.rehideAfter else { return }
        for (g, t) in revealedAt where t + after <= sceneTime {
            if let w = builder.groups.firstIndex(of: g) { scene.hide(word: w) }
            revealedAt[g] = nil
        }
    }

    /// A new layout and scene for the new size, with the revealed words revealed.
    mutating func reflow(now: Double) {
        if let w = document {
            // The same place in the document at the new width: the chunk on the screen's
            // first row, and as far into it.
            let top = w.position(ofRow: scrollRow)
            let k = top.chunk - w.chunks.lowerBound
            let rows = w.chunkRows.indices.contains(k + 1) ? max(1, w.chunkRows[k + 1] - w.chunkRows[k]) : 1
            let fraction = Double(top.row) / Double(rows)
            var moved = w
            let newRows = moved.rows(ofChunk: top.chunk, size: size) ?? 1
            document = moved
            placeWindow(chunk: top.chunk, row: Int(fraction * Double(newRows)), now: now)
            invalidate()
            return
        }
        if prefix != nil {
            relayoutPrefix(now: now)
            invalidate()
            return
        }
        let layout = makeLayout(size)
        let focus = builder.focusedGroup
        builder = ANSIFrameBuilder(layout: layout, options: options.frame)
        builder.focusedGroup = focus.flatMap { builder.groups.contains($0) ? $0 : nil }
        scroll(by: 0)
        let window = sceneWindow(around: scrollRow)
        rebuildScene(window: window, now: now)
        invalidate()
    }
}
