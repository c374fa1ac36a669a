import SpoilerCore
import SpoilerTerminal
import SpoilerTestSupport

/// The chunks' texts joined by the line breaks they were cut after (those the reader
/// shows as its separator), with what covers each unit; the units of those line breaks
/// take `whole`'s coverage, since the reader draws no entity over its separator.
func joinedChunks(of document: ChunkedDocument, _ bytes: [UInt8], whole: Message) -> (String, [UInt8]) {
    joinedChunks(of: document, bytes, whole: whole, coverage: entityCoverage)
}

/// ``joinedChunks(of:_:whole:)`` with what covers each unit read by `coverage`.
func joinedChunks<Mark>(
    of document: ChunkedDocument, _ bytes: [UInt8], whole: Message, coverage: (Message) -> [Mark]
) -> (String, [Mark]) {
    let wholeMarks = coverage(whole)
    var text = ""
    var marks: [Mark] = []
    var k = 0
    while let chunk = document.chunk(at: k) {
        text += chunk.message.text
        marks += coverage(chunk.message)
        var end = chunk.bytes.upperBound
        if end > chunk.bytes.lowerBound && bytes[end - 1] == 0x0A {
            end -= 1
            if end > chunk.bytes.lowerBound && bytes[end - 1] == 0x0D { end -= 1 }
        }
        let separator = String(decoding: bytes[end..<chunk.bytes.upperBound], as: UTF8.self)
        let units = separator.utf16.count
        text += separator
        if marks.count + units <= wholeMarks.count {
            marks += wholeMarks[marks.count..<(marks.count + units)]
        }
        k += 1
    }
    return (text, marks)
}
