public import SpoilerCore

/// Something a writer had to leave out because the output format cannot say it.
///
/// Today the one case is a spoiler's reason (``Entity/reason``): Matrix carries it
/// (`data-mx-spoiler="…"`) and Discord writes it before the spoiler (`(reason) ||text||`),
/// every other format drops it, and the warning tells the user so.
public struct SerializationWarning: Sendable, Hashable, CustomStringConvertible {
    /// Index of the entity in the message's `entities`.
    public var entityIndex: Int
    /// The reason that was dropped.
    public var reason: String
    /// The format that could not carry it.
    public var format: OutputFormat

    /// Creates a warning for the reason of entity `entityIndex`, dropped by `format`.
    public init(entityIndex: Int, reason: String, format: OutputFormat) {
        self.entityIndex = entityIndex
        self.reason = reason
        self.format = format
    }

    /// One sentence: `entity 2 (spoiler): reason "the ending" dropped: slack cannot carry it`.
    public var description: String {
        var quoted = ""
        for scalar in reason.unicodeScalars {
            // A reason is shown on a terminal: no control character goes out raw.
            if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) {
                quoted += "\\u{" + String(scalar.value, radix: 16) + "}"
            } else {
                quoted.unicodeScalars.append(scalar)
            }
        }
        return "entity \(entityIndex) (spoiler): reason \"\(quoted)\" dropped: \(format.rawValue) cannot carry it"
    }

    /// The warnings for every spoiler reason in `message`, for a `format` that carries none.
    public static func droppedReasons(in message: Message, format: OutputFormat) -> [SerializationWarning] {
        var warnings: [SerializationWarning] = []
        for (index, e) in message.entities.enumerated() where e.type == .spoiler {
            if let reason = e.reason, !reason.isEmpty {
                warnings.append(SerializationWarning(entityIndex: index, reason: reason, format: format))
            }
        }
        return warnings
    }
}

/// A message written out in one ``OutputFormat``, with what could not be said.
public struct SerializedMessage: Sendable, Hashable {
    /// The output: markup, plain text, or a JSON document (Matrix, Signal, `json`).
    public var output: String
    /// What was left out; empty when the format said everything it was asked to.
    public var warnings: [SerializationWarning]

    /// Creates the result of one serialization.
    public init(output: String, warnings: [SerializationWarning] = []) {
        self.output = output
        self.warnings = warnings
    }
}

/// How a message is written (`--to` options).
public struct SerializationOptions: Sendable, Hashable {
    /// How `preview` and `slack` mask spoilers, and where a preview is cut.
    public var preview: PreviewOptions

    /// Creates options; the defaults are those of the command line.
    public init(preview: PreviewOptions = PreviewOptions()) {
        self.preview = preview
    }
}

/// How a message is read (`--from` options).
public struct ParseOptions: Sendable, Hashable {
    /// Read `||reason|text||` as a spoiler of `text` whose reason is `reason` (`discord` and
    /// `plain`; `--spoiler-reasons`), as Matrix clients such as FluffyChat and Nheko and
    /// mautrix-python write a reason in Markdown. Off by default, since a `|` in a spoiler
    /// is ordinary text on Discord and Telegram.
    public var spoilerReasons: Bool

    /// Creates options; the defaults are those of the command line.
    public init(spoilerReasons: Bool = false) {
        self.spoilerReasons = spoilerReasons
    }
}
