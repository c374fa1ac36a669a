/// The element tree of a Matrix `formatted_body`, read as Python's `html.parser` reads it
/// inside mautrix-python's `NodeifyingParser` (mautrix/util/formatter/html_reader.py), so
/// that SpoilerKit sees the same structure a mautrix bridge sees.
///
/// - A start tag opens an element (tag and attribute names lower-cased; an attribute without
///   a value has a nil value); the void elements (`br`, `hr`, `img`, …) and `<x/>` open none.
/// - An end tag closes the innermost open element only when it has that name; otherwise it
///   is ignored, so misnested tags stay open to the end.
/// - Comments, `<!…>` and `<?…>` are dropped; a `<` that starts no tag is text.
/// - Character references: `&lt; &gt; &amp; &quot; &apos; &nbsp;` and `&#N;`/`&#xN;`;
///   other named references stay as written (Python knows all of HTML5's; SpoilerKit's
///   writer uses only these).
/// - Elements nested deeper than ``maximumDepth`` are read as their content alone, which
///   keeps the work linear and the stack bounded for any input.
struct MatrixHTMLTree {
    /// One element: its tag, attributes and children (indices into ``nodes``).
    struct Node {
        var tag: String
        var attributes: [(name: String, value: String?)]
        var children: [Child] = []

        /// The value of attribute `name` (the last one written), or nil when absent;
        /// `.some(nil)` when present without a value.
        func attribute(_ name: String) -> String?? {
            for a in attributes.reversed() where a.name == name { return .some(a.value) }
            return nil
        }
    }

    enum Child {
        case text([Unicode.Scalar])
        case element(Int)
    }

    static let maximumDepth = 100
    static let voidTags: Set<String> = [
        "area", "base", "br", "col", "command", "embed", "hr", "img", "input", "link", "meta", "param",
        "source", "track", "wbr",
    ]

    /// All elements; element 0 is the root, which holds the whole body.
    var nodes: [Node] = [Node(tag: "body", attributes: [])]

    init(_ html: String) {
        let s = Array(html.unicodeScalars)
        var stack = [0]
        var text: [Unicode.Scalar] = []
        var i = 0
        func flush(_ tree: inout MatrixHTMLTree) {
            if !text.isEmpty {
                tree.nodes[stack.last!].children.append(.text(MatrixHTMLTree.unescape(text)))
                text.removeAll(keepingCapacity: true)
            }
        }
        while i < s.count {
            let c = s[i]
            guard c == "<", i + 1 < s.count else {
                text.append(c)
                i += 1
                continue
            }
            let n = s[i + 1]
            if n == "!" || n == "?" {
                // A comment runs to `-->`, any other declaration to `>`.
                flush(&self)
                let isComment = i + 3 < s.count && s[i + 2] == "-" && s[i + 3] == "-"
                var j = i + 2
                if isComment {
                    j = i + 4
                    while j + 2 < s.count && !(s[j] == "-" && s[j + 1] == "-" && s[j + 2] == ">") { j += 1 }
                    i = min(j + 3, s.count)
                } else {
                    while j < s.count && s[j] != ">" { j += 1 }
                    i = min(j + 1, s.count)
                }
                continue
            }
            let closing = n == "/"
            let nameStart = closing ? i + 2 : i + 1
            guard nameStart < s.count, MatrixHTMLTree.isASCIILetter(s[nameStart]) else {
                text.append(c)
                i += 1
                continue
            }
            // The name runs to a space, `/` or `>` (html.parser's tagfind_tolerant: `=` and
            // quotes are part of it, so `<s=">">` is the tag `s="` and the text `">`).
            var nameEnd = nameStart
            while nameEnd < s.count && !MatrixHTMLTree.isSpace(s[nameEnd]) && s[nameEnd] != "/" && s[nameEnd] != ">" {
                nameEnd += 1
            }
            // Find the end of the tag, skipping quoted attribute values.
            var j = nameEnd
            var quote: Unicode.Scalar?
            while j < s.count {
                let d = s[j]
                if let q = quote {
                    if d == q { quote = nil }
                } else if d == "\"" || d == "'" {
                    // Only a quote that follows `=` after the name opens a value.
                    var k = j - 1
                    while k > nameEnd && MatrixHTMLTree.isSpace(s[k]) { k -= 1 }
                    if k > nameEnd && s[k] == "=" { quote = d }
                } else if d == ">" {
                    break
                }
                j += 1
            }
            guard j < s.count else {
                // An unfinished tag at the end is text, as html.parser leaves it.
                text.append(contentsOf: s[i...])
                break
            }
            flush(&self)
            let k = nameEnd
            let name = MatrixHTMLTree.lowercasedName(s[nameStart..<k])
            if closing {
                if stack.count > 1, nodes[stack.last!].tag == name { stack.removeLast() }
            } else {
                let selfClosing = s[j - 1] == "/"
                let attributes = MatrixHTMLTree.attributes(s[k..<(selfClosing ? j - 1 : j)])
                if stack.count <= MatrixHTMLTree.maximumDepth {
                    nodes.append(Node(tag: name, attributes: attributes))
                    let index = nodes.count - 1
                    nodes[stack.last!].children.append(.element(index))
                    if !selfClosing && !MatrixHTMLTree.voidTags.contains(name) { stack.append(index) }
                }
            }
            i = j + 1
        }
        flush(&self)
    }

    /// A tag or attribute name, lower-cased; ASCII names (all names Matrix uses) without
    /// going through `String.lowercased()`.
    static func lowercasedName(_ s: ArraySlice<Unicode.Scalar>) -> String {
        guard s.allSatisfy(\.isASCII) else { return String(String.UnicodeScalarView(s)).lowercased() }
        return String(
            decoding: s.lazy.map { c in UInt8(("A"..."Z").contains(c) ? c.value + 0x20 : c.value) }, as: UTF8.self)
    }

    /// `scalars` as a String, encoded in one pass.
    static func string(_ scalars: [Unicode.Scalar]) -> String {
        ScalarMessage(scalars: scalars).message.text
    }

    static func isASCIILetter(_ c: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(c) || ("A"..."Z").contains(c)
    }

    static func isSpace(_ c: Unicode.Scalar) -> Bool {
        c == " " || c == "\t" || c == "\n" || c == "\r" || c == "\u{0C}"
    }

    /// The attributes written in `s` (after the tag name).
    static func attributes(_ s: ArraySlice<Unicode.Scalar>) -> [(name: String, value: String?)] {
        var out: [(name: String, value: String?)] = []
        var i = s.startIndex
        while i < s.endIndex {
            while i < s.endIndex && (isSpace(s[i]) || s[i] == "/") { i += 1 }
            guard i < s.endIndex else { break }
            let start = i
            while i < s.endIndex && !isSpace(s[i]) && s[i] != "=" && s[i] != ">" && !(s[i] == "/" && i > start) {
                i += 1
            }
            let name = lowercasedName(s[start..<i])
            var j = i
            while j < s.endIndex && isSpace(s[j]) { j += 1 }
            // Nothing here can begin an attribute (a stray `>`): html.parser stops reading
            // attributes there, and so does this loop, which would otherwise not move on.
            if i == start && (j == s.endIndex || s[j] != "=") { break }
            guard j < s.endIndex, s[j] == "=" else {
                out.append((name, nil))
                continue
            }
            j += 1
            while j < s.endIndex && isSpace(s[j]) { j += 1 }
            var value: [Unicode.Scalar] = []
            if j < s.endIndex && (s[j] == "\"" || s[j] == "'") {
                let q = s[j]
                j += 1
                while j < s.endIndex && s[j] != q {
                    value.append(s[j])
                    j += 1
                }
                j += 1
            } else {
                while j < s.endIndex && !isSpace(s[j]) {
                    value.append(s[j])
                    j += 1
                }
            }
            out.append((name, MatrixHTMLTree.string(unescape(value))))
            i = j
        }
        return out
    }

    /// `s` with its character references replaced.
    static func unescape(_ s: [Unicode.Scalar]) -> [Unicode.Scalar] {
        guard s.contains("&") else { return s }
        var out: [Unicode.Scalar] = []
        out.reserveCapacity(s.count)
        var i = 0
        while i < s.count {
            guard s[i] == "&" else {
                out.append(s[i])
                i += 1
                continue
            }
            var j = i + 1
            if j < s.count && s[j] == "#" {
                j += 1
                var hex = false
                if j < s.count && (s[j] == "x" || s[j] == "X") {
                    hex = true
                    j += 1
                }
                var value: UInt32 = 0
                let digitsStart = j
                while j < s.count, let d = hex ? hexDigit(s[j]) : decimalDigit(s[j]) {
                    value = min(value &* (hex ? 16 : 10) &+ d, 0x110000)
                    j += 1
                }
                if j > digitsStart {
                    if j < s.count && s[j] == ";" { j += 1 }
                    let scalar = Unicode.Scalar(value).flatMap { $0.value == 0 ? nil : $0 } ?? "\u{FFFD}"
                    out.append(scalar)
                    i = j
                    continue
                }
            } else {
                while j < s.count && j - i <= 6 && isASCIILetter(s[j]) { j += 1 }
                let name = String(String.UnicodeScalarView(s[(i + 1)..<j]))
                let named: Unicode.Scalar? =
                    switch name {
                    case "lt": "<"
                    case "gt": ">"
                    case "amp": "&"
                    case "quot": "\""
                    case "apos": "'"
                    case "nbsp": "\u{A0}"
                    default: nil
                    }
                if let named {
                    if j < s.count && s[j] == ";" { j += 1 }
                    out.append(named)
                    i = j
                    continue
                }
            }
            out.append("&")
            i += 1
        }
        return out
    }

    static func decimalDigit(_ c: Unicode.Scalar) -> UInt32? {
        ("0"..."9").contains(c) ? c.value - 0x30 : nil
    }

    static func hexDigit(_ c: Unicode.Scalar) -> UInt32? {
        switch c {
        case "0"..."9": c.value - 0x30
        case "a"..."f": c.value - 0x61 + 10
        case "A"..."F": c.value - 0x41 + 10
        default: nil
        }
    }
}
