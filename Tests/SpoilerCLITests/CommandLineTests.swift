import Foundation
import SpoilerTestSupport
import Testing

@Suite struct CommandLineTests {
    @Test func versionAndHelp() throws {
        let v = try runSpoiler(["--version"])
        #expect(v.status == 0)
        #expect(v.out.hasPrefix("spoiler "))
        let h = try runSpoiler(["parse", "--help"])
        #expect(h.status == 0)
        #expect(h.out.contains("usage: spoiler parse"))
    }

    @Test func usageErrorsExit2WithAReason() throws {
        let r = try runSpoiler(["parse", "--form", "html"])
        #expect(r.status == 2)
        #expect(r.err.hasPrefix("error: unknown option '--form'; did you mean '--from'?"))
        let u = try runSpoiler(["frobnicate"])
        #expect(u.status == 2)
    }
}
