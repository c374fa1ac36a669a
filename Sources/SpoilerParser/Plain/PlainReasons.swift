import SpoilerCore

extension PlainParser {
    /// Parses plain chat text reading `||reason|text||` as a spoiler with a reason
    /// (``ParseOptions/spoilerReasons``); an escaped `\|` never separates the reason.
    ///
    /// The escaped pipes are first swapped for a noncharacter absent from the input (one
    /// UTF-16 unit, as the `|` they become), so that ``SpoilerReasons/split(_:)`` sees only
    /// unescaped ones, then swapped back: offsets do not move.
    static func parseWithReasons(validUTF8 bytes: [UInt8]) throws(ParseError) -> Message {
        guard bytes.contains(UInt8(ascii: "\\")), let stand = standIn(absentFrom: bytes) else {
            return SpoilerReasons.split(try parse(validUTF8: bytes))
        }
        let standBytes = Array(String(Character(stand)).utf8)
        var marked: [UInt8] = []
        marked.reserveCapacity(bytes.count + 16)
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            if b == UInt8(ascii: "\\"), i + 1 < bytes.count {
                let next = bytes[i + 1]
                if next == UInt8(ascii: "|") {
                    marked.append(contentsOf: standBytes)
                    i += 2
                    continue
                }
                if next == UInt8(ascii: "\\") || next == UInt8(ascii: "`") {
                    marked.append(b)
                    marked.append(next)
                    i += 2
                    continue
                }
            }
            marked.append(b)
            i += 1
        }
        var message = SpoilerReasons.split(try parse(validUTF8: marked))
        message.text = String(String.UnicodeScalarView(message.text.unicodeScalars.lazy.map { $0 == stand ? "|" : $0 }))
        for k in message.entities.indices {
            if let reason = message.entities[k].reason {
                message.entities[k].reason = String(
                    String.UnicodeScalarView(reason.unicodeScalars.lazy.map { $0 == stand ? "|" : $0 }))
            }
        }
        return message
    }

    /// A noncharacter (U+FDD0…U+FDEF) that `bytes` does not hold, or nil if it holds all.
    private static func standIn(absentFrom bytes: [UInt8]) -> Unicode.Scalar? {
        // U+FDD0…U+FDEF are EF B7 90…EF B7 AF in UTF-8.
        var present = Set<UInt8>()
        var i = 0
        while i + 2 < bytes.count {
            if bytes[i] == 0xEF, bytes[i + 1] == 0xB7, (0x90...0xAF).contains(bytes[i + 2]) {
                present.insert(bytes[i + 2])
            }
            i += 1
        }
        guard let last = (UInt8(0x90)...0xAF).first(where: { !present.contains($0) }) else { return nil }
        return Unicode.Scalar(0xFDD0 + UInt32(last - 0x90))
    }
}
