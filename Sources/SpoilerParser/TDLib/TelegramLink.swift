/// Telegram's checks of link targets, as TDLib makes them when it parses MarkdownV2 and HTML:
/// `LinkManager::get_checked_link` (with `parse_url`), `get_link_user_id`, and the
/// `tg://emoji?id=` and `tg://time?unix=&format=` links of custom emoji and date entities.
///
/// All functions take the link as UTF-8 bytes and never trap.
package enum TelegramLink {
    // MARK: - Mentions by user id

    /// The largest user identifier TDLib accepts (2^40 - 1).
    static let maxUserID: Int64 = (1 << 40) - 1

    /// The user of a `tg://user?id=N` link (scheme and host in any case, an optional `//`
    /// and `/`), or nil when `url` is not such a link or N is not a valid user identifier.
    static func userID(_ url: [UInt8]) -> Int64? {
        let lowered = TDLibText.lowercased(url)
        guard let params = tgParameters(lowered[...], host: "user") else { return nil }
        for (key, value) in params where key.elementsEqual("id".utf8) {
            guard let id = TDLibText.canonicalInt64(value), id > 0, id <= maxUserID else { return nil }
            return id
        }
        return nil
    }

    // MARK: - Custom emoji and dates

    /// The custom emoji identifier of a `tg://emoji?id=N` link: the first `id` parameter,
    /// a non-zero Int64 in canonical decimal form.
    static func customEmojiID(_ url: [UInt8]) -> Int64? {
        guard let params = tgParameters(url[...], host: "emoji") else { return nil }
        for (key, value) in params where key.elementsEqual("id".utf8) {
            guard let id = TDLibText.canonicalInt64(value), id != 0 else { return nil }
            return id
        }
        return nil
    }

    /// A `date_time` entity's data: the Unix time and TDLib's date flags.
    struct DateTime: Equatable {
        var unixTime: Int64
        var flags: Int
    }

    /// The date of a `tg://time?unix=N&format=F` link: every `unix` parameter must be a
    /// positive Int32 and every `format` a valid format (the last of each wins); `unix` is
    /// required.
    static func dateTime(_ url: [UInt8]) -> DateTime? {
        guard let params = tgParameters(url[...], host: "time") else { return nil }
        var unix: Int64?
        var flags = 0
        for (key, value) in params {
            if key.elementsEqual("unix".utf8) {
                guard let t = TDLibText.canonicalInt64(value), t > 0, t <= Int64(Int32.max) else { return nil }
                unix = t
            } else if key.elementsEqual("format".utf8) {
                guard let f = dateFlags(value) else { return nil }
                flags = f
            }
        }
        guard let unix else { return nil }
        return DateTime(unixTime: unix, flags: flags)
    }

    /// TDLib's date flags of a date format.
    ///
    /// `r` (relative, in either case) alone gives 1; otherwise any of `t` 2, `T` 4, `d` 8,
    /// `D` 16, `w`/`W` 32, combined; empty gives 0. Nil for any other letter, or `r`
    /// combined with anything.
    static func dateFlags(_ format: some Collection<UInt8>) -> Int? {
        if format.count == 1, let c = format.first, c == UInt8(ascii: "r") || c == UInt8(ascii: "R") { return 1 }
        var flags = 0
        for c in format {
            switch c {
            case UInt8(ascii: "t"): flags |= 2
            case UInt8(ascii: "T"): flags |= 4
            case UInt8(ascii: "d"): flags |= 8
            case UInt8(ascii: "D"): flags |= 16
            case UInt8(ascii: "w"), UInt8(ascii: "W"): flags |= 32
            default: return nil
            }
        }
        return flags
    }

    /// The Bot API `date_time_format` string of TDLib's date flags: `r`, or `w?[dD]?[tT]?`;
    /// nil when the flags are 0 or cannot be written that way (both `t` and `T`, or both
    /// `d` and `D`).
    package static func dateTimeFormat(flags: Int) -> String? {
        if flags == 1 { return "r" }
        if flags == 0 || flags & 1 != 0 || flags & ~63 != 0 { return nil }
        if flags & 6 == 6 || flags & 24 == 24 { return nil }
        var s = ""
        if flags & 32 != 0 { s += "w" }
        if flags & 8 != 0 { s += "d" }
        if flags & 16 != 0 { s += "D" }
        if flags & 2 != 0 { s += "t" }
        if flags & 4 != 0 { s += "T" }
        return s
    }

    /// The key-value parameters of `tg:[//]HOST[/]?k=v&k=v#fragment`, with the scheme and
    /// host matched in any case; nil when `url` has another form.
    static func tgParameters(_ url: ArraySlice<UInt8>, host: String) -> [(ArraySlice<UInt8>, ArraySlice<UInt8>)]? {
        var s = url
        guard TDLibText.hasLowercasePrefix(s, "tg:") else { return nil }
        s = s.dropFirst(3)
        if TDLibText.hasPrefix(s, "//") { s = s.dropFirst(2) }
        guard TDLibText.hasLowercasePrefix(s, host) else { return nil }
        s = s.dropFirst(host.utf8.count)
        if s.first == UInt8(ascii: "/") { s = s.dropFirst() }
        guard s.first == UInt8(ascii: "?") else { return nil }
        s = s.dropFirst()
        if let hash = s.firstIndex(of: UInt8(ascii: "#")) { s = s[..<hash] }
        var result: [(ArraySlice<UInt8>, ArraySlice<UInt8>)] = []
        for part in s.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: false) {
            if let eq = part.firstIndex(of: UInt8(ascii: "=")) {
                result.append((part[..<eq], part[(eq + 1)...]))
            } else {
                result.append((part, part[part.endIndex...]))
            }
        }
        return result
    }

    // MARK: - Checked links

    /// TDLib's `LinkManager::get_checked_link`: the normalised link, or nil when TDLib
    /// rejects it (and drops the entity).
    ///
    /// `tg:`, `ton:` and `tonsite:` links become `SCHEME://host?query`; other links must be
    /// HTTP(S) URLs whose host has a dot (or is an IPv6 address) and come back as
    /// `http[s]://[userinfo@]host[:port]/path…`.
    static func checkedLink(_ link: [UInt8]) -> String? {
        var s = link[...]
        var scheme: String?
        if TDLibText.hasLowercasePrefix(s, "tg:") {
            s = s.dropFirst(3)
            scheme = "tg"
        } else if TDLibText.hasLowercasePrefix(s, "ton:") {
            s = s.dropFirst(4)
            scheme = "ton"
        } else if TDLibText.hasLowercasePrefix(s, "tonsite:") {
            s = s.dropFirst(8)
            scheme = "tonsite"
        }
        if scheme != nil, TDLibText.hasPrefix(s, "//") { s = s.dropFirst(2) }
        guard let url = HTTPURL.parse(s) else { return nil }
        if let scheme {
            if TDLibText.hasLowercasePrefix(s, "http://") || url.isHTTPS || !url.userinfo.isEmpty
                || url.specifiedPort != 0 || url.isIPv6
            {
                return nil
            }
            var query = url.query[...]
            if query.count > 1 && query[query.startIndex + 1] == UInt8(ascii: "?") { query = query.dropFirst() }
            for c in url.host {
                let ok =
                    TDLibText.isAlnum(c) || c == UInt8(ascii: "-") || c == UInt8(ascii: "_")
                    || (scheme == "tonsite" && c == UInt8(ascii: "."))
                if !ok { return nil }
            }
            return scheme + "://" + TDLibText.string(url.host) + TDLibText.string(query)
        }
        if !url.host.contains(UInt8(ascii: ".")) && !url.isIPv6 { return nil }
        return url.string
    }
}

/// TDLib's `HttpUrl`, from `parse_url`: a URL with an optional `http://` or `https://`.
struct HTTPURL {
    var isHTTPS: Bool
    var userinfo: [UInt8]
    /// The host, lower-cased (IPv6 addresses keep their brackets).
    var host: [UInt8]
    var isIPv6: Bool
    /// The port written in the URL, or 0.
    var specifiedPort: Int
    /// Path, query and fragment, starting with `/`, with bytes up to 0x20 percent-encoded.
    var query: [UInt8]

    /// The URL written out as TDLib's `HttpUrl::get_url` does.
    var string: String {
        var out: [UInt8] = Array((isHTTPS ? "https://" : "http://").utf8)
        if !userinfo.isEmpty {
            out += userinfo
            out.append(UInt8(ascii: "@"))
        }
        out += host
        if specifiedPort > 0 { out += Array(":\(specifiedPort)".utf8) }
        out += query
        return TDLibText.string(out)
    }

    /// Parses `url` as TDLib's `parse_url` does (default protocol HTTP); nil on error.
    static func parse(_ url: ArraySlice<UInt8>) -> HTTPURL? {
        let end = url.endIndex
        var p = url.startIndex
        while p < end && !isOneOf(url[p], ":/?#@[]") { p += 1 }
        var isHTTPS = false
        var start = url.startIndex
        if TDLibText.hasPrefix(url[p...], "://") {
            let proto = TDLibText.lowercased(url[url.startIndex..<p])
            if proto.elementsEqual("http".utf8) {
                isHTTPS = false
            } else if proto.elementsEqual("https".utf8) {
                isHTTPS = true
            } else {
                return nil
            }
            start = p + 3
        }
        var e = start
        while e < end && !isOneOf(url[e], "/?#") { e += 1 }
        let userinfoHostPort = url[start..<e]

        var port = 0
        var userinfoHost = userinfoHostPort
        if !userinfoHostPort.isEmpty {
            var colon = userinfoHostPort.endIndex - 1
            while colon > userinfoHostPort.startIndex && !isOneOf(userinfoHostPort[colon], ":]@") { colon -= 1 }
            if colon > userinfoHostPort.startIndex && userinfoHostPort[colon] == UInt8(ascii: ":") {
                var portBytes = userinfoHostPort[(colon + 1)...]
                while portBytes.count > 1 && portBytes.first == UInt8(ascii: "0") { portBytes = portBytes.dropFirst() }
                if let v = TDLibText.canonicalInt64(portBytes), v >= Int64(Int32.min), v <= Int64(Int32.max), v != 0 {
                    port = Int(v)
                } else {
                    port = -1
                }
                userinfoHost = userinfoHostPort[..<colon]
            }
        }
        if port < 0 || port > 65535 { return nil }

        var userinfo = userinfoHost[userinfoHost.startIndex..<userinfoHost.startIndex]
        var host = userinfoHost
        if let at = userinfoHost.lastIndex(of: UInt8(ascii: "@")) {
            userinfo = userinfoHost[..<at]
            host = userinfoHost[(at + 1)...]
        }

        var isIPv6 = false
        if !host.isEmpty && host.first == UInt8(ascii: "[") && host.last == UInt8(ascii: "]") {
            guard isValidIPv6(host.dropFirst().dropLast()) else { return nil }
            isIPv6 = true
        }
        if host.isEmpty { return nil }
        if host.count == 1 && host.first == UInt8(ascii: ".") { return nil }

        var rest = url[e...]
        while let last = rest.last, TDLibText.isSpace(last) { rest = rest.dropLast() }
        var query: [UInt8] = []
        query.reserveCapacity(rest.count + 1)
        if rest.first != UInt8(ascii: "/") { query.append(UInt8(ascii: "/")) }
        let hex = Array("0123456789ABCDEF".utf8)
        for c in rest {
            if c <= 0x20 {
                query.append(UInt8(ascii: "%"))
                query.append(hex[Int(c / 16)])
                query.append(hex[Int(c % 16)])
            } else {
                query.append(c)
            }
        }

        let hostLower = TDLibText.lowercased(host)
        if isIPv6 {
            for (i, c) in hostLower.enumerated() {
                let ok =
                    i == 0 || i + 1 == hostLower.count || c == UInt8(ascii: ":") || c == UInt8(ascii: ".")
                    || isHexDigit(c)
                if !ok { return nil }
            }
        } else {
            guard isValidURLPart(hostLower[...], allowColon: false), isValidURLPart(userinfo, allowColon: true) else {
                return nil
            }
        }

        return HTTPURL(
            isHTTPS: isHTTPS, userinfo: Array(userinfo), host: hostLower, isIPv6: isIPv6, specifiedPort: port,
            query: query)
    }

    private static func isOneOf(_ c: UInt8, _ set: StaticString) -> Bool {
        set.withUTF8Buffer { $0.contains(c) }
    }

    /// Whether `part` holds only what RFC 3986 allows in a host or userinfo (letters, digits,
    /// `.-_!$,~*'();&+=`, a colon where allowed, `%` with two hex digits) or non-ASCII bytes.
    private static func isValidURLPart(_ part: ArraySlice<UInt8>, allowColon: Bool) -> Bool {
        var i = part.startIndex
        while i < part.endIndex {
            let c = part[i]
            if TDLibText.isAlnum(c) || isOneOf(c, ".-_!$,~*'();&+=") || (allowColon && c == UInt8(ascii: ":"))
                || c >= 128
            {
                i += 1
                continue
            }
            if c == UInt8(ascii: "%"), i + 2 < part.endIndex, isHexDigit(part[i + 1]), isHexDigit(part[i + 2]) {
                i += 3
                continue
            }
            return false
        }
        return true
    }

    /// Whether `s` is an IPv6 address as `inet_pton(AF_INET6)` reads it: up to eight groups
    /// of 1–4 hex digits, at most one `::`, optionally ending in a dotted IPv4 address.
    static func isValidIPv6(_ s: ArraySlice<UInt8>) -> Bool {
        let text = TDLibText.string(s)
        if text.isEmpty { return false }
        var groups = 0
        var sawDoubleColon = false
        var parts = text.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        // Leading or trailing "::" produce empty parts.
        if text.hasPrefix("::") { parts.removeFirst() } else if text.hasPrefix(":") { return false }
        if text.hasSuffix("::") { parts.removeLast() } else if text.hasSuffix(":") { return false }
        for (index, part) in parts.enumerated() {
            if part.isEmpty {
                if sawDoubleColon { return false }
                sawDoubleColon = true
                continue
            }
            if index == parts.count - 1 && part.contains(".") {
                guard isValidIPv4(part) else { return false }
                groups += 2
                continue
            }
            guard part.utf8.count <= 4, part.utf8.allSatisfy({ isHexDigit($0) }) else { return false }
            groups += 1
        }
        return sawDoubleColon ? groups < 8 : groups == 8
    }

    private static func isHexDigit(_ c: UInt8) -> Bool {
        (c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46)
    }

    private static func isValidIPv4(_ s: String) -> Bool {
        let parts = s.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return false }
        for p in parts {
            guard !p.isEmpty, p.count <= 3, p.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let v = Int(p), v <= 255
            else { return false }
            if p.count > 1 && p.first == "0" { return false }
        }
        return true
    }
}
