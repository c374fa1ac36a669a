internal import CYajl
import SpoilerCore

/// Reads the messages of a Telegram Desktop export (`result.json`, `--from export`) as a
/// stream: feed it the file's bytes in chunks of any size, and it hands back each message
/// as soon as its closing brace has been read.
///
/// The messages are those of the top-level `messages` array (a one-chat export) or of
/// `chats.list[].messages` and `left_chats.list[].messages` (a whole-account export). Each
/// becomes an ``ExportItem`` (see ``ExportItem`` for how a message's text and entities are
/// read, and which messages are skipped). Everything else in the file is checked for JSON
/// syntax and then ignored.
///
/// Memory: only the message being read is held, as a ``JSONValue``, plus the parser's own
/// stack; it does not grow with the size of the export.
///
/// Why yajl (Debian's libyajl-dev): a small, long-lived C library that parses JSON
/// incrementally from chunks with callbacks, validates UTF-8 in strings, and keeps no tree,
/// which is exactly the shape needed here; `JSONValue` reads one whole buffer at a time.
///
/// ```swift
/// let reader = ExportReader()
/// var items: [ExportItem] = []
/// for chunk in chunks {
///     try reader.feed(chunk, into: &items)
///     items.forEach(use)
///     items.removeAll(keepingCapacity: true)
/// }
/// try reader.finish(into: &items)
/// items.forEach(use)
/// ```
///
/// - Complexity: O(n) in the bytes fed.
public final class ExportReader {
    private var handle: yajl_handle?
    private let callbacks: UnsafeMutablePointer<yajl_callbacks>
    /// The callbacks' context: at a fixed address for the handle's lifetime.
    private let state: UnsafeMutablePointer<ExportStreamState>
    private var finished = false

    /// Creates a reader at the start of an export.
    public init() {
        callbacks = .allocate(capacity: 1)
        callbacks.initialize(to: ExportReader.makeCallbacks())
        state = .allocate(capacity: 1)
        state.initialize(to: ExportStreamState())
        handle = yajl_alloc(callbacks, nil, UnsafeMutableRawPointer(state))
        state.pointee.handle = handle
    }

    deinit {
        if let handle { yajl_free(handle) }
        callbacks.deinitialize(count: 1)
        callbacks.deallocate()
        state.deinitialize(count: 1)
        state.deallocate()
    }

    /// Reads the next `chunk` of the export and appends the messages it completed to
    /// `items`.
    ///
    /// - Throws: ``ParseError`` (`invalidJSON`) with the line, column and byte offset of a
    ///   JSON syntax error: the offending byte (a character that may not be there, the
    ///   first byte of broken UTF-8) or the first byte of a token out of place, the same
    ///   however the export is cut into chunks. The messages completed before the error
    ///   are in `items`; the reader is unusable afterwards.
    public func feed(_ chunk: [UInt8], into items: inout [ExportItem]) throws(ParseError) {
        try chunk.withUnsafeBufferPointer { (p) throws(ParseError) in try feed(p, into: &items) }
    }

    /// Reads the next `chunk` of the export and appends the messages it completed to
    /// `items`, as the array version does.
    public func feed(_ chunk: UnsafeBufferPointer<UInt8>, into items: inout [ExportItem]) throws(ParseError) {
        guard let handle, !finished else { throw ParseError(.unsupported, "the export was already read to its end") }
        guard let base = chunk.baseAddress, chunk.count > 0 else { return }
        let status = yajl_parse(handle, base, chunk.count)
        take(into: &items)
        if status != yajl_status_ok {
            throw failure(status, in: chunk)
        }
        state.pointee.positions.finishChunk(chunk)
    }

    /// Ends the export: appends the last messages to `items` and checks that the export
    /// was complete.
    ///
    /// - Throws: ``ParseError`` when the export is truncated or is not an export at all.
    public func finish(into items: inout [ExportItem]) throws(ParseError) {
        guard let handle, !finished else { return }
        finished = true
        let status = yajl_complete_parse(handle)
        take(into: &items)
        if status != yajl_status_ok {
            throw failure(status, in: UnsafeBufferPointer(start: nil, count: 0))
        }
        if !state.pointee.sawTopLevelObject || !state.pointee.sawMessages {
            throw ParseError(
                .invalidJSON,
                "not a Telegram Desktop export: expected an object with 'messages' (one chat) or 'chats' (a whole account)"
            )
        }
    }

    private func take(into items: inout [ExportItem]) {
        items += state.pointee.items
        state.pointee.items.removeAll(keepingCapacity: true)
    }

    private func failure(_ status: yajl_status, in chunk: UnsafeBufferPointer<UInt8>) -> ParseError {
        finished = true
        let consumed = handle.map { yajl_get_bytes_consumed($0) } ?? 0
        if status == yajl_status_client_canceled, let reason = state.pointee.cancelReason {
            // A callback stopped the parser at the `{` or `[` it was given.
            let at = state.pointee.positions.position(at: max(0, consumed - 1), in: chunk)
            return ParseError(.invalidJSON, "invalid JSON: \(reason)", position: at)
        }
        var reason = "malformed JSON"
        if let handle, let message = yajl_get_error(handle, 0, nil, 0) {
            reason = String(cString: message)
            yajl_free_error(handle, message)
        }
        // yajl words it "parse error: invalid object key (must be a string)\n".
        let isGrammar = reason.hasPrefix("parse error: ")
        if isGrammar { reason.removeFirst("parse error: ".count) }
        while reason.last == "\n" || reason.last == " " { reason.removeLast() }
        let at = errorPosition(reason, isGrammar: isGrammar, consumed: consumed, in: chunk)
        if reason.hasSuffix("invalid bytes in UTF8 string.") {
            // Worded as every other input words it, at the sequence's first byte.
            return ParseError(.invalidUTF8, "Invalid UTF-8 at byte offset \(at.utf8Offset)", position: at)
        }
        if reason == "premature EOF" {
            reason =
                state.pointee.positions.fedBytes == 0
                ? "the export is empty" : "the export ends in the middle of a value (truncated?)"
        }
        return ParseError(.invalidJSON, "invalid JSON: \(reason)", position: at)
    }

    /// Where the error yajl describes as `reason` lies (see ``ExportPositions`` for why
    /// each kind of error is counted its own way).
    private func errorPosition(
        _ reason: String, isGrammar: Bool, consumed: Int, in chunk: UnsafeBufferPointer<UInt8>
    ) -> TextPosition {
        if isGrammar && reason != "premature EOF" {
            // After `,` or `:` these two mean the token after the separator.
            let separatorAccepted =
                reason.hasPrefix("invalid object key") || reason.hasPrefix("unallowed token")
            if let at = state.pointee.positions.offendingToken(in: chunk, separatorAccepted: separatorAccepted) {
                return at
            }
        }
        if reason.hasSuffix("invalid bytes in UTF8 string.") {
            return state.pointee.positions.brokenSequence(endingAt: max(0, consumed - 1), in: chunk)
        }
        // An unexpected character is consumed; the other lexical errors step back onto it.
        let after = reason.hasSuffix("invalid char in json text.") || isGrammar
        return state.pointee.positions.position(at: after ? max(0, consumed - 1) : consumed, in: chunk)
    }

    private static func makeCallbacks() -> yajl_callbacks {
        var c = yajl_callbacks()
        c.yajl_null = { ctx in exportState(ctx, opens: false).pointee.scalar(.null) }
        c.yajl_boolean = { ctx, v in exportState(ctx, opens: false).pointee.scalar(.bool(v != 0)) }
        c.yajl_number = { ctx, p, n in
            let s = p.map { String(decoding: UnsafeRawBufferPointer(start: $0, count: n), as: UTF8.self) } ?? "0"
            return exportState(ctx, opens: false).pointee.scalar(.number(s))
        }
        c.yajl_string = { ctx, p, n in exportState(ctx, opens: false).pointee.scalar(.string(exportText(p, n))) }
        c.yajl_start_map = { ctx in exportState(ctx, opens: true).pointee.open(isObject: true) }
        c.yajl_map_key = { ctx, p, n in exportState(ctx, opens: false).pointee.key(exportText(p, n)) }
        c.yajl_end_map = { ctx in exportState(ctx, opens: false).pointee.close() }
        c.yajl_start_array = { ctx in exportState(ctx, opens: true).pointee.open(isObject: false) }
        c.yajl_end_array = { ctx in exportState(ctx, opens: false).pointee.close() }
        return c
    }
}

/// The stream state behind a yajl callback's context pointer, after noting where the
/// callback's token ended and whether it was `{` or `[` (`opens`).
private func exportState(_ ctx: UnsafeMutableRawPointer?, opens: Bool) -> UnsafeMutablePointer<ExportStreamState> {
    let state = ctx!.assumingMemoryBound(to: ExportStreamState.self)
    let consumed = state.pointee.handle.map { yajl_get_bytes_consumed($0) } ?? 0
    state.pointee.positions.lastTokenEnd = state.pointee.positions.fedBytes + consumed
    state.pointee.positions.lastTokenOpens = opens
    return state
}

private func exportText(_ p: UnsafePointer<UInt8>?, _ n: Int) -> String {
    guard let p else { return "" }
    return String(decoding: UnsafeBufferPointer(start: p, count: n), as: UTF8.self)
}

/// The part of ``ExportReader`` that follows the JSON events: where in the export the
/// parser is, and the message being built.
struct ExportStreamState {
    /// One open container outside the message being built.
    struct Frame {
        var isObject: Bool
        var key: String?
    }

    /// One open container of the message being built.
    struct BuildFrame {
        var isObject: Bool
        var members: [(key: String, value: JSONValue)] = []
        var elements: [JSONValue] = []
        var key = ""
    }

    /// The parser these events come from (set once it exists).
    var handle: yajl_handle?
    /// Where in the export the parser is.
    var positions = ExportPositions()
    var frames: [Frame] = []
    var build: [BuildFrame] = []
    var items: [ExportItem] = []
    var sawTopLevelObject = false
    var sawMessages = false
    var cancelReason: String?
    /// The `id` of the chat being read, in a whole-account export.
    var chatID: JSONValue?
    /// Messages seen so far, skipped ones included.
    var messageIndex = 0

    /// 1 to go on, 0 to stop the parser (see ``cancelReason``).
    mutating func open(isObject: Bool) -> Int32 {
        if frames.count + build.count >= JSONValue.maximumDepth {
            cancelReason = "nesting deeper than \(JSONValue.maximumDepth) levels"
            return 0
        }
        if !build.isEmpty || (isObject && atMessage) {
            build.append(BuildFrame(isObject: isObject))
            return 1
        }
        if frames.isEmpty {
            guard isObject else {
                cancelReason = "not a Telegram Desktop export: the top level must be an object"
                return 0
            }
            sawTopLevelObject = true
        }
        if !isObject && atMessagesArray { sawMessages = true }
        if isObject && atChat { chatID = nil }
        frames.append(Frame(isObject: isObject))
        return 1
    }

    mutating func key(_ k: String) -> Int32 {
        if build.isEmpty {
            frames[frames.count - 1].key = k
        } else {
            build[build.count - 1].key = k
        }
        return 1
    }

    mutating func scalar(_ v: JSONValue) -> Int32 {
        if build.isEmpty {
            if inChat && frames.last?.key == "id" { chatID = v }
            return 1
        }
        add(v)
        return 1
    }

    mutating func close() -> Int32 {
        guard let top = build.popLast() else {
            _ = frames.popLast()
            return 1
        }
        let value: JSONValue = top.isObject ? .object(top.members) : .array(top.elements)
        if build.isEmpty {
            messageIndex += 1
            if let item = ExportItem(value, index: messageIndex, chatID: frames.count > 2 ? chatID : nil) {
                items.append(item)
            }
        } else {
            add(value)
        }
        return 1
    }

    private mutating func add(_ v: JSONValue) {
        let i = build.count - 1
        if build[i].isObject {
            build[i].members.append((build[i].key, v))
        } else {
            build[i].elements.append(v)
        }
    }

    /// Whether the next value is an element of a `messages` array: the top level's
    /// (`{"messages": [here]}`) or a chat's in a whole-account export
    /// (`{"chats": {"list": [{"messages": [here]}]}}`).
    var atMessage: Bool {
        guard let last = frames.last, !last.isObject else { return false }
        return isMessagesArray(upTo: frames.count - 1)
    }

    /// Whether the next value is the `messages` array itself.
    var atMessagesArray: Bool {
        guard let last = frames.last, last.isObject, last.key == "messages" else { return false }
        return frames.count == 1 || isChat(upTo: frames.count)
    }

    /// Whether the next value is a chat of `chats.list` or `left_chats.list`.
    var atChat: Bool {
        frames.count == 3 && frames[2].isObject == false && frames[1].isObject && frames[1].key == "list"
            && (frames[0].key == "chats" || frames[0].key == "left_chats")
    }

    /// Whether the innermost open container is a chat object of a whole-account export.
    var inChat: Bool {
        frames.count == 4 && frames[3].isObject && frames[2].isObject == false && frames[1].key == "list"
            && (frames[0].key == "chats" || frames[0].key == "left_chats")
    }

    /// Whether `frames[count - 1]` is the array of a `messages` member in the right place.
    private func isMessagesArray(upTo count: Int) -> Bool {
        guard count >= 1, frames[count - 1].isObject, frames[count - 1].key == "messages" else { return false }
        return count == 1 || isChat(upTo: count)
    }

    /// Whether `frames[count - 1]` is a chat object of `chats.list` or `left_chats.list`.
    private func isChat(upTo count: Int) -> Bool {
        count == 4 && frames[3].isObject && !frames[2].isObject && frames[1].isObject && frames[1].key == "list"
            && frames[0].isObject && (frames[0].key == "chats" || frames[0].key == "left_chats")
    }
}
