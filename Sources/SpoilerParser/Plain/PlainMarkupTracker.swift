/// Follows the spoilers and code spans of plain chat text (``PlainParser``'s rules) as its
/// bytes go by, without parsing it: what is open at each place, as the parse of the whole
/// text has it, so that a long text can be cut into parts that are parsed on their own and
/// still hide exactly what the whole parse hides (`spoiler read` of a long file).
///
/// Two things the whole parse knows only at its end: whether the last `||` is ever closed
/// (if not, it is text), and whether the last backtick is (if not, it is text and the rest
/// is read again without code, so the pipes inside what looked like code pair up). The
/// tracker therefore keeps two readings while code is open: code that closes later, and a
/// backtick that never does (``Place/spoilerIfCodeNeverCloses``); and a place where something
/// is open is known for certain only once the text has ended
/// (``resolve(_:)``, on the tracker that has taken the whole text).
///
/// A part that starts where something is open is parsed after the markers that open it
/// (``openingMarkers(for:)``), and one that ends so after those that close it
/// (``closingMarkers(for:)``): with them the part's own parse hides what the whole parse
/// hides there. ``isSafeCut(before:after:)`` says where such a cut is possible without
/// the markers running into the part's own (a `|`, backtick or backslash beside the cut,
/// or an opener with nothing after it yet).
///
/// ```swift
/// var tracker = PlainMarkupTracker()
/// for (p, b) in Array("a ||b\n\nc|| d".utf8).enumerated() { tracker.take(b, at: p) }
/// // After "a ||b\n" (offset 6) a spoiler is open; after the whole text nothing is.
/// ```
public struct PlainMarkupTracker: Sendable, Equatable {
    /// What is open at one place of the text, in the two readings.
    public struct Place: Sendable, Equatable {
        /// The byte offset.
        public var offset: Int
        /// Whether a spoiler is open, reading any open code as code that closes later.
        public var spoiler: Bool
        /// Whether code is open (a backtick that closes later, or never).
        public var code: Bool
        /// Whether a spoiler is open if the open code's backtick never closes (it is then
        /// text, and the pipes after it pair up); `spoiler` when no code is open.
        public var spoilerIfCodeNeverCloses: Bool

        /// A place at `offset` with what is open there.
        public init(offset: Int, spoiler: Bool, code: Bool, spoilerIfCodeNeverCloses: Bool) {
            self.offset = offset
            self.spoiler = spoiler
            self.code = code
            self.spoilerIfCodeNeverCloses = spoilerIfCodeNeverCloses
        }

        /// Whether nothing is open in either reading: a part may start there as a text of
        /// its own.
        public var isOutside: Bool { !spoiler && !code && !spoilerIfCodeNeverCloses }
    }

    /// What is open at a place once the whole text is known.
    public struct Open: Sendable, Equatable {
        /// A spoiler that closes later.
        public var spoiler: Bool
        /// Code that closes later.
        public var code: Bool

        /// What is open: a spoiler, code, both or nothing.
        public init(spoiler: Bool, code: Bool) {
            self.spoiler = spoiler
            self.code = code
        }

        /// Nothing open.
        public static let nothing = Open(spoiler: false, code: false)
    }

    // The spoiler and code of the reading where code closes later.
    @usableFromInline var spoilerOpen = false
    @usableFromInline var spoilerOpener = -1
    @usableFromInline var spoilerEmpty = false
    @usableFromInline var codeOpen = false
    @usableFromInline var codeOpener = -1
    @usableFromInline var codeEmpty = false
    /// The spoiler in the reading where the open code's backtick never closes.
    @usableFromInline var otherSpoilerOpen = false
    @usableFromInline var otherSpoilerOpener = -1
    @usableFromInline var otherSpoilerEmpty = false
    /// A `|` not yet paired (outside code), in each reading.
    @usableFromInline var pipePending = false
    @usableFromInline var otherPipePending = false
    /// A backslash whose next byte is not taken yet.
    @usableFromInline var escapePending = false

    /// A tracker at the start of a text.
    public init() {}

    @usableFromInline static let pipe = UInt8(ascii: "|")
    @usableFromInline static let backtick = UInt8(ascii: "`")
    @usableFromInline static let backslash = UInt8(ascii: "\\")

    /// Whether `b` is a byte the tracker must be given one at a time: `|`, a backtick or a
    /// backslash. Any other run of bytes may go to ``takeText(count:)`` at once.
    @inlinable @inline(__always)
    public static func isMarkup(_ b: UInt8) -> Bool {
        b == PlainMarkupTracker.pipe || b == PlainMarkupTracker.backtick || b == PlainMarkupTracker.backslash
    }

    /// What is open after the bytes taken so far, at `offset` (the next byte's).
    @inlinable
    public func place(at offset: Int) -> Place {
        Place(
            offset: offset, spoiler: spoilerOpen, code: codeOpen,
            spoilerIfCodeNeverCloses: codeOpen ? otherSpoilerOpen : spoilerOpen)
    }

    /// Whether an open spoiler or code has nothing in it yet, in either reading: a part
    /// cut here would end on the opener itself.
    @inlinable
    public var hasEmptyOpener: Bool {
        if codeOpen { return codeEmpty || (otherSpoilerOpen && otherSpoilerEmpty) }
        return spoilerOpen && spoilerEmpty
    }

    /// Takes `count` bytes that are not markup (``isMarkup(_:)``), and not the start of
    /// an escape's second byte: text in every reading.
    @inlinable @inline(__always)
    public mutating func takeText(count: Int) {
        guard count > 0 else { return }
        if escapePending { escapePending = false }
        pipePending = false
        otherPipePending = false
        spoilerEmpty = false
        codeEmpty = false
        otherSpoilerEmpty = false
    }

    /// Takes the byte `b` at `offset`.
    @inlinable
    public mutating func take(_ b: UInt8, at offset: Int) {
        if escapePending {
            escapePending = false
            if PlainMarkupTracker.isMarkup(b) {
                // The escaped character is text (the backslash was taken as such).
                return
            }
        }
        switch b {
        case PlainMarkupTracker.backslash:
            takeText(count: 1)
            escapePending = true
        case PlainMarkupTracker.pipe:
            takePipe(at: offset)
        case PlainMarkupTracker.backtick:
            takeBacktick(at: offset)
        default:
            takeText(count: 1)
        }
    }

    /// Whether nothing is open after the bytes taken so far (in either reading): every
    /// place before where something looked open is then known for certain, as
    /// ``Place/spoiler`` and ``Place/code`` say, since all of it closed.
    @inlinable
    public var isOutside: Bool { !spoilerOpen && !codeOpen }

    /// Whether an `||` next is a spoiler's marker, taken as one by ``takePipePair(at:)``:
    /// no code is open and no `|` or backslash before it is waiting for its next byte.
    @inlinable
    public var takesPipePair: Bool { !codeOpen && !pipePending && !escapePending }

    /// Takes the `||` at `offset`, as two ``take(_:at:)`` would, where ``takesPipePair``.
    @inlinable
    public mutating func takePipePair(at offset: Int) {
        PlainMarkupTracker.pair(at: offset, open: &spoilerOpen, opener: &spoilerOpener, empty: &spoilerEmpty)
    }

    @inlinable
    mutating func takePipe(at offset: Int) {
        if codeOpen {
            // Text in code; in the other reading the pipes pair up.
            spoilerEmpty = false
            codeEmpty = false
            if otherPipePending {
                otherPipePending = false
                PlainMarkupTracker.pair(
                    at: offset - 1, open: &otherSpoilerOpen, opener: &otherSpoilerOpener, empty: &otherSpoilerEmpty)
            } else {
                otherPipePending = true
            }
            return
        }
        if pipePending {
            pipePending = false
            PlainMarkupTracker.pair(at: offset - 1, open: &spoilerOpen, opener: &spoilerOpener, empty: &spoilerEmpty)
        } else {
            pipePending = true
        }
    }

    /// An `||` at `offset`: closes a spoiler with something in it, else opens one (an
    /// opener with nothing after it becomes text, as ``PlainScanner/pipePair()`` has it).
    @inlinable
    static func pair(at offset: Int, open: inout Bool, opener: inout Int, empty: inout Bool) {
        if open && !empty {
            open = false
        } else {
            open = true
            opener = offset
            empty = true
        }
    }

    @inlinable
    mutating func takeBacktick(at offset: Int) {
        // A pipe left unpaired before it is text.
        if pipePending {
            pipePending = false
            spoilerEmpty = false
        }
        if codeOpen && !codeEmpty {
            codeOpen = false
            return
        }
        // Opens, or (after an opener with nothing in it) the opener is text and this one
        // opens: either way a backtick is written, so the spoiler has something in it.
        codeOpen = true
        codeOpener = offset
        codeEmpty = true
        spoilerEmpty = false
        // The other reading: this backtick is text and the pipes after it pair up.
        otherSpoilerOpen = spoilerOpen
        otherSpoilerOpener = spoilerOpener
        otherSpoilerEmpty = false
        otherPipePending = false
    }

    /// What is open at `place` for certain, asked of the tracker that has taken the whole
    /// text: a backtick still open at the end never closed (the other reading holds from
    /// it on), and a spoiler still open at the end never closed (it is text, so nothing
    /// after its opener is inside it).
    public func resolve(_ place: Place) -> Open {
        var spoiler = place.spoiler
        var code = place.code
        // The spoiler still open at the end of the whole text, as the parse reads it.
        var lastOpen = spoilerOpen
        var lastOpener = spoilerOpener
        if codeOpen {
            lastOpen = otherSpoilerOpen
            lastOpener = otherSpoilerOpener
            if place.code && place.offset > codeOpener {
                code = false
                spoiler = place.spoilerIfCodeNeverCloses
            }
        }
        if spoiler && lastOpen && place.offset > lastOpener { spoiler = false }
        return Open(spoiler: spoiler, code: code)
    }

    /// The bytes a part that starts where `open` is open is parsed after: `||` for a
    /// spoiler, then a backtick for code (code sits inside a spoiler, never around one).
    public static func openingMarkers(for open: Open) -> [UInt8] {
        (open.spoiler ? [pipe, pipe] : []) + (open.code ? [backtick] : [])
    }

    /// The bytes a part that ends where `open` is open is parsed with after it: a backtick
    /// for code, then `||` for a spoiler.
    public static func closingMarkers(for open: Open) -> [UInt8] {
        (open.code ? [backtick] : []) + (open.spoiler ? [pipe, pipe] : [])
    }

    /// Whether a part may end after `before` (the last byte it is parsed with, nil at the
    /// start of the text) and the next start with `after` (nil at the end), where markers
    /// may go: no `|`, backtick or backslash before, no `|` or backtick after, so that the
    /// markers neither pair with nor escape the part's own; and no opener with nothing
    /// after it (``hasEmptyOpener``).
    @inlinable
    public func isSafeCut(before: UInt8?, after: UInt8?) -> Bool {
        if let b = before, PlainMarkupTracker.isMarkup(b) { return false }
        if let a = after, a == PlainMarkupTracker.pipe || a == PlainMarkupTracker.backtick { return false }
        return !hasEmptyOpener && !pipePending && !escapePending
    }
}
