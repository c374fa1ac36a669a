public import SpoilerCore

extension ParseError {
    /// This error as it reads for a larger input of which the parsed bytes were a part: its
    /// ``position`` becomes `position`, and where its ``reason`` names the byte it was at
    /// (TDLib words it so: "… at byte offset N", at the end or mid-sentence, as in
    /// "Unmatched end tag at byte offset 5, expected …"), the reason names `position`'s
    /// byte instead. A reader that parses a file a chunk at a time moves each chunk's
    /// error to its place in the file.
    ///
    /// ```swift
    /// let chunk = Array("a </b> b".utf8)
    /// let error = ParseError(.syntax, "Unexpected end tag at byte offset 2", position: TextPosition(utf8Offset: 2, in: chunk))
    /// let moved = error.moved(to: TextPosition(utf8Offset: 1002, utf16Offset: 1002, line: 40, column: 3))
    /// // moved.reason == "Unexpected end tag at byte offset 1002", moved.position?.line == 40
    /// ```
    ///
    /// An error with no position gets `position`, its reason unchanged; so does one whose
    /// reason names no byte offset, or another one than its position's.
    public func moved(to position: TextPosition) -> ParseError {
        var moved = self
        moved.position = position
        guard let old = self.position?.utf8Offset else { return moved }
        let said = Array(" at byte offset \(old)".utf8)
        let reason = Array(self.reason.utf8)
        var k = 0
        while k + said.count <= reason.count {
            let end = k + said.count
            // The same number, not the start of a longer one.
            if reason[k..<end].elementsEqual(said) && (end == reason.count || !(0x30...0x39).contains(reason[end])) {
                let replaced = reason[..<k] + Array(" at byte offset \(position.utf8Offset)".utf8) + reason[end...]
                moved.reason = String(decoding: replaced, as: UTF8.self)
                break
            }
            k += 1
        }
        return moved
    }
}
