/// A key the player understands, decoded from the bytes a terminal sends.
public enum TerminalKey: Sendable, Hashable {
    /// The arrow keys (`CSI A` … `CSI D`), Home and End (`CSI H`, `CSI F`, `CSI 1 ~`, `CSI 4 ~`, …),
    /// Page Up (`CSI 5 ~`), Page Down (`CSI 6 ~`) and Delete, the forward one (`CSI 3 ~`).
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
    /// What the mouse did.
    public enum Kind: Sendable, Hashable {
        /// A button went down (`press`), came up (`release`), or moved while held (`drag`); or
        /// the wheel turned one step up (`wheelUp`, away from the user) or down (`wheelDown`).
        case press, release, drag, wheelUp, wheelDown
    }
    /// What happened: a press, release, drag or wheel step.
    public var kind: Kind
    /// 0 left, 1 middle, 2 right (for press, release and drag).
    public var button: Int
    /// The cell, 0-based, from the top-left corner.
    public var column: Int
    /// The cell's row, 0-based, from the top (the column is ``column``).
    public var row: Int

    /// An event of `kind` with `button` (0 left, 1 middle, 2 right) at the 0-based cell
    /// `column`, `row`.
    public init(kind: Kind, button: Int, column: Int, row: Int) {
        self.kind = kind
        self.button = button
        self.column = column
        self.row = row
    }
}

/// One input event.
public enum InputEvent: Sendable, Hashable {
    /// A key was pressed.
    case key(TerminalKey)
    /// The mouse was pressed, released, dragged or its wheel turned (mouse reporting must be
    /// on: ``TerminalModes/enableMouse``).
    case mouse(MouseEvent)
    /// The terminal window gained (true) or lost (false) focus (xterm mode 1004:
    /// `CSI I`, `CSI O`).
    case focus(Bool)
    /// A well-formed sequence the decoder does not know (focus reports, F-keys, …),
    /// or bytes that are not UTF-8.
    case unknown
}
