import SpoilerCore

/// The spoilers that cover each point of a text, for points visited in increasing order:
/// an ``EntitySweep`` over a message's spoiler entities.
struct SpoilerSweep {
    private var sweep: EntitySweep

    /// A sweep over `message`'s spoilers, before any point.
    init(_ message: Message) {
        sweep = EntitySweep(message.entities) { $0 == .spoiler }
    }

    /// Moves to `point` (never less than the point before) and gives the first of the
    /// spoilers covering it, as its index among the message's spoilers, or nil.
    mutating func first(at point: Int) -> Int? {
        sweep.move(to: point)
        return sweep.active.first?.ordinal
    }
}
