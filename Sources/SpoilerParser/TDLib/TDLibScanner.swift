import SpoilerCore

/// A one-pass scanner over valid UTF-8 markup that writes text and entities as TDLib's
/// parsers do: the shape shared by the MarkdownV2 and HTML front ends.
protocol TDLibScanner {
    /// Prepares to scan `input`, the buffer of `original`.
    init(_ input: UnsafeBufferPointer<UInt8>, original: [UInt8])
    /// Scans the whole input.
    mutating func run() throws(ParseError)
    /// Frees the scanner's heap storage.
    func deallocate()
    /// The text written so far.
    var out: OutputBytes { get }
    /// The entities found so far, in the order they were closed.
    var entities: [Entity] { get }
}

extension TDLibScanner {
    /// Scans `bytes` and returns the message, entities in TDLib's order (the canonical order
    /// with ties broken by type priority).
    static func scan(_ bytes: [UInt8]) throws(ParseError) -> Message {
        guard !bytes.isEmpty else { return Message(text: "") }
        let scanned: Result<Message, ParseError> = bytes.withUnsafeBufferPointer { input in
            var scanner = Self(input, original: bytes)
            defer { scanner.deallocate() }
            do throws(ParseError) {
                try scanner.run()
            } catch {
                return .failure(error)
            }
            return .success(
                Message(text: scanner.out.string, unsortedEntities: TDLibEntityOrder.sorted(scanner.entities)))
        }
        return try scanned.get()
    }
}
