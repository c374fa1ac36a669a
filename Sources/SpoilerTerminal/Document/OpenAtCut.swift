import SpoilerParser

/// What is open where a chunk was cut inside something, for the chunks on either side to
/// be parsed with markup that opens it before the one and closes it after the other.
package enum OpenAtCut: Sendable, Equatable {
    /// Plain text: what looked open (``PlainMarkupTracker``), known for certain later.
    case plain(PlainMarkupTracker.Place)
    /// HTML and MarkdownV2: the markup of what is open (certain once it has all closed).
    case markup(EntityCut)
    /// MarkdownV2 and HTML: what is open cannot be opened again (a cut that came after no
    /// place for one in twice a chunk). The chunks on either side are not parsed.
    case unreadable
    /// Markdown: a fenced code block is open; the chunk after the cut is parsed after
    /// `opening`, its opening line (and a line break), if the chunk that holds that line
    /// (its line break at byte `openedAt`) ends inside code as it parses
    /// (``ChunkedDocument`` checks, so that a line the scan took for a fence and the parse
    /// does not, one inside an HTML block, never turns what follows into code).
    case fence(opening: [UInt8], openedAt: Int)

    /// The markup of what is open, for HTML and MarkdownV2; nil otherwise.
    package var entityCut: EntityCut? {
        if case .markup(let cut) = self { return cut }
        return nil
    }
}

/// The markup of the entities open where a text with entities was cut.
package struct EntityCut: Sendable, Equatable {
    /// The byte offset of the cut.
    package var offset: Int
    /// What opens them, outermost first: the chunk after the cut is parsed after it.
    package var opening: [UInt8]
    /// What closes them, innermost first: the chunk before the cut is parsed before it.
    package var closing: [UInt8]
}
