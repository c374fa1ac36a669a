internal import CZlib

/// gzip decompression through zlib, for `.psf.gz` and `.hex.gz` fonts.
enum Gzip {
    /// Decompressed fonts larger than this are refused (a guard against gzip bombs; GNU
    /// Unifont's `.hex`, the largest font here, is under 4 MiB).
    static let maximumOutput = 256 << 20

    /// Whether `bytes` start with the gzip magic number 1f 8b (RFC 1952).
    static func isGzip(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 2 && bytes[0] == 0x1F && bytes[1] == 0x8B
    }

    /// The decompressed bytes of the gzip stream `input`.
    ///
    /// - Throws: ``LayoutError/truncatedFont(file:at:reason:)`` when the stream ends early,
    ///   ``LayoutError/corruptFont(file:at:reason:)`` when zlib rejects it, both at the
    ///   compressed byte offset zlib had reached.
    static func decompress(_ input: [UInt8], file: String) throws(LayoutError) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(input.count * 4)
        var failure: LayoutError?
        input.withUnsafeBufferPointer { inBuf in
            var stream = z_stream()
            // 15 + 32: the largest window, and accept a gzip (or zlib) header.
            guard inflateInit2_(&stream, 15 + 32, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
                failure = .corruptFont(file: file, at: .byte(0, decompressed: false), reason: "zlib could not start")
                return
            }
            defer { inflateEnd(&stream) }
            stream.next_in = UnsafeMutablePointer(mutating: inBuf.baseAddress)
            stream.avail_in = UInt32(inBuf.count)
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            while true {
                let status: Int32 = chunk.withUnsafeMutableBufferPointer { out in
                    stream.next_out = out.baseAddress
                    stream.avail_out = UInt32(out.count)
                    return inflate(&stream, Z_NO_FLUSH)
                }
                let produced = chunk.count - Int(stream.avail_out)
                output.append(contentsOf: chunk[0..<produced])
                let at = FontPosition.byte(Int(stream.total_in), decompressed: false)
                if output.count > maximumOutput {
                    failure = .corruptFont(
                        file: file, at: at, reason: "decompresses to more than \(maximumOutput >> 20) MiB")
                    return
                }
                switch status {
                case Z_STREAM_END:
                    return
                case Z_OK:
                    continue
                case Z_BUF_ERROR where stream.avail_in == 0:
                    failure = .truncatedFont(file: file, at: at, reason: "the gzip stream ends early")
                    return
                default:
                    let message = stream.msg.map { String(cString: $0) } ?? "error \(status)"
                    failure = .corruptFont(file: file, at: at, reason: "bad gzip data: \(message)")
                    return
                }
            }
        }
        if let failure { throw failure }
        return output
    }
}
