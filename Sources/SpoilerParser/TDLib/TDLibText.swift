import SpoilerCore

/// Byte-level helpers shared by the MarkdownV2 and HTML front ends, which follow TDLib's
/// parsers (td/telegram/MessageEntity.cpp) byte for byte.
enum TDLibText {
    /// The byte at `index`, or 0 past the end, as reading a NUL-terminated C++ string does.
    @inline(__always)
    static func byte(_ bytes: [UInt8], _ index: Int) -> UInt8 {
        index < bytes.count ? bytes[index] : 0
    }

    /// TDLib's `is_space`: space, tab, CR, LF, NUL and vertical tab (not form feed).
    @inline(__always)
    static func isSpace(_ b: UInt8) -> Bool {
        b == 0x20 || b == 0x09 || b == 0x0D || b == 0x0A || b == 0x00 || b == 0x0B
    }

    /// ASCII letter or digit.
    @inline(__always)
    static func isAlnum(_ b: UInt8) -> Bool {
        (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A)
    }

    /// ASCII lower-casing of one byte.
    @inline(__always)
    static func lower(_ b: UInt8) -> UInt8 {
        b >= 0x41 && b <= 0x5A ? b + 0x20 : b
    }

    /// ASCII lower-casing of bytes (other bytes are kept).
    static func lowercased(_ bytes: some Sequence<UInt8>) -> [UInt8] {
        bytes.map(lower)
    }

    /// Whether `bytes` begins with `prefix`, comparing `bytes` lower-cased (the prefix is
    /// given in lower case).
    static func hasLowercasePrefix(_ bytes: ArraySlice<UInt8>, _ prefix: String) -> Bool {
        let p = Array(prefix.utf8)
        guard bytes.count >= p.count else { return false }
        var i = bytes.startIndex
        for b in p {
            if lower(bytes[i]) != b { return false }
            i += 1
        }
        return true
    }

    /// Whether `bytes` begins with `prefix`, exactly.
    static func hasPrefix(_ bytes: ArraySlice<UInt8>, _ prefix: String) -> Bool {
        let p = Array(prefix.utf8)
        guard bytes.count >= p.count else { return false }
        return bytes.prefix(p.count).elementsEqual(p)
    }

    /// TDLib's `to_integer_safe<Int64>`: the value if `bytes` is exactly the canonical
    /// decimal form of an Int64 (an optional `-`, no leading zeros, no `+`).
    static func canonicalInt64(_ bytes: some Collection<UInt8>) -> Int64? {
        guard !bytes.isEmpty, bytes.count <= 20 else { return nil }
        let s = String(decoding: bytes, as: UTF8.self)
        guard let v = Int64(s), String(v) == s else { return nil }
        return v
    }

    /// The text of UTF-8 `bytes` (already known to be valid).
    static func string(_ bytes: some Collection<UInt8>) -> String {
        String(decoding: bytes, as: UTF8.self)
    }
}

/// TDLib's order of entities: by offset, then by length descending, then by TDLib's type
/// priority (`MessageEntity::get_type_priority`).
///
/// The canonical order of ``Message`` leaves ties (same offset and length) in the order
/// given; sorting with TDLib's order first makes the final order TDLib's.
package enum TDLibEntityOrder {
    /// TDLib's priority of an entity type.
    ///
    /// Lower sorts first among entities with the same offset and length. Values are TDLib's,
    /// times ten, so that the types TDLib added later fit between them as observed from
    /// TDLib's output.
    static func priority(_ entity: Entity) -> Int {
        switch entity.type {
        case .mention, .hashtag, .cashtag, .botCommand, .url, .email, .phoneNumber, .bankCard: return 500
        case .bold: return 900
        case .italic: return 910
        case .underline: return 920
        case .strikethrough: return 930
        case .spoiler: return 940
        case .customEmoji: return 990
        case .code: return 200
        case .pre: return entity.language == nil ? 110 : 100
        case .textLink, .textMention: return 490
        case .dateTime: return 480
        case .blockquote: return 0
        case .expandableBlockquote: return 5
        }
    }

    /// Whether `a` comes before `b` in TDLib's order (ignoring their positions in a list).
    package static func precedes(_ a: Entity, _ b: Entity) -> Bool {
        if a.offset != b.offset { return a.offset < b.offset }
        if a.length != b.length { return a.length > b.length }
        return priority(a) < priority(b)
    }

    /// `entities` in TDLib's order (a stable sort; a linear check first, as entities often
    /// come sorted).
    package static func sorted(_ entities: [Entity]) -> [Entity] {
        var isSorted = true
        var k = 1
        while k < entities.count {
            if precedes(entities[k], entities[k - 1]) {
                isSorted = false
                break
            }
            k += 1
        }
        if isSorted { return entities }
        return entities.enumerated().sorted { l, r in
            let a = l.element
            let b = r.element
            if a.offset != b.offset { return a.offset < b.offset }
            if a.length != b.length { return a.length > b.length }
            let pa = priority(a)
            let pb = priority(b)
            if pa != pb { return pa < pb }
            return l.offset < r.offset
        }.map(\.element)
    }
}

extension ParseError {
    /// A markup error worded as TDLib words it, positioned at byte `utf8Offset` of `bytes`.
    package static func tdlib(_ reason: String, at utf8Offset: Int, in bytes: [UInt8]) -> ParseError {
        ParseError(.syntax, reason, position: TextPosition(utf8Offset: min(utf8Offset, bytes.count), in: bytes))
    }
}
