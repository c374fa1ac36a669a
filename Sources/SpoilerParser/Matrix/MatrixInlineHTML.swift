import SpoilerCore

extension MatrixHTMLReader {
    /// The message of a `formatted_body` in the shape chat messages have, read straight
    /// from its UTF-8 bytes; nil for any other, which the tree reader then reads.
    ///
    /// Most chat messages are such HTML, and reading them here is several times faster
    /// than building the tree. The test is strict, so that the answer is always the tree
    /// reader's (a differential test compares the two on generated HTML): the tags are
    /// lower-case `<span data-mx-spoiler>` (or `="reason"`), `<code>`, `<b> <strong> <i>
    /// <em> <u> <ins> <s> <del> <strike>`, `<a href="url">`, each closed in order and none
    /// empty, and `<br>`; outside them, `<blockquote>` and `<pre><code>` (or `<code
    /// class="language-x">`) blocks; there is no other tag, no `&` but `&lt; &gt; &amp;
    /// &quot;` and no `>` in text, no whitespace but single spaces (and, in a `pre`, line
    /// breaks and tabs not at either end) and none where mautrix would trim or join it (at
    /// the start or end of the message or of an element, next to `<br>`, after a block), and
    /// no tag inside `code`.
    ///
    /// Blocks read as in mautrix: a line break after each, and one before the first (both
    /// trimmed at the ends of the message).
    static func inlineMessage(_ b: [UInt8]) -> Message? {
        var reader = InlineReader(b)
        return reader.read()
    }

    /// The state of ``inlineMessage(_:)``.
    struct InlineReader {
        enum Token { case start, open, close, br, text, space, block }

        let b: [UInt8]
        var out: UTF8Message
        // Open elements: the index of the entity each makes in `out.entities`, and its tag.
        // Entities are made in the order their elements open.
        var stack: [(entity: Int, tag: Tag)] = []
        var last = Token.start
        var inCode = false
        /// The open `blockquote`'s entity, as an index in `out.entities`.
        var quote: Int?
        var sawBlock = false
        var i = 0
        /// Input bytes from here to `i` are text still to copy.
        var run = 0

        init(_ b: [UInt8]) {
            self.b = b
            out = UTF8Message(capacity: b.count)
        }

        mutating func read() -> Message? {
            let n = b.count
            while i < n {
                let c = b[i]
                if InlineReader.isText(c) {
                    // A run of text with single spaces, through a pointer.
                    var space = false
                    i = b.withUnsafeBufferPointer { p in
                        var k = i + 1
                        while k < n {
                            let c = p[k]
                            if c == UInt8(ascii: " ") {
                                // Two spaces: the loop below refuses the second.
                                if space { break }
                                space = true
                            } else if InlineReader.isText(c) {
                                space = false
                            } else {
                                break
                            }
                            k += 1
                        }
                        return k
                    }
                    last = space ? .space : .text
                    continue
                }
                if c == UInt8(ascii: " ") {
                    // A space that mautrix would neither trim nor join: after text or an
                    // element, before text or an element (a tag checks that `last` is no space).
                    guard last == .text || last == .close else { return nil }
                    last = .space
                    i += 1
                    continue
                }
                if c == UInt8(ascii: "&") {
                    guard reference() else { return nil }
                    last = .text
                    continue
                }
                if c != UInt8(ascii: "<") {
                    if c < 0x20 || c == UInt8(ascii: ">") { return nil }
                    if c >= 0x80 && UTF8Whitespace.mayStart(c) && UTF8Whitespace.length(in: b, at: i) > 0 { return nil }
                    last = .text
                    i += 1
                    continue
                }
                flushText()
                guard tag() else { return nil }
                run = i
            }
            guard stack.isEmpty, quote == nil, last == .text || last == .close || last == .block else { return nil }
            flushText()
            // The line break after a last block is trimmed.
            if last == .block { out.bytes.removeLast() }
            InlineReader.putInClosingOrder(&out.entities)
            return out.takeMessage()
        }

        /// Entities made in the order their elements open put in the order the tree reader
        /// gives, that of their closing tags sorted stably by offset and then length: the
        /// same but where elements span the same text (each inside the one before), whose
        /// closing tags come in the reverse order.
        static func putInClosingOrder(_ entities: inout [Entity]) {
            var k = 0
            while k < entities.count {
                var r = k + 1
                while r < entities.count && entities[r].offset == entities[k].offset
                    && entities[r].length == entities[k].length
                {
                    r += 1
                }
                if r - k > 1 { entities[k..<r].reverse() }
                k = r
            }
        }

        /// Whether byte `c` is text that needs nothing done: not a space, a control
        /// character, `&`, `<` or `>`, nor the first byte of non-ASCII whitespace.
        @inline(__always)
        static func isText(_ c: UInt8) -> Bool {
            if c < 0x80 {
                return c > 0x20 && c != UInt8(ascii: "&") && c != UInt8(ascii: "<") && c != UInt8(ascii: ">")
            }
            return !UTF8Whitespace.mayStart(c)
        }

        mutating func flushText() {
            out.append(b, run, i)
            run = i
        }

        /// `&lt; &gt; &amp; &quot;` at `i`, decoded.
        mutating func reference() -> Bool {
            flushText()
            guard let r = InlineReader.reference(b, at: i) else { return false }
            out.bytes.append(r.byte)
            i += r.length
            run = i
            return true
        }

        static func reference(_ b: [UInt8], at i: Int) -> (byte: UInt8, length: Int)? {
            func has(_ s: StaticString) -> Bool {
                let n = s.utf8CodeUnitCount
                guard i + n <= b.count else { return false }
                for k in 0..<n where b[i + k] != s.utf8Start[k] { return false }
                return true
            }
            if has("&lt;") { return (UInt8(ascii: "<"), 4) }
            if has("&gt;") { return (UInt8(ascii: ">"), 4) }
            if has("&amp;") { return (UInt8(ascii: "&"), 5) }
            if has("&quot;") { return (UInt8(ascii: "\""), 6) }
            return nil
        }

        func starts(_ s: StaticString, at k: Int) -> Bool {
            let n = s.utf8CodeUnitCount
            guard k + n <= b.count else { return false }
            for j in 0..<n where b[k + j] != s.utf8Start[j] { return false }
            return true
        }

        /// One tag at the `<` at `i`; moves `i` past it.
        mutating func tag() -> Bool {
            var k = i + 1
            let closing = k < b.count && b[k] == UInt8(ascii: "/")
            if closing { k += 1 }
            let nameStart = k
            while k < b.count && b[k] >= UInt8(ascii: "a") && b[k] <= UInt8(ascii: "z") { k += 1 }
            guard k < b.count, k > nameStart, let tag = Tag(b, nameStart, k) else { return false }
            if closing {
                guard b[k] == UInt8(ascii: ">") else { return false }
                i = k + 1
                if tag == .blockquote { return closeBlockquote() }
                // An element closes when the innermost open one has its name, after text.
                guard tag.type != nil || tag == .span || tag == .a, let top = stack.popLast(), top.tag == tag,
                    last == .text || last == .close
                else { return false }
                out.close(top.entity)
                inCode = false
                last = .close
                return true
            }
            guard !inCode else { return false }
            if b[k] == UInt8(ascii: ">") {
                i = k + 1
                if tag == .br {
                    guard last == .text || last == .close || last == .block else { return false }
                    out.bytes.append(0x0A)
                    last = .br
                    return true
                }
                if tag == .blockquote { return openBlockquote() }
                if tag == .pre { return pre() }
                guard let type = tag.type else { return false }
                open(Entity(type, offset: 0, length: 0), tag)
                return true
            }
            if tag == .span {
                guard let a = attribute(" data-mx-spoiler", at: k, optional: true) else { return false }
                i = a.end
                open(Entity(.spoiler, offset: 0, length: 0, reason: a.value.flatMap { $0.isEmpty ? nil : $0 }), tag)
                return true
            }
            if tag == .a {
                guard let a = attribute(" href", at: k, optional: false), let url = a.value, !url.isEmpty else {
                    return false
                }
                i = a.end
                open(Entity(.textLink, offset: 0, length: 0, url: url), tag)
                return true
            }
            return false
        }

        mutating func open(_ entity: Entity, _ tag: Tag) {
            inCode = entity.type == .code
            stack.append((out.open(entity), tag))
            last = .open
        }

        /// `name` at `k`, then `>` (when `optional`) or `="value">`: the value (nil without
        /// one) and the offset after the `>`.
        func attribute(_ name: StaticString, at k: Int, optional: Bool) -> (value: String?, end: Int)? {
            guard starts(name, at: k) else { return nil }
            var k = k + name.utf8CodeUnitCount
            guard k < b.count else { return nil }
            if optional && b[k] == UInt8(ascii: ">") { return (nil, k + 1) }
            guard starts("=\"", at: k) else { return nil }
            k += 2
            var value: [UInt8] = []
            while k < b.count && b[k] != UInt8(ascii: "\"") {
                let c = b[k]
                if c < 0x20 || c == UInt8(ascii: "<") || c == UInt8(ascii: ">") { return nil }
                if c == UInt8(ascii: "&") {
                    guard let r = InlineReader.reference(b, at: k) else { return nil }
                    value.append(r.byte)
                    k += r.length
                    continue
                }
                value.append(c)
                k += 1
            }
            guard k + 1 < b.count, b[k + 1] == UInt8(ascii: ">") else { return nil }
            return (String(decoding: value, as: UTF8.self), k + 2)
        }

        /// The line break before the message's first block (none at its start).
        mutating func startBlock() -> Bool {
            guard stack.isEmpty, quote == nil else { return false }
            if !sawBlock && !out.bytes.isEmpty { out.bytes.append(0x0A) }
            sawBlock = true
            return true
        }

        mutating func openBlockquote() -> Bool {
            guard startBlock() else { return false }
            quote = out.open(Entity(.blockquote, offset: 0, length: 0))
            last = .open
            return true
        }

        mutating func closeBlockquote() -> Bool {
            guard let e = quote, stack.isEmpty, last == .text || last == .close else { return false }
            out.close(e)
            quote = nil
            out.bytes.append(0x0A)
            last = .block
            return true
        }

        /// `<pre>` at `i - 5`: `<code>` or `<code class="language-x">`, text, `</code></pre>`.
        mutating func pre() -> Bool {
            guard startBlock() else { return false }
            var language: String?
            if starts("<code>", at: i) {
                i += 6
            } else if starts("<code class=\"language-", at: i) {
                var k = i + 22
                let start = k
                while k < b.count && (InlineReader.isLanguage(b[k])) { k += 1 }
                guard starts("\">", at: k) else { return false }
                language = k > start ? String(decoding: b[start..<k], as: UTF8.self) : nil
                i = k + 2
            } else {
                return false
            }
            let start = out.bytes.count
            run = i
            while i < b.count && b[i] != UInt8(ascii: "<") {
                let c = b[i]
                if c == UInt8(ascii: "&") {
                    guard reference() else { return false }
                    continue
                }
                if c < 0x20 && c != 0x0A && c != 0x09 { return false }
                i += 1
            }
            flushText()
            guard starts("</code></pre>", at: i), out.bytes.count > start else { return false }
            // No whitespace at either end, which the message's trimming could take.
            guard !InlineReader.isEdgeSpace(out.bytes, at: start),
                !InlineReader.isEdgeSpace(out.bytes, endingAt: out.bytes.count)
            else { return false }
            out.entities.append(Entity(.pre, offset: start, length: out.bytes.count - start, language: language))
            i += 13
            out.bytes.append(0x0A)
            last = .block
            return true
        }

        static func isLanguage(_ c: UInt8) -> Bool {
            (c >= 0x61 && c <= 0x7A) || (c >= 0x41 && c <= 0x5A) || (c >= 0x30 && c <= 0x39) || c == 0x2D || c == 0x5F
                || c == 0x2B || c == 0x2E || c == 0x23
        }

        /// Whether the text at `k` starts with whitespace (ASCII or not).
        static func isEdgeSpace(_ s: [UInt8], at k: Int) -> Bool {
            let c = s[k]
            return c == 0x20 || c == 0x0A || c == 0x09 || (c >= 0x80 && UTF8Whitespace.length(in: s, at: k) > 0)
        }

        /// Whether the text ending at `end` ends with whitespace.
        static func isEdgeSpace(_ s: [UInt8], endingAt end: Int) -> Bool {
            var k = end - 1
            while k > 0 && s[k] & 0xC0 == 0x80 { k -= 1 }
            return isEdgeSpace(s, at: k)
        }

        /// The tags the reader knows.
        enum Tag {
            case b, strong, i, em, u, ins, s, del, strike, code, span, a, br, blockquote, pre

            /// The tag named by `b[start..<end]` (lower-case letters), if it is one of these.
            init?(_ b: [UInt8], _ start: Int, _ end: Int) {
                func named(_ s: StaticString) -> Bool {
                    guard s.utf8CodeUnitCount == end - start else { return false }
                    for k in 0..<(end - start) where b[start + k] != s.utf8Start[k] { return false }
                    return true
                }
                switch end - start {
                case 1:
                    switch b[start] {
                    case UInt8(ascii: "b"): self = .b
                    case UInt8(ascii: "i"): self = .i
                    case UInt8(ascii: "u"): self = .u
                    case UInt8(ascii: "s"): self = .s
                    case UInt8(ascii: "a"): self = .a
                    default: return nil
                    }
                case 2:
                    if named("em") {
                        self = .em
                    } else if named("br") {
                        self = .br
                    } else {
                        return nil
                    }
                case 3:
                    if named("ins") {
                        self = .ins
                    } else if named("del") {
                        self = .del
                    } else if named("pre") {
                        self = .pre
                    } else {
                        return nil
                    }
                case 4:
                    if named("code") {
                        self = .code
                    } else if named("span") {
                        self = .span
                    } else {
                        return nil
                    }
                case 6:
                    if named("strong") {
                        self = .strong
                    } else if named("strike") {
                        self = .strike
                    } else {
                        return nil
                    }
                case 10:
                    guard named("blockquote") else { return nil }
                    self = .blockquote
                default:
                    return nil
                }
            }

            /// The entity type of an inline formatting tag.
            var type: EntityType? {
                switch self {
                case .b, .strong: .bold
                case .i, .em: .italic
                case .u, .ins: .underline
                case .s, .del, .strike: .strikethrough
                case .code: .code
                default: nil
                }
            }
        }
    }
}
