import SpoilerLayout
import Testing

/// The layout goldens under Fixtures/ (and the width tables they pin) were recorded with
/// Debian bookworm's utf8proc 2.8.0, whose tables are Unicode 15.0.0. Another version may
/// change widths of new emoji or scripts; this test says so first, by name, instead of a
/// dozen golden diffs. Re-record the goldens on purpose (SPOILER_RECORD_FIXTURES=1) and
/// update the versions here and in Fixtures/fonts/README.md.
@Suite struct UnicodeDataTests {
    @Test func goldensAssumeUTF8Proc280() {
        #expect(UnicodeData.utf8procVersion == "2.8.0")
        #expect(UnicodeData.unicodeVersion == "15.0.0")
    }
}
