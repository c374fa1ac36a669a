import SpoilerCore
import SpoilerLayout
import SpoilerTestSupport
import Testing

/// Golden files: the sample messages laid out in `mono` and with each font format.
@Suite struct GoldenLayoutTests {
    @Test func mono() throws {
        expectMatchesFixture(try LayoutFixtures.dump(LayoutEngine()), "layout/mono.txt")
    }

    @Test func monoWrappedAt12Columns() throws {
        expectMatchesFixture(try LayoutFixtures.dump(LayoutEngine(wrapWidth: 12)), "layout/mono-wrap12.txt")
    }

    @Test func monoWithTenByTwentyCells() throws {
        let engine = LayoutEngine(model: .mono(cellWidth: 10, cellHeight: 20), wrapWidth: 20)
        expectMatchesFixture(try LayoutFixtures.dump(engine), "layout/mono-cell10x20-wrap20.txt")
    }

    @Test func bdf() throws {
        let font = try BitmapFont.parse(LayoutFixtures.fixtureBytes("tiny.bdf"), file: "tiny.bdf")
        expectMatchesFixture(
            try LayoutFixtures.dump(LayoutEngine(model: .font(font), wrapWidth: 90)), "layout/bdf-tiny-wrap90.txt")
    }

    @Test func psf1() throws {
        let font = try BitmapFont.parse(
            LayoutFixtures.systemBytes(LayoutFixtures.unifontPSF), file: LayoutFixtures.unifontPSF)
        expectMatchesFixture(try LayoutFixtures.dump(LayoutEngine(model: .font(font))), "layout/psf1-unifont-apl.txt")
    }

    @Test func psf2() throws {
        let font = try BitmapFont.parse(
            LayoutFixtures.systemBytes(LayoutFixtures.terminusPSF2), file: LayoutFixtures.terminusPSF2)
        expectMatchesFixture(
            try LayoutFixtures.dump(LayoutEngine(model: .font(font), wrapWidth: 120)),
            "layout/psf2-terminus12x6-wrap120.txt")
    }

    @Test func hex() throws {
        let font = try BitmapFont.parse(
            LayoutFixtures.systemBytes(LayoutFixtures.unifontHex), file: LayoutFixtures.unifontHex)
        expectMatchesFixture(
            try LayoutFixtures.dump(LayoutEngine(model: .font(font), wrapWidth: 160)), "layout/hex-unifont-wrap160.txt")
    }

    @Test func gzippedHex() throws {
        let font = try BitmapFont.parse(LayoutFixtures.fixtureBytes("subset.hex.gz"), file: "subset.hex.gz")
        expectMatchesFixture(try LayoutFixtures.dump(LayoutEngine(model: .font(font))), "layout/hex-gz-subset.txt")
    }
}
