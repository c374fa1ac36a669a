/// A terminal for tests: plays a script of timed events against a ``ManualClock`` and
/// collects everything written.
///
/// `waitForEvents(timeout:)` moves the clock to the next scripted event if it comes
/// within the timeout (and returns it), else by the timeout (and returns nothing). When
/// the script is over and no timeout is given, it returns ``DeviceEvent/endOfInput``.
public final class ScriptedTerminal: TerminalDevice {
    /// The clock the script runs on: waiting for events advances it, and the player under test
    /// should read its time from it.
    public let clock: ManualClock
    /// The size ``size()`` reports. To test a resize, change it and script a
    /// ``DeviceEvent/resized`` event, which is how a player learns of it.
    public var currentSize: TerminalSize
    /// Every byte written, in order.
    public private(set) var output: [UInt8] = []
    /// Each `write` call's bytes, in order.
    public private(set) var writes: [[UInt8]] = []
    /// How many times the player waited.
    public private(set) var waits = 0
    /// How many times the player suspended the program.
    public private(set) var suspensions = 0
    private var script: [(time: Double, event: DeviceEvent)]

    /// - Parameter script: events and the clock times (seconds) they arrive at, in order.
    public init(size: TerminalSize, clock: ManualClock = ManualClock(), script: [(Double, DeviceEvent)]) {
        currentSize = size
        self.clock = clock
        self.script = script.map { (time: $0.0, event: $0.1) }
    }

    public func size() throws(TerminalError) -> TerminalSize { currentSize }

    public func write(_ bytes: [UInt8]) throws(TerminalError) {
        output.append(contentsOf: bytes)
        writes.append(bytes)
    }

    public func suspend() throws(TerminalError) { suspensions += 1 }

    public func waitForEvents(timeout: Double?) throws(TerminalError) -> [DeviceEvent] {
        waits += 1
        guard let first = script.first else {
            if let timeout {
                clock.advance(by: timeout)
                return []
            }
            return [.endOfInput]
        }
        if let timeout, first.time > clock.now() + timeout {
            clock.advance(by: timeout)
            return []
        }
        clock.advance(to: first.time)
        var events: [DeviceEvent] = []
        while let next = script.first, next.time <= clock.now() {
            events.append(next.event)
            script.removeFirst()
        }
        return events
    }
}
