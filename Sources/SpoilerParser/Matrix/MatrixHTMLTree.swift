/// The element tree of a Matrix `formatted_body`, read as mautrix-python's `NodeifyingParser`
/// (mautrix/util/formatter/html_reader.py) reads it with Python's `html.parser`, so that
/// SpoilerKit sees the same structure a mautrix bridge sees.
///
/// - mautrix reads `<body>` + the HTML + `</body>` and never calls `close()`, so a
///   construct still unfinished at the end (an unclosed tag, comment or quoted value) and all
///   that follows it are dropped; so it is here. The tokens are html.parser's (CPython 3.11,
///   `MatrixHTMLTree+Tokens.swift`): tag and attribute names as its tolerant patterns find
///   them (`<s=">">` is the tag `s="`, `<b =x>` has an attribute named `=x`), lower-cased;
///   a start tag whose end it cannot read is text.
/// - A start tag opens an element (an attribute without a value has a nil value); the void
///   elements (`br`, `hr`, `img`, …) and `<x/>` open none. `script` and `style` hold raw text
///   up to their end tag.
/// - An end tag closes the innermost open element only when it has that name; otherwise it
///   is ignored, so misnested tags stay open to the end.
/// - Comments, `<!…>` and `<?…>` are dropped; a `<` that starts no tag is text.
/// - Character references as `html.unescape` reads them: every HTML5 name (with the legacy
///   ones that may omit their `;`), `&#N;` and `&#xN;` with HTML5's replacements.
/// - Elements nested deeper than ``maximumDepth`` are read as their content alone, which
///   keeps the work linear and the stack bounded for any input.
///
/// Where html.parser raises (a `<![` that starts no known marked section), mautrix fails
/// to read the message; here it is dropped up to the next `>`, as a bogus comment.
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

    /// All elements; element 0 is the root (mautrix's `html`), which holds the `body`.
    var nodes: [Node] = [Node(tag: "html", attributes: [])]
    /// Open elements, innermost last.
    private var stack = [0]
    /// Text read since the last element began or ended, for the innermost open element.
    private var text: [Unicode.Scalar] = []

    init(_ html: String) {
        var s: [Unicode.Scalar] = Array("<body>".unicodeScalars)
        s.append(contentsOf: html.unicodeScalars)
        s.append(contentsOf: "</body>".unicodeScalars)
        var tokens = HTMLTokens(s)
        tokens.read(into: &self)
        flush()
    }

    /// Text for the innermost open element (html.parser's `handle_data`).
    mutating func data<C: Collection<Unicode.Scalar>>(_ scalars: C) {
        text.append(contentsOf: scalars)
    }

    /// A start tag (`handle_starttag`, or `handle_startendtag` when `selfClosing`).
    mutating func start(_ name: String, _ attributes: [(name: String, value: String?)], selfClosing: Bool) {
        flush()
        guard stack.count <= MatrixHTMLTree.maximumDepth else { return }
        nodes.append(Node(tag: name, attributes: attributes))
        let index = nodes.count - 1
        nodes[stack.last!].children.append(.element(index))
        if !selfClosing && !MatrixHTMLTree.voidTags.contains(name) { stack.append(index) }
    }

    /// An end tag (`handle_endtag`): it closes the innermost element if that has its name.
    mutating func end(_ name: String) {
        guard stack.count > 1, nodes[stack.last!].tag == name else { return }
        flush()
        stack.removeLast()
    }

    private mutating func flush() {
        guard !text.isEmpty else { return }
        nodes[stack.last!].children.append(.text(text))
        text.removeAll(keepingCapacity: true)
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
}
