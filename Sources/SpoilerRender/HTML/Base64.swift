/// Standard Base64 (RFC 4648 §4, with padding), which the page's runtime reads with
/// `atob`: hidden words travel in the page this way, so that no form of their text is
/// in the page's own text, its search or its selection.
enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    static func encode(_ bytes: some Collection<UInt8>) -> String {
        var out: [UInt8] = []
        append(Array(bytes), to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends the Base64 of `input` to `out`.
    static func append(_ input: [UInt8], to out: inout [UInt8]) {
        var i = 0
        while i < input.count {
            let b0 = UInt32(input[i])
            let b1 = i + 1 < input.count ? UInt32(input[i + 1]) : 0
            let b2 = i + 2 < input.count ? UInt32(input[i + 2]) : 0
            let n = b0 << 16 | b1 << 8 | b2
            out.append(alphabet[Int(n >> 18 & 63)])
            out.append(alphabet[Int(n >> 12 & 63)])
            out.append(i + 1 < input.count ? alphabet[Int(n >> 6 & 63)] : UInt8(ascii: "="))
            out.append(i + 2 < input.count ? alphabet[Int(n & 63)] : UInt8(ascii: "="))
            i += 3
        }
    }
}
