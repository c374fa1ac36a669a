import SpoilerTerminal
import SpoilerTestSupport

/// A scripted terminal that notes the clock time of each write.
final class TimedTerminal: TerminalDevice {
    let inner: ScriptedTerminal
    private(set) var writes: [(time: Double, bytes: [UInt8])] = []
    var times: [Double] { writes.map(\.time) }

    init(_ inner: ScriptedTerminal) { self.inner = inner }

    func size() throws(TerminalError) -> TerminalSize { try inner.size() }
    func write(_ bytes: [UInt8]) throws(TerminalError) {
        writes.append((inner.clock.now(), bytes))
        try inner.write(bytes)
    }
    func suspend() throws(TerminalError) { try inner.suspend() }
    func waitForEvents(timeout: Double?) throws(TerminalError) -> [DeviceEvent] {
        try inner.waitForEvents(timeout: timeout)
    }

    /// The number of the first line on the screen ("line NN") after each write, with its time.
    func firstLines(size: TerminalSize) -> [(time: Double, row: Int)] {
        var screen = ANSIScreen(width: size.columns, height: size.rows)
        var result: [(time: Double, row: Int)] = []
        for w in writes {
            screen.apply(w.bytes)
            let line = screen.lines[0]
            if let r = line.range(of: "line "), let n = Int(line[r.upperBound...].prefix(2)) {
                result.append((w.time, n))
            }
        }
        return result
    }
}
