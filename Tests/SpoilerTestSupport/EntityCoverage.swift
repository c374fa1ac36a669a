import SpoilerCore

/// Per UTF-16 unit of `message`'s text, which entities cover it: bit 0 a spoiler, bit 1
/// code, bit 2 any other kind. Two messages hide and show the same parts of the same text
/// when their texts and coverages are equal, however their entities are split.
public func entityCoverage(_ message: Message) -> [UInt8] {
    var marks = [UInt8](repeating: 0, count: message.text.utf16.count)
    for e in message.entities {
        let bit: UInt8 = e.type == .spoiler ? 1 : e.type == .code ? 2 : 4
        for k in max(0, e.offset)..<min(marks.count, e.offset + e.length) { marks[k] |= bit }
    }
    return marks
}
