import SpoilerCore
import SpoilerEffect
import SpoilerTestSupport
import Testing

@Suite struct PresetTests {
    @Test(arguments: Preset.builtInNames)
    func builtInPresetsRoundTripThroughJSON(name: String) throws {
        let preset = try #require(Preset.builtIn[name])
        let parsed = try Preset.parse(json: Array(preset.json.utf8))
        #expect(parsed.name == preset.name)
        #expect(parsed.confinement == preset.confinement)
        #expect(parsed.inset == preset.inset)
        #expect(parsed.emitter.emitterShape == preset.emitter.emitterShape)
        #expect(parsed.emitter.emitterCells.count == preset.emitter.emitterCells.count)
        for (a, b) in zip(parsed.emitter.emitterCells, preset.emitter.emitterCells) {
            #expect(a.color == b.color && a.contents == b.contents && a.alphaOverLife == b.alphaOverLife)
            #expect(abs(a.emissionRange - b.emissionRange) < 1e-6 && a.velocityRange == b.velocityRange)
        }
    }

    /// A file's numbers are read to the six decimals `json` writes, so what is read back from
    /// a preset's JSON is that preset exactly (the fuzzer found 6.2831851 read back as 6.283185).
    @Test func aPresetReadFromAFileReadsBackFromItsJSONExactly() throws {
        let file = #"""
            {"birthRate":0.1234567,"emitterCells":[{"emissionRange":6.2831851,"velocity":-0.00000049,
             "scale":123.4567891,"alphaOverLife":[0.3333333333,-9.9999999,0.0000007]}]}
            """#
        let p = try Preset.parse(json: Array(file.utf8))
        #expect(try Preset.parse(json: Array(p.json.utf8)) == p)
        let c = p.emitter.emitterCells[0]
        #expect(c.emissionRange == 6.283185 && c.velocity == 0 && c.scale == 123.456789)
        #expect(c.alphaOverLife == [0.333333, -10, 0.000001] && p.emitter.birthRate == 0.123457)
    }

    /// The fuzzer's preset (Fixtures/fuzz/preset) reads back from its JSON the same.
    @Test func theFuzzersPresetReadsBackTheSame() throws {
        let p = try Preset.parse(json: [UInt8](try fixtureData("fuzz/preset/seven-decimals.json")))
        #expect(try Preset.parse(json: Array(p.json.utf8)) == p)
    }

    @Test func dustHasTelegramsNumbers() {
        let cell = Preset.dust.emitter.emitterCells[0]
        #expect(cell.lifetime == 1 && cell.velocity == 0 && cell.velocityRange == 20)
        #expect(abs(cell.emissionRange - 2 * Double.pi) < 1e-12)
        #expect(cell.birthRate == 20 && cell.contentsSize * cell.scale == 1)
        #expect(Preset.dust.inset == 1 && Preset.dust.confinement == .bounce)
    }

    @Test func confettiHasTheSpecValues() {
        let e = Preset.confetti.emitter
        #expect(e.emitterShape == .line)
        #expect(e.emitterCells.count == 3)
        for c in e.emitterCells {
            #expect(c.birthRate == 3 && c.lifetime == 7 && c.velocity == 200 && c.velocityRange == 50)
            #expect(c.emissionLongitude == Double.pi && c.emissionRange == Double.pi / 4)
            #expect(c.spin == 2 && c.spinRange == 3 && c.scaleRange == 0.5 && c.scaleSpeed == -0.05)
        }
    }

    @Test func aMinimalFileKeepsCoreAnimationDefaults() throws {
        let p = try Preset.parse(
            json: Array(#"{"emitterShape":"circle","emitterMode":"volume","emitterCells":[{"birthRate":5}]}"#.utf8))
        #expect(p.emitter.emitterShape == .circle && p.emitter.emitterMode == .surface)
        let c = p.emitter.emitterCells[0]
        #expect(c.birthRate == 5 && c.lifetime == 0 && c.scale == 1 && c.alpha == 1)
        #expect(c.color == RGBColor(red: 255, green: 255, blue: 255) && c.contents == .dot)
    }

    @Test(arguments: [
        (
            "{\n  \"emitterCells\": [\n    {\"velocity\": \"fast\"}\n  ]\n}", 3, 6, "emitterCells[0].velocity",
            "expected a number"
        ),
        ("{\"emitterCells\": [{\"velocty\": 3}]}", 1, 20, "emitterCells[0].velocty", "did you mean 'velocity'?"),
        ("{\"emitterShape\": \"hexagon\", \"emitterCells\": []}", 1, 2, "emitterShape", "expected one of"),
        ("{\"emitterCells\": [{}, {\"alpha\": 2}]}", 1, 24, "emitterCells[1].alpha", "out of range"),
        ("{\"emitterCells\": [{\"color\": \"red\"}]}", 1, 20, "emitterCells[0].color", "#rrggbb"),
        ("{\"birthRate\": 1}", 1, 1, "", "needs 'emitterCells'"),
        ("{\"emitterCells\": [\n}", 2, 1, "", "expected"),
    ])
    func errorsNameLineColumnAndField(json: String, line: Int, column: Int, field: String, reason: String) {
        do {
            _ = try Preset.parse(json: Array(json.utf8))
            Issue.record("accepted \(json)")
        } catch {
            #expect(error.position.line == line)
            #expect(error.position.column == column)
            #expect(error.field == field)
            #expect(error.description.contains(reason), "\(error)")
        }
    }
}
