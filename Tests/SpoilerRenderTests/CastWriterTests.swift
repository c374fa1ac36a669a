import SpoilerCore
import SpoilerRender
import Testing

@Suite struct CastWriterTests {
    @Test func writesAHeaderAndOrderedEvents() {
        var cast = AsciicastWriter(width: 20, height: 3)
        cast.output(at: 0, Array("\u{1B}[?2026hhi\"\\".utf8))
        cast.output(at: 0.5, [])
        cast.output(at: 0.5, Array("y".utf8))
        cast.output(at: 0.25, Array("x".utf8))
        let lines = String(decoding: cast.bytes, as: UTF8.self).split(separator: "\n")
        #expect(lines.count == 4)
        #expect(lines[0] == #"{"version":2,"width":20,"height":3,"env":{"TERM":"xterm-256color"}}"#)
        #expect(lines[1] == #"[0,"o","\u001b[?2026hhi\"\\"]"#)
        #expect(lines[2] == #"[0.5,"o","y"]"#)
        #expect(lines[3] == #"[0.5,"o","x"]"#, "an earlier time is raised to the previous one")
    }
}
