extension HTMLTokens {
    /// `s` with its character references replaced as Python's `html.unescape` replaces them
    /// (CPython 3.11, Lib/html/__init__.py).
    ///
    /// A reference is `&#digits;?`, `&#xhex;?` or `&` and up to 32 characters that are not
    /// `\t \n \f`, space, `<`, `&`, `#` or `;`, with an optional `;`. A name stands for its
    /// HTML5 character, or, failing that, its longest prefix of at least two characters that
    /// is a name (`&ampx` reads `&x`); a number for its character, with HTML5's replacements
    /// (`&#0;` and surrogates U+FFFD, `&#128;`–`&#159;` Windows-1252, non-characters and most
    /// controls nothing).
    static func unescape(_ s: ArraySlice<Unicode.Scalar>) -> [Unicode.Scalar] {
        guard s.contains("&") else { return Array(s) }
        var out: [Unicode.Scalar] = []
        out.reserveCapacity(s.count)
        var i = s.startIndex
        let n = s.endIndex
        while i < n {
            guard s[i] == "&", i + 1 < n else {
                out.append(s[i])
                i += 1
                continue
            }
            if s[i + 1] == "#" {
                var j = i + 2
                let hex = j < n && (s[j] == "x" || s[j] == "X")
                if hex { j += 1 }
                let digitsStart = j
                var value: UInt32 = 0
                while j < n, let d = hex ? hexDigit(s[j]) : decimalDigit(s[j]) {
                    value = Swift.min(value &* (hex ? 16 : 10) &+ d, 0x11_0000)
                    j += 1
                }
                guard j > digitsStart else {
                    out.append("&")
                    i += 1
                    continue
                }
                if j < n && s[j] == ";" { j += 1 }
                out.append(contentsOf: numericReference(value))
                i = j
                continue
            }
            var j = i + 1
            while j < n && j - i <= 32 && !isNameStop(s[j]) { j += 1 }
            guard j > i + 1 else {
                out.append("&")
                i += 1
                continue
            }
            if j < n && s[j] == ";" { j += 1 }
            let table = HTMLEntityTable.byName
            let name = s[(i + 1)..<j]
            if let value = table[String(String.UnicodeScalarView(name))] {
                out.append(contentsOf: value)
            } else if let x = stride(from: name.count - 1, to: 1, by: -1).first(where: {
                table[String(String.UnicodeScalarView(name.prefix($0)))] != nil
            }) {
                out.append(contentsOf: table[String(String.UnicodeScalarView(name.prefix(x)))]!)
                out.append(contentsOf: name.dropFirst(x))
            } else {
                out.append("&")
                out.append(contentsOf: name)
            }
            i = j
        }
        return out
    }

    /// `[\t\n\f <&#;]`: what ends a reference's name.
    static func isNameStop(_ c: Unicode.Scalar) -> Bool {
        c == "\t" || c == "\n" || c == "\u{0C}" || c == " " || c == "<" || c == "&" || c == "#" || c == ";"
    }

    /// The characters of `&#value;` (`value` capped at 0x110000).
    static func numericReference(_ value: UInt32) -> [Unicode.Scalar] {
        if value == 0 { return ["\u{FFFD}"] }
        if value == 13 { return ["\r"] }
        if value >= 0x80 && value <= 0x9F {
            let windows1252: [UInt32] = [
                0x20AC, 0x81, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152,
                0x8D, 0x017D, 0x8F, 0x90, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122,
                0x0161, 0x203A, 0x0153, 0x9D, 0x017E, 0x0178,
            ]
            return [Unicode.Scalar(windows1252[Int(value - 0x80)])!]
        }
        guard let scalar = Unicode.Scalar(value) else { return ["\u{FFFD}"] }
        let invalid =
            (value >= 1 && value <= 8) || value == 11 || (value >= 14 && value <= 31) || value == 127
            || (value >= 0xFDD0 && value <= 0xFDEF) || value & 0xFFFE == 0xFFFE
        return invalid ? [] : [scalar]
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
