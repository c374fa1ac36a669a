import SpoilerCore
import Testing

@testable import SpoilerParser

/// The room the plain parser reserves for a long input's entities
/// (``PlainScanner/entityBound(_:)``): never less than it makes, and not grown by doubling.
@Suite struct PlainScannerTests {
    /// Every string of up to seven characters over `a | \ `` ` (and each of them after
    /// eight ordinary bytes, so that the eight-byte skip is crossed too).
    @Test func theBoundIsNeverBelowTheEntitiesMade() throws {
        let alphabet: [UInt8] = Array("a|\\`".utf8)
        var failures: [String] = []
        var input: [UInt8] = []
        func visit(_ length: Int) throws {
            for prefix in [[], Array("12345678".utf8)] {
                let bytes = prefix + input
                let made = try PlainParser.parse(bytes).entities.count
                let bound = bytes.withUnsafeBufferPointer { PlainScanner.entityBound($0) }
                if bound < made { failures.append("\(String(decoding: bytes, as: UTF8.self)): \(bound) < \(made)") }
            }
            guard length > 0 else { return }
            for b in alphabet {
                input.append(b)
                try visit(length - 1)
                input.removeLast()
            }
        }
        try visit(7)
        #expect(failures.isEmpty, "\(failures.count) inputs, first: \(failures.first ?? "")")
    }

    /// A long input's entities fill the room reserved for them (inputs where the bound is
    /// exact), where doubling would have left 20,000 spoilers in room for 32,768.
    @Test(arguments: ["||ab|| ", "`a` ", "||a|| `b` "])
    func longInputsReserveTheirEntitiesRoom(unit: String) throws {
        let message = try PlainParser.parse(Array(String(repeating: unit, count: 20_000).utf8))
        let entities = message.entities
        #expect(entities.count >= 10_000)
        #expect(entities.capacity <= entities.count + entities.count / 16, "capacity \(entities.capacity)")
    }
}
