public import SpoilerCore
public import SpoilerEffect
public import SpoilerLayout
public import SpoilerRender

/// A long document read a chunk at a time (``ReaderDocument``): only the chunks on and
/// near the screen are parsed, laid out, simulated and drawn.
extension SpoilerTerminalView {
    /// Makes the layout of one chunk's message for the view's size.
    public typealias MessageLayoutMaker = @Sendable (TerminalSize, Message) -> TextLayout

    /// A view of a long `document`, laid out a chunk at a time: the view opens at once
    /// and costs what the chunks on and near the screen cost, whatever the document's
    /// length.
    ///
    /// The view behaves as one over the whole document, with these differences: the
    /// reader's percentage counts bytes (the position of the screen's first row in the
    /// document) until the end of the text is on the screen; Tab moves between the
    /// hidden words near the screen; a search (`/`, `n`, `N`) reads the chunks ahead (or
    /// behind) one by one until it finds the pattern.
    ///
    /// - Parameters:
    ///   - document: the chunks and their messages.
    ///   - size: the rectangle's size in cells.
    ///   - options: the look, the help row, re-hiding, the reader (the formatting drawn
    ///     is each chunk's, whatever ``ANSIFrameOptions/formatting`` holds).
    ///   - layout: lays out one chunk's message (`mono`) for a size.
    ///   - scene: makes the scene for a layout.
    public init(
        document: any ReaderDocument, size: TerminalSize, options: Options, layout: @escaping MessageLayoutMaker,
        scene: @escaping SceneMaker
    ) {
        self.init(size: size, options: options, layout: { layout($0, Message(text: "")) }, scene: scene)
        self.document = DocumentWindow(document: document, layoutMessage: layout)
        placeWindow(chunk: 0, row: 0, now: 0)
    }

    /// A view of a long `document` laid out in `mono` cells, a chunk at a time, each
    /// chunk wrapped at the view's width (inside the reader's margins with
    /// ``Options/reader``) and its spoilers as `preset` dust: what
    /// ``init(message:size:frame:preset:sceneOptions:seed:configure:)`` is for one message.
    ///
    /// ```swift
    /// if let document = try ChunkedDocument(path: "notes.md", format: .markdown) {
    ///     document.indexInBackground()  // End and the percentage known early
    ///     var view = SpoilerTerminalView(document: document, size: TerminalSize(columns: 80, rows: 24))
    ///     let cells = view.frame(at: 0)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - document: the chunks and their messages (each chunk's formatting is drawn).
    ///   - size: the rectangle's size in cells.
    ///   - frame: the look (default: 24-bit colour, braille dust).
    ///   - preset: the effect (default ``Preset/dust``).
    ///   - sceneOptions: density, reveal scope, reduced motion.
    ///   - seed: the random seed.
    ///   - configure: sets more options (the reader, re-hiding, the help row).
    public init(
        document: any ReaderDocument, size: TerminalSize,
        frame: ANSIFrameOptions = ANSIFrameOptions(capability: .trueColor), preset: Preset = .dust,
        sceneOptions: SceneOptions = SceneOptions(), seed: UInt64 = 1, configure: (inout Options) -> Void = { _ in }
    ) {
        var options = Options(frame: frame)
        configure(&options)
        let reader = options.reader
        self.init(
            document: document, size: size, options: options,
            layout: { size, message in
                LayoutEngine(wrapWidth: SpoilerTerminalView.wrapWidth(columns: size.columns, reader: reader)).layout(
                    message)
            },
            scene: SpoilerTerminalView.dustScene(preset: preset, options: sceneOptions, seed: seed))
    }

    /// The host time the scene is at (for a window rebuilt between steps).
    var hostNow: Double { (sceneEpoch ?? 0) + scene.time }

    /// Lays out the chunks around row `row` of chunk `chunk` and puts that row at the top
    /// of the screen (as far as the text allows); the reveals carry over.
    mutating func placeWindow(chunk: Int, row: Int, now: Double) {
        guard var w = document else { return }
        // Remember what is revealed in the old window.
        for (i, box) in builder.layout.words.enumerated() where !w.chunks.isEmpty {
            let key = w.key(of: box)
            if revealedAt[builder.groups[i]] != nil { w.revealed.insert(key) } else { w.revealed.remove(key) }
        }
        let match = search.match.map { (w.position(ofRow: $0.row), $0.column, $0.columns) }
        let screens = viewRows
        var anchor = chunk
        if anchor > 0 && w.document.chunk(at: anchor) == nil { anchor = max(0, w.document.chunkCount - 1) }
        let anchorRows = w.rows(ofChunk: anchor, size: size) ?? 0
        let row = min(max(0, row), max(0, anchorRows - 1))
        var lower = anchor
        var upper = anchor + 1
        var below = anchorRows - row
        while below < 3 * screens, w.document.chunk(at: upper) != nil {
            below += (w.rows(ofChunk: upper, size: size) ?? 0) + w.gapRows(before: upper)
            upper += 1
        }
        var above = row
        while above < 2 * screens + max(0, 3 * screens - below), lower > 0, w.document.chunk(at: lower - 1) != nil {
            lower -= 1
            above += (w.rows(ofChunk: lower, size: size) ?? 0) + w.gapRows(before: lower + 1)
        }
        let (layout, entities) = w.stitch(lower..<upper, size: size)
        w.reachesEnd = w.document.chunk(at: upper) == nil
        var frame = options.frame
        frame.formatting = entities
        builder = ANSIFrameBuilder(layout: layout, options: frame)
        revealedAt = [:]
        for (i, box) in layout.words.enumerated() where w.revealsAll || w.revealed.contains(w.key(of: box)) {
            revealedAt[builder.groups[i]] = 0
        }
        document = w
        scrollRow = min(max(0, (w.windowRow(chunk: anchor, row: row) ?? 0)), maxScroll)
        search.match = match.flatMap { m in
            w.windowRow(chunk: m.0.chunk, row: m.0.row).map { (row: $0, column: m.1, columns: m.2) }
        }
        rebuildScene(window: sceneWindow(around: scrollRow), now: now)
    }

    /// Moves the window when the screen comes within a screen of its edge (or the window
    /// has grown large), keeping the screen's first row where it is.
    ///
    /// - Returns: whether the window moved.
    @discardableResult
    mutating func followScreen() -> Bool {
        guard let w = document, scrollAnimation == nil else { return false }
        let nearTop = scrollRow < viewRows && w.chunks.lowerBound > 0
        let nearBottom = scrollRow + 2 * viewRows > builder.rows && !w.reachesEnd
        let large = builder.rows > 10 * viewRows && w.chunks.count > 2
        guard nearTop || nearBottom || large else { return false }
        let top = w.position(ofRow: scrollRow)
        placeWindow(chunk: top.chunk, row: top.row, now: hostNow)
        return true
    }

    /// Scrolls a document by `rows`, moving the window as the screen goes.
    mutating func scrollDocument(by rows: Int) {
        // Scrolled meanwhile: the screen stays where it is taken, not at the end.
        document!.waitsForEnd = false
        var remaining = rows
        while true {
            let target = scrollRow + remaining
            scrollRow = min(max(0, target), maxScroll)
            remaining = target - scrollRow
            let moved = followScreen()
            if remaining == 0 || !moved { break }
        }
    }

    /// The first row of the text (Home).
    mutating func scrollToStart() {
        guard let w = document else {
            scroll(by: -scrollRow)
            return
        }
        document!.waitsForEnd = false
        if w.chunks.lowerBound == 0 {
            scrollRow = 0
            followScreen()
        } else {
            placeWindow(chunk: 0, row: 0, now: hostNow)
        }
    }

    /// The last screen of the text (End). A document that finds its last chunk at once
    /// (``ReaderDocument/lastChunkFromEnd()``) is shown there; otherwise its whole index is
    /// read first (its chunk boundaries, not its text). While the index is built off the
    /// loop, End is answered at once and the screen goes to the end when it is done
    /// (``followDocumentEnd()``), unless another scroll comes first.
    mutating func scrollToEnd() {
        guard let w = document else {
            followPrefix(toEnd: true)
            scroll(by: builder.rows)
            return
        }
        if !w.reachesEnd, let last = w.document.lastChunkFromEnd() {
            // Found from the end at once: go there; the index puts it in its place later.
            document!.waitsForEnd = false
            if w.document.settledIndex(of: last) != last { document!.provisionalEnd = last }
            placeWindow(chunk: last, row: Int.max / 2, now: hostNow)
            scrollRow = maxScroll
            return
        }
        if !w.reachesEnd && w.document.isIndexingInBackground {
            document!.waitsForEnd = true
            return
        }
        document!.waitsForEnd = false
        if !w.reachesEnd {
            let last = max(0, w.document.chunkCount - 1)
            placeWindow(chunk: last, row: Int.max / 2, now: hostNow)
        }
        scrollRow = maxScroll
    }

    /// Once the index knows where the chunks End found from the end are, numbers the
    /// window (if it is still among them) and the reveals made there as the index does;
    /// nothing on the screen moves. Chunks that never get a place (they were not where the
    /// index has them) lose their reveals, and a window among them goes to the index's end.
    mutating func settleDocumentTail() {
        guard let w = document, let end = w.provisionalEnd else { return }
        /// Whether the window is still among the chunks found from the end.
        func windowIsProvisional() -> Bool {
            !w.chunks.isEmpty && w.document.settledIndex(of: w.chunks.lowerBound) != w.chunks.lowerBound
        }
        guard let settled = w.document.settledIndex(of: end) else {
            // Once the index is complete without a place for them, the chunks were not the
            // document's last: their reveals go, and a window still among them goes to the end.
            guard let last = w.document.lastChunkFromEnd(), w.document.settledIndex(of: last) == last else { return }
            document!.provisionalEnd = nil
            document!.revealed = w.revealed.filter { w.document.settledIndex(of: $0.chunk) == $0.chunk }
            if windowIsProvisional() {
                document!.chunks = 0..<0
                placeWindow(chunk: last, row: Int.max / 2, now: hostNow)
                scrollRow = maxScroll
            }
            return
        }
        let shift = end - settled
        var v = w
        v.provisionalEnd = nil
        v.revealed = []
        for var key in w.revealed {
            guard let place = w.document.settledIndex(of: key.chunk) else { continue }
            key.chunk = place
            v.revealed.insert(key)
        }
        if windowIsProvisional() {
            v.chunks = (w.chunks.lowerBound - shift)..<(w.chunks.upperBound - shift)
            v.layouts = [:]
            for (i, layout) in w.layouts { v.layouts[i - shift] = layout }
        }
        document = v
    }

    /// Goes to the end once the index End waits for is done.
    mutating func followDocumentEnd() {
        guard let w = document, w.waitsForEnd, !w.document.isIndexingInBackground else { return }
        scrollToEnd()
    }

    /// Whether the last row of the text is on the screen.
    var isAtEnd: Bool { (document?.reachesEnd ?? true) && (prefix?.isWhole ?? true) && scrollRow >= maxScroll }

    /// A document's percentage: the bytes before the screen's first row over the
    /// document's, 0 at the top, 1 once the last row is on the screen.
    var documentFraction: Double? {
        guard let w = document else { return nil }
        if isAtEnd { return 1 }
        if w.chunks.lowerBound == 0 && scrollRow == 0 { return 0 }
        let top = w.position(ofRow: scrollRow)
        let k = top.chunk - w.chunks.lowerBound
        guard w.chunkBytes.indices.contains(k) else { return 0 }
        let bytes = w.chunkBytes[k]
        let rows = max(1, w.chunkRows[k + 1] - w.chunkRows[k])
        let byte = Double(bytes.lowerBound) + Double(bytes.count) * Double(top.row) / Double(rows)
        return min(0.999, max(0, byte / Double(max(1, w.document.byteCount))))
    }

    /// `r` over a document: every word revealed, in the chunks not yet laid out too.
    mutating func documentRevealAll(_ revealed: Bool) {
        guard document != nil else { return }
        document!.revealsAll = revealed
        if !revealed { document!.revealed.removeAll() }
    }

    /// The next chunk after (or before) the window whose text holds `pattern`, if any.
    func chunk(holding pattern: String, forward: Bool) -> Int? {
        guard let w = document else { return nil }
        var i = forward ? w.chunks.upperBound : w.chunks.lowerBound - 1
        while i >= 0, let chunk = w.document.chunk(at: i) {
            if chunk.message.text.contains(pattern) { return i }
            i += forward ? 1 : -1
        }
        return nil
    }
}
