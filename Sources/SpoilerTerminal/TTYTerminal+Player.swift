extension TTYTerminal {
    /// Plays a message on the controlling terminal until the user quits: sets the
    /// terminal up (raw mode, the alternate screen, the hidden cursor, mouse reports when
    /// ``PlayerOptions/mouse``), runs a ``Player`` on it with the system clock, and
    /// restores the terminal however the run ends. A terminating signal (SIGINT, SIGTERM,
    /// SIGHUP) is raised again once the terminal is restored, so the parent sees it; the
    /// process then does not return from this call. That is at once even while the player is
    /// busy between two waits (End laying out a large document for a second): the signal's
    /// handler then restores the terminal itself (``TTYTerminal``).
    ///
    /// - Parameters:
    ///   - options: the player's options.
    ///   - layout: makes the layout for the terminal's size (called again on resize).
    ///   - scene: makes the scene for a layout.
    /// - Returns: how the run ended (``PlayerExit/quit`` or ``PlayerExit/endOfInput``).
    /// - Throws: ``TerminalError/notATerminal`` when standard output is not a terminal,
    ///   or the error of a system call.
    @discardableResult
    public static func runPlayer(
        options: PlayerOptions, layout: @escaping Player.LayoutMaker, scene: @escaping Player.SceneMaker
    ) throws(TerminalError) -> PlayerExit {
        try runPlayer(options: options) { size, viewOptions in
            SpoilerTerminalView(size: size, options: viewOptions, layout: layout, scene: scene)
        }
    }

    /// Plays the view that `view` makes for the terminal's size and the player's view
    /// options (``PlayerOptions/view``) on the controlling terminal, as
    /// ``runPlayer(options:layout:scene:)`` does.
    ///
    /// - Returns: how the run ended.
    /// - Throws: as ``runPlayer(options:layout:scene:)``.
    @discardableResult
    public static func runPlayer(
        options: PlayerOptions, view: (TerminalSize, SpoilerTerminalView.Options) -> SpoilerTerminalView
    ) throws(TerminalError) -> PlayerExit {
        let tty = try TTYTerminal()
        let player = Player(options: options, view: view(try tty.size(), options.view))
        try tty.start(mouse: options.mouse)
        defer { tty.restore() }
        let exit = try player.run(on: tty, clock: SystemClock())
        if case .signal(let signo) = exit { tty.reraise(signo) }
        return exit
    }
}
