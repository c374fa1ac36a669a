public import SpoilerCore

/// A preset file that could not be read: bad JSON, or a field with a wrong value.
///
/// Printed as `line L, column C: field 'emitterCells[0].velocity': expected a number`.
public struct PresetError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What was wrong.
    public var reason: String
    /// The field's path (`emitterCells[0].velocity`), or "" for the document itself.
    public var field: String
    /// Where: byte offset, line and column (1-based, the column in bytes).
    public var position: TextPosition

    /// An error from its parts.
    public init(reason: String, field: String, position: TextPosition) {
        self.reason = reason
        self.field = field
        self.position = position
    }

    /// `line L, column C: field 'F': reason`.
    public var description: String {
        let place = "line \(position.line), column \(position.column)"
        return field.isEmpty ? "\(place): \(reason)" : "\(place): field '\(field)': \(reason)"
    }

    /// The error in compiler form for the file called `name`, the position said once:
    /// `name:L:C: field 'F': reason`.
    ///
    /// - Parameter name: The preset file's path.
    /// - Returns: One line of text, without a final newline.
    public func located(in name: String) -> String {
        let place = "\(name):\(position.line):\(position.column)"
        return field.isEmpty ? "\(place): \(reason)" : "\(place): field '\(field)': \(reason)"
    }
}
