import Glibc
import SpoilerTerminal
import Testing

@Suite struct TerminalErrorTests {
    @Test func aFailedCallThrowsItsNameAndErrno() {
        #expect(throws: TerminalError.system(call: "close", errno: EBADF)) {
            try systemCall("close") { close(-1) }
        }
        #expect(
            TerminalError.system(call: "tcsetattr", errno: EIO).description == "tcsetattr: Input/output error (errno 5)"
        )
    }

    @Test func eintrIsRetried() throws {
        var calls = 0
        let result = try systemCall("read") { () -> Int in
            calls += 1
            if calls < 3 {
                errno = EINTR
                return -1
            }
            return 7
        }
        #expect(result == 7 && calls == 3)
    }

    @Test func anOutputThatIsNotATerminalIsRefused() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer {
            close(fds[0])
            close(fds[1])
        }
        #expect(throws: TerminalError.notATerminal) { try TTYTerminal(outputFD: fds[1]) }
    }
}
