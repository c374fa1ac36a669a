import Glibc
import SpoilerTerminal

/// Runs the live ``Player`` for `play` and `read` on the controlling terminal.
enum LivePlayer {
    /// ``TTYTerminal/runPlayer(options:layout:scene:)``, its errors as the command's.
    static func run(
        options: PlayerOptions, layout: @escaping Player.LayoutMaker, scene: @escaping Player.SceneMaker
    ) throws(CommandLineError) {
        // Named now: once the terminal hangs up, its path can no longer be found.
        let name = terminalName()
        do {
            try TTYTerminal.runPlayer(options: options, layout: layout, scene: scene)
        } catch {
            throw .failure("\(name): \(error.description)")
        }
    }

    /// ``TTYTerminal/runPlayer(options:view:)``, its errors as the command's.
    static func run(
        options: PlayerOptions, view: (TerminalSize, SpoilerTerminalView.Options) -> SpoilerTerminalView
    ) throws(CommandLineError) {
        let name = terminalName()
        do {
            try TTYTerminal.runPlayer(options: options, view: view)
        } catch {
            throw .failure("\(name): \(error.description)")
        }
    }

    /// The terminal's device path (`/dev/pts/3`), or `<stdout>`, for error messages.
    static func terminalName() -> String {
        guard let name = ttyname(1) else { return "<stdout>" }
        return String(cString: name)
    }
}
