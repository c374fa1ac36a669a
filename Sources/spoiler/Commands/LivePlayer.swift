import SpoilerTerminal

/// Runs the live ``Player`` for `play` and `read` on the controlling terminal.
enum LivePlayer {
    /// Sets the terminal up (raw mode, alternate screen, mouse when `options.mouse`), runs
    /// the player until the user quits, and restores the terminal; a terminating signal is
    /// raised again once the terminal is restored.
    static func run(
        options: PlayerOptions, layout: @escaping Player.LayoutMaker, scene: @escaping Player.SceneMaker
    ) throws(CommandLineError) {
        do {
            let tty = try TTYTerminal()
            let player = Player(size: try tty.size(), options: options, layout: layout, scene: scene)
            try tty.start(mouse: options.mouse)
            defer { tty.restore() }
            let exit = try player.run(on: tty, clock: SystemClock())
            if case .signal(let signo) = exit { tty.reraise(signo) }
        } catch {
            throw .failure(error.description)
        }
    }
}
