import Foundation
import SpoilerTestSupport
import Testing

/// `--line-buffered`: `spoiler` as a coprocess, answering each line before its input ends.
@Suite struct LineBufferedTests {
    /// A running `spoiler` with a pipe at each end.
    final class Coprocess {
        let process = Process()
        let input = Pipe()
        let output = Pipe()
        private var pending: [UInt8] = []

        init(_ arguments: [String]) throws {
            process.executableURL = spoilerBinary()
            process.arguments = arguments
            process.environment = ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"]
            process.standardInput = input
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
        }

        func send(_ line: String) throws {
            try input.fileHandleForWriting.write(contentsOf: Data((line + "\n").utf8))
        }

        /// The next output line, or nil if none comes within `timeout` seconds.
        func receive(timeout: Double = 20) -> String? {
            let fd = output.fileHandleForReading.fileDescriptor
            let deadline = Date().addingTimeInterval(timeout)
            while true {
                if let nl = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = String(decoding: pending[..<nl], as: UTF8.self)
                    pending.removeSubrange(...nl)
                    return line
                }
                let left = deadline.timeIntervalSinceNow
                if left <= 0 { return nil }
                var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                if poll(&p, 1, Int32(left * 1000) + 1) <= 0 { continue }
                var buffer = [UInt8](repeating: 0, count: 65_536)
                let n = read(fd, &buffer, buffer.count)
                if n <= 0 { return nil }
                pending += buffer[..<n]
            }
        }

        /// Closes standard input and waits for the exit status (killing it after `timeout`).
        func finish(timeout: Double = 20) -> Int32 {
            try? input.fileHandleForWriting.close()
            let deadline = Date().addingTimeInterval(timeout)
            while process.isRunning && Date() < deadline { usleep(10_000) }
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
            return process.terminationStatus
        }
    }

    static let commands: [[String]] = [
        ["parse"], ["convert", "--to", "html"], ["convert", "--from", "markdown", "--to", "html"],
        ["layout"], ["parse", "--jobs", "2"],
    ]

    @Test(arguments: commands)
    func eachLineIsAnsweredBeforeTheInputEnds(_ command: [String]) throws {
        let co = try Coprocess(command + ["--ndjson", "--line-buffered"])
        try co.send(#"{"id":"first","text":"a ||b||"}"#)
        let first = co.receive()
        #expect(first?.hasPrefix(#"{"id":"first","#) == true, "\(first ?? "no answer")")
        try co.send("not json")
        let second = co.receive()
        #expect(second?.hasPrefix(#"{"id":null,"line":2,"error":"#) == true, "\(second ?? "no answer")")
        try co.send(#""c""#)
        let third = co.receive()
        #expect(third?.hasPrefix(#"{"id":3,"#) == true, "\(third ?? "no answer")")
        #expect(co.finish() == 1)
    }

    @Test func anExportIsLineBufferedToo() throws {
        let co = try Coprocess(["parse", "--from", "export", "--line-buffered", "--errors-as-records"])
        try co.send(#"{"name":"C","type":"personal_chat","id":1,"messages":[{"id":5,"type":"message","text":"a"},"#)
        let first = co.receive()
        #expect(first?.hasPrefix(#"{"id":5,"#) == true, "\(first ?? "no answer")")
        try co.send(#"{"id":6,"type":"message","text":"b"}]}"#)
        #expect(co.finish() == 0)
    }
}
