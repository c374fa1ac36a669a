import Glibc
import SpoilerCore
import SpoilerRender
import SpoilerTerminal
import Testing

/// The player lays a long message out on a thread of its own (End on a message of
/// megabytes), answering keys meanwhile, and shows the layout once it is made.
@Suite struct PlayerBackgroundLayoutTests {
    /// A terminal that waits in real time: End first, then Page Up while the layout is
    /// being made; once it is made, End again and `q` (or `q` after 120 s).
    final class Device: TerminalDevice {
        weak var player: Player?
        var step = 0
        let start = SystemClock().now()
        /// The first row on the screen while the layout was being made, before and after
        /// Page Up; and the first row once the end came.
        var whileWaiting: [Int] = []
        var atEnd: Int?
        var afterLayout: Int?
        var pendingAtPageUp = false

        func size() throws(TerminalError) -> TerminalSize { PrefixLayoutTests.size }
        func write(_ bytes: [UInt8]) throws(TerminalError) {}
        func suspend() throws(TerminalError) {}
        func waitForEvents(timeout: Double?) throws(TerminalError) -> [DeviceEvent] {
            usleep(UInt32(min(timeout ?? 0.05, 0.05) * 1_000_000))
            guard let player else { return [] }
            step += 1
            switch step {
            case 1: return [.input(Array("\u{1B}[F".utf8))]  // End
            case 2:
                whileWaiting.append(player.firstVisibleRow)
                pendingAtPageUp = player.view.prefixLayoutRequest != nil
                return [.input(Array("\u{1B}[5~".utf8))]  // Page Up
            case 3:
                whileWaiting.append(player.firstVisibleRow)
                return []
            default:
                if atEnd == nil, player.view.prefixLayoutRequest == nil {
                    // The layout came: the screen stayed where Page Up took it; End now
                    // goes to the end of the whole message.
                    afterLayout = player.firstVisibleRow
                    atEnd = -1
                    return [.input(Array("\u{1B}[F".utf8))]
                }
                if atEnd == -1 {
                    atEnd = player.firstVisibleRow
                    return [.input(Array("q".utf8))]
                }
                if SystemClock().now() - start > 120 { return [.input(Array("q".utf8))] }
                return []
            }
        }
    }

    @Test func endIsLaidOutOffTheLoopAndKeysWorkMeanwhile() throws {
        var view = PrefixLayoutTests.lazy()
        view.backgroundPrefixBytes = 16_384
        let player = Player(options: PlayerOptions(frame: ANSIFrameOptions(capability: .none)), view: view)
        let device = Device()
        device.player = player
        #expect(try player.run(on: device, clock: SystemClock()) == .quit)
        var eager = PrefixLayoutTests.eager()
        eager.key(.end, at: 0)
        _ = eager.frame(at: 0)
        #expect(device.pendingAtPageUp)
        #expect(device.whileWaiting.count == 2 && device.whileWaiting[1] < device.whileWaiting[0])
        #expect(device.afterLayout == device.whileWaiting.last)
        #expect(device.atEnd == eager.firstVisibleRow)
        #expect(PrefixLayoutTests.rows(player.lastFrame).last?.hasSuffix(" end") == true)
    }
}
