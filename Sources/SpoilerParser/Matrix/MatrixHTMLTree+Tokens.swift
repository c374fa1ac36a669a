/// The tokens of HTML as Python's `html.parser` finds them (CPython 3.11, Lib/html/parser.py
/// and Lib/_markupbase.py), over Unicode scalars as Python's `str` indexes them, for
/// ``MatrixHTMLTree``: `goahead(end=False)` with `convert_charrefs`, the way mautrix feeds it.
///
/// Each function names the pattern or method it stands for; `\s` is Python's (`str.isspace`,
/// Unicode whitespace included). The patterns are matched as Python's regex engine matches
/// them, backtracking included where it changes the answer (a quoted value with no closing
/// quote: ``valueIndicator(at:)``).
struct HTMLTokens {
    let s: [Unicode.Scalar]
    let n: Int
    /// The element whose content is raw text (`script`, `style`), lower-cased.
    var cdata: [Unicode.Scalar]?

    init(_ s: [Unicode.Scalar]) {
        self.s = s
        n = s.count
    }

    @inline(__always)
    func isSpace(_ c: Unicode.Scalar) -> Bool { MatrixHTMLReader.isWhitespace(c) }

    func find(_ c: Unicode.Scalar, from i: Int) -> Int? {
        var k = i
        while k < n {
            if s[k] == c { return k }
            k += 1
        }
        return nil
    }

    func starts(_ literal: String, at i: Int) -> Bool {
        var k = i
        for c in literal.unicodeScalars {
            guard k < n, s[k] == c else { return false }
            k += 1
        }
        return true
    }

    /// `goahead(0)`: reads every token, stopping at a construct left unfinished.
    mutating func read(into tree: inout MatrixHTMLTree) {
        var i = 0
        while i < n {
            var j = n
            if let element = cdata {
                guard let k = cdataEnd(element, from: i) else { break }
                j = k
            } else if let k = find("<", from: i) {
                j = k
            } else if let amp = lastAmpersand(from: Swift.max(i, n - 34)),
                !s[amp...].contains(where: { isSpace($0) || $0 == ";" })
            {
                // html.parser waits for the rest of a reference that may be cut in half.
                break
            }
            if i < j {
                if cdata == nil { tree.data(HTMLTokens.unescape(s[i..<j])) } else { tree.data(s[i..<j]) }
            }
            i = j
            if i == n { break }
            var k: Int
            if i + 1 < n && MatrixHTMLTree.isASCIILetter(s[i + 1]) {
                k = startTag(i, &tree)
            } else if starts("</", at: i) {
                k = endTag(i, &tree)
            } else if starts("<!--", at: i) {
                k = comment(i)
            } else if starts("<?", at: i) {
                k = find(">", from: i + 2).map { $0 + 1 } ?? -1
            } else if starts("<!", at: i) {
                k = declaration(i)
            } else if i + 1 < n {
                tree.data(CollectionOfOne("<"))
                k = i + 1
            } else {
                break
            }
            guard k >= 0 else { break }
            i = k
        }
    }

    func lastAmpersand(from lower: Int) -> Int? {
        var k = n - 1
        while k >= lower {
            if s[k] == "&" { return k }
            k -= 1
        }
        return nil
    }

    /// The start of the next `</\s*element\s*>` (any case), html.parser's `interesting` in
    /// CDATA mode.
    func cdataEnd(_ element: [Unicode.Scalar], from i: Int) -> Int? {
        var k = i
        while let lt = find("<", from: k) {
            k = lt + 1
            guard k < n, s[k] == "/" else { continue }
            var j = k + 1
            while j < n && isSpace(s[j]) { j += 1 }
            var matched = true
            for c in element {
                guard j < n, HTMLTokens.lower(s[j]) == c else {
                    matched = false
                    break
                }
                j += 1
            }
            guard matched else { continue }
            while j < n && isSpace(s[j]) { j += 1 }
            if j < n && s[j] == ">" { return lt }
        }
        return nil
    }

    static func lower(_ c: Unicode.Scalar) -> Unicode.Scalar {
        ("A"..."Z").contains(c) ? Unicode.Scalar(c.value + 0x20)! : c
    }

    // MARK: Start tags

    /// `[^\t\n\r\f />\x00]`: a character of a tag's name.
    @inline(__always)
    static func isNameCharacter(_ c: Unicode.Scalar) -> Bool {
        !(c == "\t" || c == "\n" || c == "\r" || c == "\u{0C}" || c == " " || c == "/" || c == ">" || c == "\0")
    }

    /// `(?:\s|/(?!>))*` from `k`.
    func skipSpacesAndSlashes(_ k: Int) -> Int {
        var k = k
        while k < n && (isSpace(s[k]) || (s[k] == "/" && !(k + 1 < n && s[k + 1] == ">"))) { k += 1 }
        return k
    }

    /// One match of `attrfind_tolerant` at `k`: the name, the value (nil when there is no
    /// `=`; quotes still on) and where the match ends.
    func attribute(at k: Int) -> (name: Range<Int>, value: Range<Int>?, end: Int)? {
        // (?<=['"\s/])[^\s/>][^\s/=>]*
        guard k > 0, k < n else { return nil }
        let before = s[k - 1]
        guard before == "'" || before == "\"" || before == "/" || isSpace(before) else { return nil }
        let first = s[k]
        guard !isSpace(first), first != "/", first != ">" else { return nil }
        var e = k + 1
        while e < n && !isSpace(s[e]) && s[e] != "/" && s[e] != "=" && s[e] != ">" { e += 1 }
        var end = e
        let indicator = valueIndicator(at: e)
        if let indicator { end = indicator.end }
        return (k..<e, indicator?.value, skipSpacesAndSlashes(end))
    }

    /// `\s*=+\s*('[^']*'|"[^"]*"|(?!['"])[^>\s]*)\s*` at `p`, backtracking as Python does
    /// when a quote opens a value it never closes: a space given back is an empty value, an
    /// `=` given back starts a bare one.
    func valueIndicator(at p: Int) -> (value: Range<Int>, end: Int)? {
        var a = p
        while a < n && isSpace(s[a]) { a += 1 }
        guard a < n, s[a] == "=" else { return nil }
        var b = a
        while b < n && s[b] == "=" { b += 1 }
        var c = b
        while c < n && isSpace(s[c]) { c += 1 }
        var value = self.value(at: c)
        if value == nil && c > b { value = (c - 1)..<(c - 1) }
        if value == nil && b - a > 1 { value = self.value(at: b - 1) }
        guard let value else { return nil }
        var end = value.upperBound
        while end < n && isSpace(s[end]) { end += 1 }
        return (value, end)
    }

    /// A quoted value (nil if its quote never closes) or a bare one at `c`.
    func value(at c: Int) -> Range<Int>? {
        if c < n && (s[c] == "'" || s[c] == "\"") {
            guard let close = find(s[c], from: c + 1) else { return nil }
            return c..<(close + 1)
        }
        var e = c
        while e < n && s[e] != ">" && !isSpace(s[e]) { e += 1 }
        return c..<e
    }

    /// `check_for_whole_start_tag`: the offset after the tag, or -1 when html.parser would
    /// wait for more input.
    func wholeStartTag(_ i: Int) -> Int {
        // locatestarttagend_tolerant
        var j = i + 2
        while j < n && HTMLTokens.isNameCharacter(s[j]) { j += 1 }
        while j < n && (isSpace(s[j]) || s[j] == "/") { j += 1 }
        while let a = attribute(at: j) { j = a.end }
        while j < n && isSpace(s[j]) { j += 1 }
        guard j < n else { return -1 }
        let next = s[j]
        if next == ">" { return j + 1 }
        if next == "/" { return j + 1 < n && s[j + 1] == ">" ? j + 2 : -1 }
        if MatrixHTMLTree.isASCIILetter(next) || next == "=" { return -1 }
        return j
    }

    /// `parse_starttag` at the `<` at `i`.
    mutating func startTag(_ i: Int, _ tree: inout MatrixHTMLTree) -> Int {
        let end = wholeStartTag(i)
        guard end >= 0 else { return -1 }
        var k = i + 2
        while k < n && HTMLTokens.isNameCharacter(s[k]) { k += 1 }
        let name = MatrixHTMLTree.lowercasedName(s[(i + 1)..<k])
        k = skipSpacesAndSlashes(k)
        var attributes: [(name: String, value: String?)] = []
        while k < end, let a = attribute(at: k) {
            var value: String?
            if var v = a.value {
                if v.count >= 2, s[v.lowerBound] == "'" || s[v.lowerBound] == "\"",
                    s[v.upperBound - 1] == s[v.lowerBound]
                {
                    v = (v.lowerBound + 1)..<(v.upperBound - 1)
                }
                value = MatrixHTMLTree.string(HTMLTokens.unescape(s[v]))
            }
            attributes.append((MatrixHTMLTree.lowercasedName(s[a.name]), value))
            k = a.end
        }
        // What is left of the tag (nothing when an attribute ran past its end).
        var lo = Swift.min(k, end)
        var hi = end
        while lo < hi && isSpace(s[lo]) { lo += 1 }
        while hi > lo && isSpace(s[hi - 1]) { hi -= 1 }
        let closing = s[lo..<hi]
        if closing.elementsEqual(">".unicodeScalars) {
            tree.start(name, attributes, selfClosing: false)
            if name == "script" || name == "style" { cdata = Array(name.unicodeScalars) }
        } else if closing.elementsEqual("/>".unicodeScalars) {
            tree.start(name, attributes, selfClosing: true)
        } else {
            tree.data(s[i..<end])
        }
        return end
    }

    // MARK: End tags, comments, declarations

    /// `parse_endtag` at the `</` at `i`.
    mutating func endTag(_ i: Int, _ tree: inout MatrixHTMLTree) -> Int {
        guard let gt = find(">", from: i + 1) else { return -1 }
        // endtagfind: </\s*([a-zA-Z][-.a-zA-Z0-9:_]*)\s*>
        var k = i + 2
        while k < n && isSpace(s[k]) { k += 1 }
        if k < n && MatrixHTMLTree.isASCIILetter(s[k]) {
            var e = k + 1
            while e < n && HTMLTokens.isEndNameCharacter(s[e]) { e += 1 }
            var f = e
            while f < n && isSpace(s[f]) { f += 1 }
            if f == gt {
                let name = MatrixHTMLTree.lowercasedName(s[k..<e])
                if let element = cdata, !name.unicodeScalars.elementsEqual(element) {
                    tree.data(s[i...gt])
                    return gt + 1
                }
                tree.end(name)
                cdata = nil
                return gt + 1
            }
        }
        if cdata != nil {
            tree.data(s[i...gt])
            return gt + 1
        }
        // tagfind_tolerant after `</`
        guard i + 2 < n, MatrixHTMLTree.isASCIILetter(s[i + 2]) else {
            if starts("</>", at: i) { return i + 3 }
            return bogusComment(i)
        }
        var e = i + 3
        while e < n && HTMLTokens.isNameCharacter(s[e]) { e += 1 }
        let name = MatrixHTMLTree.lowercasedName(s[(i + 2)..<e])
        let close = find(">", from: skipSpacesAndSlashes(e)) ?? gt
        tree.end(name)
        return close + 1
    }

    static func isEndNameCharacter(_ c: Unicode.Scalar) -> Bool {
        MatrixHTMLTree.isASCIILetter(c) || ("0"..."9").contains(c) || c == "-" || c == "." || c == ":" || c == "_"
    }

    /// `parse_bogus_comment`: to the next `>`.
    func bogusComment(_ i: Int) -> Int {
        find(">", from: i + 2).map { $0 + 1 } ?? -1
    }

    /// `parse_comment`: `<!--` to `--\s*>`.
    func comment(_ i: Int) -> Int {
        var k = i + 4
        while k + 1 < n {
            if s[k] == "-" && s[k + 1] == "-" {
                var j = k + 2
                while j < n && isSpace(s[j]) { j += 1 }
                if j < n && s[j] == ">" { return j + 1 }
            }
            k += 1
        }
        return -1
    }

    /// `parse_html_declaration` at `<!` (not `<!--`).
    func declaration(_ i: Int) -> Int {
        if starts("<![", at: i) { return markedSection(i) }
        if i + 9 <= n && s[(i + 2)..<(i + 9)].map(HTMLTokens.lower).elementsEqual("doctype".unicodeScalars) {
            return find(">", from: i + 9).map { $0 + 1 } ?? -1
        }
        return bogusComment(i)
    }

    /// `parse_marked_section` at `<![`: `<![name … ]]>` (`]>` for Office's `if`, `else`,
    /// `endif`).
    func markedSection(_ i: Int) -> Int {
        // _scan_name: [a-zA-Z][-_.a-zA-Z0-9]*\s*
        var k = i + 3
        guard k < n else { return -1 }
        guard MatrixHTMLTree.isASCIILetter(s[k]) else { return bogusComment(i) }
        while k < n && (HTMLTokens.isEndNameCharacter(s[k]) && s[k] != ":") { k += 1 }
        let name = String(String.UnicodeScalarView(s[(i + 3)..<k].map(HTMLTokens.lower)))
        while k < n && isSpace(s[k]) { k += 1 }
        guard k < n else { return -1 }
        let brackets: Int
        switch name {
        case "temp", "cdata", "ignore", "include", "rcdata": brackets = 2
        case "if", "else", "endif": brackets = 1
        default: return bogusComment(i)
        }
        // ]\s*]\s*> or ]\s*>, searched from after `<![`.
        var start = i + 3
        while let close = find("]", from: start) {
            var j = close + 1
            var seen = 1
            while true {
                while j < n && isSpace(s[j]) { j += 1 }
                if seen < brackets {
                    guard j < n, s[j] == "]" else { break }
                    seen += 1
                    j += 1
                    continue
                }
                if j < n && s[j] == ">" { return j + 1 }
                break
            }
            start = close + 1
        }
        return -1
    }
}
