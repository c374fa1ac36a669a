import SpoilerCore

/// Tags: opening, closing and their attributes.
extension HTMLScanner {
    /// Whether `c` ends an attribute name: a space (or the end), `=`, `>`, `/`, `"` or `'`.
    static func endsAttributeName(_ c: UInt8) -> Bool {
        TDLibText.isSpace(c) || c == 0x3D || c == 0x3E || c == 0x2F || c == 0x22 || c == 0x27
    }

    mutating func startTag() throws(ParseError) {
        let begin = i
        i += 1
        while !TDLibText.isSpace(at(i)) && at(i) != 0x3E { i += 1 }
        if at(i) == 0 { throw error("Unclosed start tag at byte offset \(begin)", at: begin) }
        guard let tag = Tag.named(input + begin + 1, count: i - begin - 1) else {
            let name = TDLibText.string(
                TDLibText.lowercased(UnsafeBufferPointer(start: input + begin + 1, count: i - begin - 1)))
            throw error("Unsupported start tag \"\(name)\" at byte offset \(begin)", at: begin)
        }
        let name = tag.name

        var attributes: Attributes?
        while at(i) != 0x3E {
            skipSpaces()
            if at(i) == 0x3E { break }
            let nameStart = i
            while !Self.endsAttributeName(at(i)) { i += 1 }
            let attributeName = TDLibText.string(UnsafeBufferPointer(start: input + nameStart, count: i - nameStart))
            if attributeName.isEmpty {
                throw error("Empty attribute name in the tag \"\(name)\" at byte offset \(begin)", at: begin)
            }
            skipSpaces()
            var value: [UInt8] = []
            if at(i) != 0x3D {
                if at(i) == 0 { throw error("Unclosed start tag \"\(name)\" at byte offset \(begin)", at: begin) }
            } else {
                i += 1
                skipSpaces()
                if at(i) == 0 { throw error("Unclosed start tag \"\(name)\" at byte offset \(begin)", at: begin) }
                let quote = at(i)
                if quote != 0x27 && quote != 0x22 {
                    // A name token: letters, digits, periods and hyphens, not case sensitive.
                    let tokenStart = i
                    while TDLibText.isAlnum(at(i)) || at(i) == 0x2E || at(i) == 0x2D { i += 1 }
                    value = TDLibText.lowercased(UnsafeBufferPointer(start: input + tokenStart, count: i - tokenStart))
                    if !TDLibText.isSpace(at(i)) && at(i) != 0x3E {
                        throw error("Unexpected end of name token at byte offset \(tokenStart)", at: tokenStart)
                    }
                } else {
                    i += 1
                    while at(i) != quote && at(i) != 0 {
                        if at(i) == 0x26, let (code, next) = decodeCharacterReference(at: i) {
                            i = next
                            Self.appendUTF8(code, to: &value)
                            continue
                        }
                        value.append(at(i))
                        i += 1
                    }
                    if at(i) == quote { i += 1 }
                }
                if at(i) == 0 { throw error("Unclosed start tag at byte offset \(begin)", at: begin) }
            }
            var kept = attributes ?? Attributes()
            Self.apply(attribute: attributeName, value: value, tag: tag, to: &kept)
            attributes = kept
        }
        i += 1
        if tag == .span && !(attributes?.argument.elementsEqual("spoiler".utf8) ?? false) {
            throw error("Tag \"span\" must have class \"tg-spoiler\" at byte offset \(begin)", at: begin)
        }
        var index: Int32 = -1
        if let attributes, !attributes.isEmpty {
            index = Int32(truncatingIfNeeded: attributeTable.count)
            attributeTable.append(attributes)
        }
        stack.push(
            OpenEntity(
                kind: tag.rawValue, flags: 0, attributes: index, utf16Start: utf16, byteOffset: begin,
                outStart: out.count))
    }

    static func apply(attribute name: String, value: [UInt8], tag: Tag, to attributes: inout Attributes) {
        switch (tag, name) {
        case (.a, "href"), (.tgEmoji, "emoji-id"):
            attributes.argument = value
        case (.code, "class") where value.starts(with: "language-".utf8):
            attributes.argument = Array(value.dropFirst(9))
        case (.span, "class") where value.starts(with: "tg-".utf8):
            attributes.argument = Array(value.dropFirst(3))
        case (.blockquote, "expandable"):
            attributes.isExpandable = true
        case (.tgTime, "unix"):
            attributes.unixTime = value
        case (.tgTime, "format"):
            attributes.dateFormat = value
        default:
            break
        }
    }

    mutating func endTag() throws(ParseError) {
        let begin = i
        if stack.isEmpty { throw error("Unexpected end tag at byte offset \(begin)", at: begin) }
        let open = stack.top
        let tag = Tag(rawValue: open.kind) ?? .b
        i += 2
        while !TDLibText.isSpace(at(i)) && at(i) != 0x3E { i += 1 }
        let nameEnd = i
        while TDLibText.isSpace(at(i)) && at(i) != 0 { i += 1 }
        if at(i) != 0x3E { throw error("Unclosed end tag at byte offset \(begin)", at: begin) }
        i += 1
        if nameEnd > begin + 2 && Tag.named(input + begin + 2, count: nameEnd - begin - 2) != tag {
            let endName = TDLibText.string(
                TDLibText.lowercased(UnsafeBufferPointer(start: input + begin + 2, count: nameEnd - begin - 2)))
            throw error(
                "Unmatched end tag at byte offset \(begin), expected \"</\(tag.name)>\", found \"</\(endName)>\"",
                at: begin)
        }
        stack.pop()
        var attributes: Attributes?
        if open.attributes >= 0 {
            attributes = attributeTable.removeLast()
        }
        guard utf16 > open.utf16Start else { return }
        try close(open, tag: tag, attributes: attributes ?? Attributes())
    }

    mutating func close(_ open: OpenEntity, tag: Tag, attributes: Attributes) throws(ParseError) {
        let offset = open.utf16Start
        let length = utf16 - offset
        switch tag {
        case .i, .em: entities.append(Entity(.italic, offset: offset, length: length))
        case .b, .strong: entities.append(Entity(.bold, offset: offset, length: length))
        case .s, .strike, .del: entities.append(Entity(.strikethrough, offset: offset, length: length))
        case .u, .ins: entities.append(Entity(.underline, offset: offset, length: length))
        case .tgSpoiler, .span: entities.append(Entity(.spoiler, offset: offset, length: length))
        case .tgEmoji:
            guard let id = TDLibText.canonicalInt64(attributes.argument), id != 0 else {
                throw error("Invalid custom emoji identifier specified", at: open.byteOffset)
            }
            entities.append(Entity(.customEmoji, offset: offset, length: length, customEmojiID: String(id)))
        case .tgTime:
            guard let flags = TelegramLink.dateFlags(attributes.dateFormat) else {
                throw error("Invalid date format used", at: open.byteOffset)
            }
            let unix = Self.wrappingInt32(attributes.unixTime)
            if unix > 0 {
                entities.append(
                    Entity(
                        .dateTime, offset: offset, length: length, unixTime: Int64(unix), tdlibDateFlags: flags,
                        dateTimeFormat: TelegramLink.dateTimeFormat(flags: flags)))
            }
        case .a:
            let url = attributes.argument.isEmpty ? out.bytes(from: open.outStart) : attributes.argument
            if let user = TelegramLink.userID(url) {
                entities.append(Entity(.textMention, offset: offset, length: length, userID: user))
            } else if let link = TelegramLink.checkedLink(url) {
                entities.append(Entity(.textLink, offset: offset, length: length, url: link))
            }
        case .pre:
            if let last = entities.last, last.type == .code, last.offset == offset, last.length == length,
                let language = last.language, !language.isEmpty
            {
                entities[entities.count - 1] = Entity(.pre, offset: offset, length: length, language: language)
            } else {
                entities.append(Entity(.pre, offset: offset, length: length))
            }
        case .code:
            let language = TDLibText.string(attributes.argument)
            if let last = entities.last, last.type == .pre, last.language == nil, last.offset == offset,
                last.length == length, !language.isEmpty
            {
                entities[entities.count - 1].language = language
            } else {
                entities.append(Entity(.code, offset: offset, length: length, language: language))
            }
        case .blockquote:
            entities.append(
                Entity(attributes.isExpandable ? .expandableBlockquote : .blockquote, offset: offset, length: length))
        }
    }

    /// TDLib's `to_integer<int32>`: an optional `-`, then digits up to the first non-digit,
    /// wrapping around on overflow; 0 when there are none.
    static func wrappingInt32(_ bytes: [UInt8]) -> Int32 {
        var i = 0
        var negative = false
        if i < bytes.count && bytes[i] == 0x2D {
            negative = true
            i += 1
        }
        var value: UInt32 = 0
        while i < bytes.count, bytes[i] >= 0x30 && bytes[i] <= 0x39 {
            value = value &* 10 &+ UInt32(bytes[i] - 0x30)
            i += 1
        }
        if negative { value = 0 &- value }
        return Int32(bitPattern: value)
    }
}
