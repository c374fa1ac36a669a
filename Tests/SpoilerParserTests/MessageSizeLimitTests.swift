import SpoilerCore
import Testing

@testable import SpoilerParser

/// An input whose text an entity could not address is refused before it is read.
@Suite struct MessageSizeLimitTests {
    @Test func aMessageOfMoreBytesThanAnEntityCountsIsRefused() throws {
        #expect(throws: Never.self) { try MessageParser.checkSize(Entity.maxUTF16Offset) }
        let error = #expect(throws: ParseError.self) { try MessageParser.checkSize(Entity.maxUTF16Offset + 1) }
        #expect(error?.reason.contains("2147483648 bytes") == true)
        #expect(error?.reason.contains("at most 2147483647") == true)
    }
}
