import SpoilerTerminal

/// Runs the live ``Player`` for `play` and `read` on the controlling terminal.
enum LivePlayer {
    /// ``TTYTerminal/runPlayer(options:layout:scene:)``, its errors as the command's.
    static func run(
        options: PlayerOptions, layout: @escaping Player.LayoutMaker, scene: @escaping Player.SceneMaker
    ) throws(CommandLineError) {
        do {
            try TTYTerminal.runPlayer(options: options, layout: layout, scene: scene)
        } catch {
            throw .failure(error.description)
        }
    }
}
