import SpoilerCore

/// The walk over a message's text that finds its hidden words, shared by the passes that
/// write the page's markup and its word list, so that both find the same words.
///
/// A hidden word is a run of non-blank characters under one spoiler entity (the first of
/// those covering it); it ends at a blank, outside every spoiler, or where another
/// spoiler takes over.
enum HiddenWords {
    /// What the walk finds at one character.
    enum Step {
        /// The spoiler over the text changed (its index among the message's spoilers, or
        /// nil outside all); comes before the step of the character where it changed.
        case spoiler(Int?)
        /// A hidden word starts with this character, at UTF-16 `offset`, under spoiler `spoiler`.
        case wordStart(spoiler: Int, offset: Int, Character)
        /// The current hidden word goes on with this character.
        case wordGoes(Character)
        /// A character that is not hidden (outside every spoiler, or a blank under one).
        case text(offset: Int, Character)
    }

    /// Calls `body` with each step over `message`'s text, in order.
    ///
    /// - Complexity: O(characters + spoilers × depth); holds no copy of the spoilers when
    ///   the entities are in order.
    static func walk(_ message: Message, _ body: (Step) -> Void) {
        var sweep = SpoilerSweep(message)
        var open: Int? = nil
        var inWord = false
        var offset = 0
        for c in message.text {
            let units = c.utf16.count
            defer { offset += units }
            let spoiler = sweep.first(at: offset)
            if spoiler != open {
                open = spoiler
                inWord = false
                body(.spoiler(spoiler))
            }
            if let s = open, !c.unicodeScalars.allSatisfy({ $0.properties.isWhitespace }) {
                if inWord {
                    body(.wordGoes(c))
                } else {
                    inWord = true
                    body(.wordStart(spoiler: s, offset: offset, c))
                }
                continue
            }
            inWord = false
            body(.text(offset: offset, c))
        }
    }
}
