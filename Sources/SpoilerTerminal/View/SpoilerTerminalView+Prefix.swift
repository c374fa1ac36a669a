public import SpoilerCore
import SpoilerEffect
public import SpoilerLayout
import SpoilerRender

/// A long message laid out lazily: only its beginning, as far as the screen has been,
/// grown as the screen goes down.
extension SpoilerTerminalView {
    /// Lays out the first `bytes` UTF-8 bytes of the message (about: cut where
    /// ``Message/prefix(cuttingNear:)`` cuts) for a size, and says whether
    /// that was the whole message.
    public typealias PrefixLayoutMaker =
        @Sendable (_ size: TerminalSize, _ bytes: Int) -> (
            layout: TextLayout, isWhole: Bool
        )

    /// The length in bytes above which `spoiler play` lays a message out lazily.
    public static let firstPrefixBytes = 32_768

    /// A view of a message that may be very long, laid out from its beginning only as
    /// far as the screen needs: the first frame costs what the first few screens cost,
    /// whatever the message's length. Scrolling down lays out more (twice as much each
    /// time); End lays out the whole message.
    ///
    /// The rows shown are those of the whole layout: a prefix cut after a space or a
    /// line break lays out its rows as the whole message does, but for its last, which
    /// is not shown until more is laid out.
    ///
    /// Without ``Options/reader`` the view keeps its layout without graphemes
    /// (``layout``'s ``TextLayout/graphemes`` is empty; lines and words stay), since a
    /// message of megabytes would hold about a hundred bytes for each.
    ///
    /// - Parameters:
    ///   - size: the rectangle's size in cells.
    ///   - options: the look, the help row, re-hiding, the reader.
    ///   - layout: lays out a prefix of the message for a size.
    ///   - scene: makes the scene for a layout.
    public init(
        size: TerminalSize, options: Options, prefixLayout layout: @escaping PrefixLayoutMaker,
        scene: @escaping SceneMaker
    ) {
        let bytes = SpoilerTerminalView.prefixBytes(for: size)
        // The first layout and scene are made once, by the designated initialiser; the box
        // brings back whether that layout was the whole message.
        let first = WholeFlag()
        self.init(
            size: size, options: options,
            layout: { size in
                let made = layout(size, bytes)
                first.isWhole = made.isWhole
                return made.layout
            }, scene: scene)
        prefix = PrefixState(layoutPrefix: layout, bytes: bytes, isWhole: first.isWhole)
        if options.reader == nil { builder.dropGraphemes() }
        scrollRow = min(scrollRow, maxScroll)
    }

    /// The bytes laid out first: four screens' worth of cells, at least 8 KB.
    static func prefixBytes(for size: TerminalSize) -> Int {
        max(8192, 4 * max(1, size.columns) * max(1, size.rows))
    }

    /// The default of ``backgroundPrefixBytes``: 1 MB.
    public static let defaultBackgroundPrefixBytes = 1 << 20

    /// Lays the prefix out again at `bytes` (after it grew, or at a new size), keeping the
    /// reveals, the focus and the screen's first row; or, for a long prefix of a view that
    /// ``laysOutInBackground``, asks the host for that layout and keeps the one it has.
    ///
    /// - Returns: whether the layout was made.
    @discardableResult
    mutating func relayoutPrefix(bytes: Int? = nil, toEnd: Bool = false, now: Double) -> Bool {
        guard let p = prefix else { return false }
        let bytes = bytes ?? p.pending?.bytes ?? p.bytes
        if laysOutInBackground && bytes > backgroundPrefixBytes {
            prefix!.pending = PendingPrefix(bytes: bytes, size: size, toEnd: toEnd || (p.pending?.toEnd ?? false))
            return false
        }
        let made = p.layoutPrefix(size, bytes)
        adopt(
            PrefixLayout(builder: Self.builder(for: made.layout, options: options), isWhole: made.isWhole),
            bytes: bytes, toEnd: toEnd, now: now)
        return true
    }

    /// Shows a prefix's new layout (made at `bytes` for the view's size).
    private mutating func adopt(_ made: PrefixLayout, bytes: Int, toEnd: Bool, now: Double) {
        prefix!.bytes = bytes
        prefix!.isWhole = made.isWhole
        prefix!.pending = nil
        let focus = builder.focusedGroup
        builder = made.builder
        builder.focusedGroup = focus.flatMap { builder.groups.contains($0) ? $0 : nil }
        scrollRow = toEnd ? maxScroll : min(scrollRow, maxScroll)
        rebuildScene(window: sceneWindow(around: scrollRow), now: now)
    }

    /// The layout the view waits for, when it ``laysOutInBackground`` and a long message
    /// needs more of it laid out (End, scrolling past the prefix, a resize): the host runs
    /// ``PrefixLayoutRequest/make`` off its loop, keeps answering keys meanwhile, and gives
    /// the result to ``adoptPrefixLayout(_:for:at:)``. Meanwhile the screen shows the
    /// prefix it has; after End it goes to the end once the layout comes, unless it was
    /// scrolled back in the meantime.
    public var prefixLayoutRequest: PrefixLayoutRequest? {
        guard let p = prefix, let pending = p.pending else { return nil }
        let maker = p.layoutPrefix
        let options = self.options
        return PrefixLayoutRequest(bytes: pending.bytes, size: pending.size) {
            let made = maker(pending.size, pending.bytes)
            return PrefixLayout(builder: Self.builder(for: made.layout, options: options), isWhole: made.isWhole)
        }
    }

    /// The frame builder of a prefix layout. Without the reader (whose search reads the
    /// graphemes) it lets go of the layout's graphemes, which a message of megabytes would
    /// hold at about a hundred bytes each.
    static func builder(for layout: TextLayout, options: Options) -> ANSIFrameBuilder {
        var builder = ANSIFrameBuilder(layout: layout, options: options.frame)
        if options.reader == nil { builder.dropGraphemes() }
        return builder
    }

    /// Shows the layout made for `request`, if the view still wants it (the same length at
    /// its present size); otherwise the view goes on waiting for ``prefixLayoutRequest``.
    public mutating func adoptPrefixLayout(_ made: PrefixLayout, for request: PrefixLayoutRequest, at now: Double) {
        guard let pending = prefix?.pending else { return }
        if pending.size != size {
            prefix!.pending!.size = size
            return
        }
        guard pending.bytes == request.bytes, request.size == size else { return }
        adopt(made, bytes: request.bytes, toEnd: pending.toEnd, now: now)
        invalidate()
    }

    /// What the screen says while the host lays out more of a long message.
    public static let pendingLayoutNote = " laying out the rest… "

    /// Says ``pendingLayoutNote`` at the lower right, in reverse video, while a layout is
    /// made off the loop (after End, the screen goes on when it comes), so that a key that
    /// seems to do nothing is seen to be at work.
    func drawPendingLayoutNote(into canvas: inout CellCanvas) {
        let note: String
        if prefix?.pending != nil {
            note = SpoilerTerminalView.pendingLayoutNote
        } else if document?.waitsForEnd == true {
            note = SpoilerTerminalView.pendingEndNote
        } else {
            return
        }
        // Above the reader's bar, if there is one.
        let row = canvas.height - 1 - (options.reader != nil ? chromeRows : 0)
        let width = note.count
        guard row >= 0, canvas.width >= width else { return }
        canvas.write(note, column: canvas.width - width, row: row, style: CellStyle(attributes: .reverse))
    }

    /// What the reader says while End waits for a long document's index.
    public static let pendingEndNote = " finding the end… "

    /// The last row that may be shown: a prefix's last row is not whole yet.
    var hiddenTailRows: Int { (prefix?.isWhole ?? true) ? 0 : 1 }

    /// Lays out more of the message when the screen comes within two screens of the
    /// prefix's end.
    ///
    /// - Returns: whether more was laid out.
    @discardableResult
    mutating func followPrefix(toEnd: Bool = false) -> Bool {
        guard let p = prefix, !p.isWhole else { return false }
        guard toEnd || scrollRow + 3 * viewRows > builder.rows - 1 else { return false }
        if p.pending != nil {
            if toEnd { prefix!.pending!.toEnd = true }
            return false
        }
        return relayoutPrefix(bytes: toEnd ? Int.max / 2 : p.bytes * 2, toEnd: toEnd, now: hostNow)
    }
}

/// Whether the first layout was the whole message (set once, during initialisation).
private final class WholeFlag: @unchecked Sendable {
    var isWhole = false
}

/// The lazily laid-out beginning of a long message.
struct PrefixState: Sendable {
    let layoutPrefix: SpoilerTerminalView.PrefixLayoutMaker
    /// The bytes laid out (about).
    var bytes: Int
    /// Whether the layout is the whole message's.
    var isWhole: Bool
    /// The layout asked of the host, while it is being made.
    var pending: PendingPrefix?
}

/// A prefix layout asked of the host: its length, the size it is for, and whether the
/// screen goes to the end once it comes.
struct PendingPrefix: Sendable {
    var bytes: Int
    var size: TerminalSize
    var toEnd: Bool
}

/// A long message's prefix laid out for a view: what it draws, and whether it is the
/// whole message.
public struct PrefixLayout: Sendable {
    let builder: ANSIFrameBuilder
    let isWhole: Bool
}

/// A prefix layout a view waits for (``SpoilerTerminalView/prefixLayoutRequest``): run
/// ``make`` off the host's loop (it may take seconds for a message of megabytes) and give
/// the result to ``SpoilerTerminalView/adoptPrefixLayout(_:for:at:)``.
public struct PrefixLayoutRequest: Sendable, Equatable {
    /// The length of the prefix, in UTF-8 bytes (about).
    public let bytes: Int
    /// The size it is laid out for.
    public let size: TerminalSize
    /// Lays the prefix out.
    public let make: @Sendable () -> PrefixLayout

    /// Whether two requests ask for the same layout.
    public static func == (a: PrefixLayoutRequest, b: PrefixLayoutRequest) -> Bool {
        a.bytes == b.bytes && a.size == b.size
    }
}

extension Message {
    /// The message's first `utf8Count` bytes or a little more, cut after the next space
    /// or line break (within 4 KB, else at the next character), its entities clipped to
    /// it; and whether that is the whole message.
    ///
    /// - Complexity: O(utf8Count).
    public func prefix(cuttingNear utf8Count: Int) -> (message: Message, isWhole: Bool) {
        let utf8 = text.utf8
        guard utf8Count < utf8.count else { return (self, true) }
        var i = utf8.index(utf8.startIndex, offsetBy: max(0, utf8Count))
        var scanned = 0
        while i < utf8.endIndex && scanned < 4096 {
            let b = utf8[i]
            i = utf8.index(after: i)
            scanned += 1
            if b == 0x20 || b == 0x0A { break }
        }
        // On a scalar boundary.
        while i < utf8.endIndex && utf8[i] & 0xC0 == 0x80 { i = utf8.index(after: i) }
        let head = String(text[..<i])
        guard head.utf8.count < utf8.count else { return (self, true) }
        let units = head.utf16.count
        var clipped: [Entity] = []
        for var e in entities where e.offset < units {
            e.length = min(e.length, units - e.offset)
            clipped.append(e)
        }
        return (Message(text: head, entities: clipped), false)
    }
}
