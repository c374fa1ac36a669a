/// A key the player understands, decoded from the bytes a terminal sends.
public enum TerminalKey: Sendable, Hashable {
    case up, down, left, right, home, end, pageUp, pageDown, delete
    /// Tab (`HT`) and Shift-Tab (`CSI Z`).
    case tab, backTab
    /// Return or Enter (`CR`, or `LF`).
    case enter
    /// A lone Escape.
    case escape
    /// `DEL` or `BS`.
    case backspace
    /// A control key: Ctrl-C is `.control("c")`.
    case control(Character)
    /// A printable character.
    case character(Character)
}

/// A mouse event in SGR (mode 1006) form.
public struct MouseEvent: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        case press, release, drag, wheelUp, wheelDown
    }
    public var kind: Kind
    /// 0 left, 1 middle, 2 right (for press, release and drag).
    public var button: Int
    /// The cell, 0-based, from the top-left corner.
    public var column: Int
    public var row: Int

    public init(kind: Kind, button: Int, column: Int, row: Int) {
        self.kind = kind
        self.button = button
        self.column = column
        self.row = row
    }
}

/// One input event.
public enum InputEvent: Sendable, Hashable {
    case key(TerminalKey)
    case mouse(MouseEvent)
    /// The terminal window gained (true) or lost (false) focus (xterm mode 1004:
    /// `CSI I`, `CSI O`).
    case focus(Bool)
    /// A well-formed sequence the decoder does not know (focus reports, F-keys, …),
    /// or bytes that are not UTF-8.
    case unknown
}
