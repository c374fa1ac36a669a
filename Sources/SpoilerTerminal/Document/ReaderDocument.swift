public import SpoilerCore

/// A long document that the reader shows a piece at a time: a sequence of chunks, each
/// parsed and laid out on its own, only when it comes near the screen.
///
/// ``SpoilerTerminalView/init(document:size:options:layout:scene:)`` reads a document
/// through this protocol, so that a file of any size opens at once and costs what the
/// few chunks near the screen cost. ``ChunkedDocument`` reads one from a file or from
/// bytes in memory; a host may give its own (a chat history from a database).
///
/// The chunks follow each other in the document; their messages are shown one after
/// the other with ``separator`` between them (a chunk's message has no trailing line
/// break of its own).
public protocol ReaderDocument: Sendable {
    /// The document's length in bytes: what the reader's percentage counts in until the
    /// end is known, and the unit of ``ReaderChunk/bytes``.
    var byteCount: Int { get }
    /// What is shown between the messages of two chunks: `"\n"` (a line break) or
    /// `"\n\n"` (a blank line).
    var separator: String { get }
    /// The chunk at `index` (0-based), or nil when the document has fewer chunks.
    ///
    /// Finding it may read the document up to it (the index of chunk starts is built
    /// lazily, from the start).
    func chunk(at index: Int) -> ReaderChunk?
    /// How many chunks there are (the first call may read the whole document's
    /// boundaries, without parsing them).
    var chunkCount: Int { get }
    /// Whether the index of chunks is being built off the host's loop: the view then
    /// answers End at once and goes to the end when the index is done, instead of waiting
    /// for ``chunkCount`` (default: false).
    var isIndexingInBackground: Bool { get }
    /// The index of the last chunk, if it can be found at once, without the whole index
    /// (End asks for it before it would wait for the index); nil otherwise (the default).
    ///
    /// The index may be provisional: one that is not the chunk's place in the complete
    /// index but a stand-in for it (``ChunkedDocument`` finds an export's last messages
    /// from the end of the file, and numbers them from a large number). The chunks from
    /// it back to the first found answer ``chunk(at:)`` at once; ``settledIndex(of:)``
    /// gives their places once the index knows them.
    func lastChunkFromEnd() -> Int?
    /// The place in the complete index of a provisional index given by
    /// ``lastChunkFromEnd()`` (or one below it): nil until it is known, and for good if
    /// it never will be. An index of the complete index is its own (the default).
    func settledIndex(of index: Int) -> Int?
    /// Whether the chunks are one message (``MessageDocument``): a reveal of scope
    /// `message` then reveals every chunk, not only those near the screen (default: false,
    /// the chunks are a document's parts or a chat's messages).
    var isOneMessage: Bool { get }
}

extension ReaderDocument {
    /// False: ``ReaderDocument/chunkCount`` is found when it is asked for.
    public var isIndexingInBackground: Bool { false }
    /// Nil: End reads the index.
    public func lastChunkFromEnd() -> Int? { nil }
    /// The index itself: no index is provisional.
    public func settledIndex(of index: Int) -> Int? { index }
    /// False: the chunks are parts of a document.
    public var isOneMessage: Bool { false }
}

/// One chunk of a ``ReaderDocument``: where it lies and what it shows.
public struct ReaderChunk: Sendable, Equatable {
    /// The chunk's bytes in the document.
    public var bytes: Range<Int>
    /// The chunk parsed: its text (no trailing line break) and entities.
    public var message: Message
    /// Whether the chunk goes on with a block that the chunk before it was cut inside (a
    /// fenced code block of Markdown longer than a chunk may be): it is shown on the row
    /// after that chunk's last, their texts joined by a line break rather than
    /// ``ReaderDocument/separator``.
    public var joinsPrevious: Bool

    /// A chunk from its byte range and message, and whether it goes on with the block the
    /// chunk before it ends in.
    public init(bytes: Range<Int>, message: Message, joinsPrevious: Bool = false) {
        self.bytes = bytes
        self.message = message
        self.joinsPrevious = joinsPrevious
    }
}
