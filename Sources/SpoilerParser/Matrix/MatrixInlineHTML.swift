import SpoilerCore

extension MatrixHTMLReader {
    /// The message of a `formatted_body` that is text with inline formatting only, read
    /// straight from its UTF-8 bytes; nil for any other, which the tree reader then reads.
    ///
    /// Most chat messages are such HTML, and reading them here is several times faster
    /// than building the tree. The test is strict, so that the answer is always the tree
    /// reader's (a differential test compares the two on generated HTML): the tags are
    /// lower-case `<span data-mx-spoiler>` (or `="reason"`), `<code>`, `<b> <strong> <i>
    /// <em> <u> <ins> <s> <del> <strike>`, each closed in order and none empty, and `<br>`;
    /// there is no other tag, no `&` or `>` in text, no whitespace but single spaces and
    /// none where mautrix would trim or join it (at the start or end of the message or of
    /// an element, next to `<br>`), and no tag inside `code`.
    static func inlineMessage(_ b: [UInt8]) -> Message? {
        enum Token { case start, open, close, br, text, space }
        var out = UTF8Message(capacity: b.count)
        // Open elements: the entity each will make and where its text starts.
        var stack: [Entity] = []
        var names: [ArraySlice<UInt8>] = []
        var closed: [Entity] = []
        var last = Token.start
        var inCode = false
        let n = b.count
        var i = 0
        var run = 0
        while i < n {
            let c = b[i]
            if c == UInt8(ascii: " ") {
                // A space that mautrix would neither trim nor join: after text or an
                // element, before text or an element (a tag checks that `last` is no space).
                guard last == .text || last == .close else { return nil }
                last = .space
                i += 1
                continue
            }
            if c != UInt8(ascii: "<") {
                if c < 0x20 || c == UInt8(ascii: "&") || c == UInt8(ascii: ">") { return nil }
                if c >= 0x80 && UTF8Whitespace.length(in: b, at: i) > 0 { return nil }
                last = .text
                i += 1
                continue
            }
            out.bytes.append(contentsOf: b[run..<i])
            guard let tag = InlineTag(b, at: i) else { return nil }
            switch tag.kind {
            case .br:
                guard !inCode, last == .text || last == .close else { return nil }
                out.bytes.append(0x0A)
                last = .br
            case .open(let e):
                guard !inCode else { return nil }
                var e = e
                e.offset = out.bytes.count
                stack.append(e)
                names.append(tag.name)
                inCode = e.type == .code
                last = .open
            case .close:
                // An element closes when the innermost open one has its name, after text.
                guard var e = stack.popLast(), let name = names.popLast(), name.elementsEqual(tag.name),
                    last == .text || last == .close
                else { return nil }
                e.length = out.bytes.count - e.offset
                closed.append(e)
                inCode = false
                last = .close
            }
            i = tag.end
            run = i
        }
        guard stack.isEmpty, last == .text || last == .close else { return nil }
        out.bytes.append(contentsOf: b[run..<n])
        out.entities = closed
        return out.message
    }

    /// One tag of ``inlineMessage(_:)``'s subset, read at a `<`.
    struct InlineTag {
        enum Kind {
            case open(Entity)
            case close
            case br
        }

        var kind: Kind
        var name: ArraySlice<UInt8>
        /// The offset after its `>`.
        var end: Int

        init?(_ b: [UInt8], at i: Int) {
            var k = i + 1
            let closing = k < b.count && b[k] == UInt8(ascii: "/")
            if closing { k += 1 }
            let nameStart = k
            while k < b.count && b[k] >= UInt8(ascii: "a") && b[k] <= UInt8(ascii: "z") { k += 1 }
            guard k < b.count, k > nameStart else { return nil }
            name = b[nameStart..<k]
            if b[k] == UInt8(ascii: ">") {
                end = k + 1
                if !closing && name.elementsEqual("br".utf8) {
                    kind = .br
                    return
                }
                guard let type = InlineTag.type(name, closing: closing) else { return nil }
                kind = closing ? .close : .open(Entity(type, offset: 0, length: 0))
                return
            }
            // `<span data-mx-spoiler>` or `<span data-mx-spoiler="reason">`.
            guard !closing, name.elementsEqual("span".utf8) else { return nil }
            let attribute = Array(" data-mx-spoiler".utf8)
            guard k + attribute.count < b.count, b[k..<(k + attribute.count)].elementsEqual(attribute) else {
                return nil
            }
            k += attribute.count
            if b[k] == UInt8(ascii: ">") {
                end = k + 1
                kind = .open(Entity(.spoiler, offset: 0, length: 0))
                return
            }
            guard b[k] == UInt8(ascii: "="), k + 1 < b.count, b[k + 1] == UInt8(ascii: "\"") else { return nil }
            k += 2
            let valueStart = k
            while k < b.count && b[k] != UInt8(ascii: "\"") {
                let c = b[k]
                if c < 0x20 || c == UInt8(ascii: "&") || c == UInt8(ascii: "<") || c == UInt8(ascii: ">")
                    || c == UInt8(ascii: "'")
                {
                    return nil
                }
                k += 1
            }
            guard k + 1 < b.count, b[k + 1] == UInt8(ascii: ">") else { return nil }
            let reason = String(decoding: b[valueStart..<k], as: UTF8.self)
            end = k + 2
            kind = .open(Entity(.spoiler, offset: 0, length: 0, reason: reason.isEmpty ? nil : reason))
        }

        static func type(_ name: ArraySlice<UInt8>, closing: Bool) -> EntityType? {
            switch String(decoding: name, as: UTF8.self) {
            case "span": closing ? .spoiler : nil
            case "code": .code
            case "b", "strong": .bold
            case "i", "em": .italic
            case "u", "ins": .underline
            case "s", "del", "strike": .strikethrough
            default: nil
            }
        }
    }
}
