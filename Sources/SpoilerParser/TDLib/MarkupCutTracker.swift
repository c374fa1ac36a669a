/// What a tracker of markup that opens and closes entities says about each place of a text
/// as its bytes go by (``HTMLTagTracker``): what is open, as the
/// whole text's parse has it, and where a part of the text may end so that it can be parsed
/// on its own between the markup that opens what is open at its start and the markup that
/// closes what is open at its end, and read as the whole parse reads it there.
package protocol MarkupCutTracker: Sendable {
    /// The bytes that must be taken with ``take(_:at:)`` (when ``isInText``), the same
    /// twice if only one must: any run of other bytes may go to ``takeText(_:)`` at once.
    static var markupBytes: (UInt8, UInt8) { get }
    /// Whether taking `b` may change what is open (``changes``), by one change at most.
    static func mayChangeOpen(_ b: UInt8) -> Bool
    /// Takes the byte `b` at `offset`.
    mutating func take(_ b: UInt8, at offset: Int)
    /// Takes a run of bytes none of which is markup (``isMarkup(_:)``), while ``isInText``.
    mutating func takeText(_ run: UnsafeBufferPointer<UInt8>.SubSequence)
    /// Takes the bytes of `bytes[from..<before]` (the first at `offset`) while inside markup
    /// (not ``isInText``), stopping before one that may end it or change what is open, and
    /// before a line break, carriage return, space or tab; returns the index it stopped at.
    mutating func takeInsideMarkup(_ bytes: UnsafeBufferPointer<UInt8>, from: Int, before: Int, at offset: Int) -> Int
    /// Whether the bytes taken so far end in text, not inside markup.
    var isInText: Bool { get }
    /// Whether nothing is open, and no markup is being read: a part may start here as a
    /// text of its own.
    var isOutside: Bool { get }
    /// Whether the last byte taken was text (a part ending here ends with text).
    var lastWasText: Bool { get }
    /// Whether everything open can be opened again with the same meaning.
    var canReopen: Bool { get }
    /// How many times what is open has changed (a place noted earlier has what is open now
    /// only while this is the same).
    var changes: Int { get }
    /// Whether a part may end before the byte `next` (nil at the end) and the next start
    /// with it, with markup put between them.
    func isSafeCut(before next: UInt8?) -> Bool
    /// The markup that opens what is open, outermost first; nil when it cannot be opened
    /// again (``canReopen``).
    var openingMarkup: [UInt8]? { get }
    /// The markup that closes what is open, innermost first.
    var closingMarkup: [UInt8] { get }
    /// ``openingMarkup`` of what was open before the last change (``changes``): nil when
    /// it could not be opened again.
    var openingMarkupBeforeLastChange: [UInt8]? { get }
    /// ``closingMarkup`` of what was open before the last change.
    var closingMarkupBeforeLastChange: [UInt8] { get }
    /// What the whole parse finds open at the end of the text, and the sentence it fails
    /// with, once the tracker has taken the whole text; nil when nothing is.
    var unclosed: (reason: String, byteOffset: Int)? { get }
}
