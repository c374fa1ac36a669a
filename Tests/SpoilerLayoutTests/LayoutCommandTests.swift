import Foundation
import SpoilerTestSupport
import Testing

/// `spoiler layout`, end to end through the built binary.
@Suite struct LayoutCommandTests {
    @Test func printsTheGeometryOfTheWholeInput() throws {
        let r = try runSpoiler(["layout"], input: "hi ||there||\n")
        #expect(r.status == 0, "\(r.err)")
        #expect(
            r.out == """
                {"metrics":{"model":"mono","font":null,"cellWidth":8,"cellHeight":16,"ascent":12,"descent":4,"lineHeight":16,"fallbacks":0},"width":64,"height":16,"columns":8,"rows":1,"lines":[{"index":0,"y":0,"height":16,"width":64,"offset":0,"length":8}],"words":[{"entity":0,"word":0,"line":0,"x":24,"y":0,"width":40,"height":16,"column":3,"columns":5,"offset":3,"length":5,"graphemes":5,"text":"there"}]}

                """)
    }

    @Test(arguments: [
        ("plain", "hi ||there you||"),
        ("markdownv2", "hi ||there you||"),
        ("html", "hi <tg-spoiler>there you</tg-spoiler>"),
        ("markdown", "hi ||there you||"),
        ("botapi", #"{"text":"hi there you","entities":[{"type":"spoiler","offset":3,"length":9}]}"#),
        (
            "export",
            #"{"messages":[{"id":5,"type":"message","text":["hi ",{"type":"spoiler","text":"there you"}]}]}"#
        ),
    ])
    func everyInputFormat(format: String, input: String) throws {
        let r = try runSpoiler(["layout", "--from", format], input: input)
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out.contains(#""column":3,"columns":5,"offset":3,"length":5,"graphemes":5,"text":"there"}"#))
        #expect(r.out.contains(#""column":9,"columns":3,"offset":9,"length":3,"graphemes":3,"text":"you"}"#))
    }

    @Test func redactLeavesOutEveryHiddenWord() throws {
        let input = "the ||butler did|| it ||в библиотеке 漢字 👩‍👩‍👧||\n"
        let r = try runSpoiler(["layout", "--redact", "--width", "10"], input: input)
        #expect(r.status == 0, "\(r.err)")
        for hidden in ["butler", "did", "библиотеке", "в", "漢", "字", "👩"] {
            #expect(!r.out.contains(hidden), "\(hidden)")
        }
        #expect(!r.out.contains("\"text\""))
        #expect(r.out.contains("\"words\":[{\"entity\":0"))
    }

    @Test func wordTextsReachTheTerminalWithoutRawControls() throws {
        let r = try runSpoiler(["layout"], input: "||a\u{1B}]52;c;x\u{7} b\u{9B}2J c\u{202E}d \u{2066}e\u{7F}||")
        #expect(r.status == 0, "\(r.err)")
        for scalar in r.out.unicodeScalars {
            let v = scalar.value
            #expect(
                !(v < 0x20 && v != 0x0A) && !(0x7F...0x9F).contains(v) && !(0x202A...0x202E).contains(v)
                    && !(0x2066...0x2069).contains(v), "raw U+\(String(v, radix: 16)) in the output")
        }
        #expect(r.out.contains(#""text":"a\u001b]52;c;x\u0007""#))
        #expect(r.out.contains(#""text":"c\u202ed""#))
    }

    @Test func ndjsonCarriesIDsAndReplacesBadLinesWithErrorRecords() throws {
        let input = """
            "one ||two||"
            {"id":"m7","text":"||a b||"}
            not json
            {"id":9,"text":"x ||y||"}

            """
        let r = try runSpoiler(["layout", "--ndjson", "--redact"], input: input)
        #expect(r.status == 1)
        let lines = r.out.split(separator: "\n")
        #expect(lines.count == 4)
        #expect(lines[0].hasPrefix("{\"id\":1,\"metrics\""))
        #expect(lines[1].hasPrefix("{\"id\":\"m7\",\"metrics\""))
        #expect(lines[1].contains("\"word\":1"))
        #expect(lines[2].hasPrefix("{\"id\":null,\"line\":3,\"error\""))
        #expect(lines[3].hasPrefix("{\"id\":9,\"metrics\""))
        #expect(
            r.err
                == "error: <stdin>:3:1: invalid JSON: invalid literal\nspoiler: 1 of 4 lines failed (first at line 3)\n"
        )
    }

    @Test func fontsAndCellSizes() throws {
        let font = fixturesRoot.appendingPathComponent("layout/tiny.bdf").path
        let r = try runSpoiler(["layout", "--font", font], input: "ab ||ba||")
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out.contains("\"model\":\"bdf\""))
        #expect(r.out.contains("\"x\":18,\"y\":0,\"width\":12,\"height\":8"))
        #expect(!r.out.contains("\"columns\""))
        let hex = try runSpoiler(["layout", "--font", LayoutFixtures.unifontHex], input: "||漢字||")
        #expect(hex.out.contains("\"width\":32"), "\(hex.out)")
        let cell = try runSpoiler(["layout", "--cell", "10x20"], input: "a ||b||")
        #expect(cell.out.contains("\"x\":20,\"y\":0,\"width\":10,\"height\":20"))
    }

    @Test func fontErrorsNameTheFile() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("spoiler-font-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let cut = dir.appendingPathComponent("cut.psf.gz")
        let whole = try Data(contentsOf: URL(fileURLWithPath: LayoutFixtures.terminusPSF2))
        try whole.prefix(whole.count / 2).write(to: cut)
        // No input: the program stops at the font, before reading any (a write to its
        // closed standard input would raise SIGPIPE in the test process).
        let r = try runSpoiler(["layout", "--font", cut.path], input: "")
        #expect(r.status == 1)
        #expect(
            r.err == "error: \(cut.path):byte \(whole.count / 2): truncated font: the gzip stream ends early\n")
        let missing = try runSpoiler(["layout", "--font", dir.appendingPathComponent("nope.bdf").path], input: "")
        #expect(missing.status == 1)
        #expect(
            missing.err
                == "error: \(dir.appendingPathComponent("nope.bdf").path): cannot open font: No such file or directory\n"
        )
    }

    /// Each kind of font error, as a user reads it: `error: ` once, then `path: reason`
    /// or `path:position: reason` (a byte offset in binary fonts, a line in text ones).
    @Test func fontErrorsInOneForm() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("spoiler-font-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        func file(_ name: String, _ bytes: [UInt8]) throws -> String {
            let url = dir.appendingPathComponent(name)
            try Data(bytes).write(to: url)
            return url.path
        }
        let read = "BDF 2.1, PSF1, PSF2 or GNU Unifont .hex (plain or gzip-compressed)"
        let pcf = try file("ter-u12n.pcf", [0x01, 0x66, 0x63, 0x70] + [UInt8](repeating: 0, count: 60))
        let ttf = try file("DejaVuSans.ttf", [0x00, 0x01, 0x00, 0x00] + [UInt8](repeating: 0, count: 60))
        let woff = try file("font.woff2", Array("wOF2".utf8) + [UInt8](repeating: 0, count: 60))
        let text = try file("passwd", Array("root:x:0:0:root:/root:/bin/bash\n".utf8))
        // A PSF2 header that promises 4 glyphs of 16 bytes, followed by 40 bytes.
        var psf: [UInt8] = [0x72, 0xB5, 0x4A, 0x86, 0, 0, 0, 0, 32, 0, 0, 0, 0, 0, 0, 0, 4, 0, 0, 0, 16, 0, 0, 0]
        psf += [16, 0, 0, 0, 8, 0, 0, 0] + [UInt8](repeating: 0, count: 40)
        let truncated = try file("trunc.psf", psf)
        let bdf = try file(
            "bad.bdf", Array("STARTFONT 2.1\nFONTBOUNDINGBOX 8 16 0 -4\nSTARTCHAR A\nDWIDTH six 0\n".utf8))
        let cases: [(String, String)] = [
            (
                pcf,
                "\(pcf): unsupported font format: PCF (X11 compiled bitmap font; convert it to BDF with pcf2bdf); the formats read are \(read)"
            ),
            (ttf, "\(ttf): unsupported font format: TrueType; the formats read are \(read)"),
            (woff, "\(woff): unsupported font format: WOFF2; the formats read are \(read)"),
            (text, "\(text): not a font: expected \(read)"),
            (
                truncated,
                "\(truncated):byte 72: truncated font: a 32-byte header and 4 glyphs of 16 bytes need 96 bytes, the file has 72"
            ),
            (bdf, "\(bdf):4: corrupt font: DWIDTH: 'six' is not a number"),
            ("/nonexistent", "/nonexistent: cannot open font: No such file or directory"),
            (dir.path, "\(dir.path): cannot read font: Is a directory"),
        ]
        for (font, message) in cases {
            let r = try runSpoiler(["layout", "--font", font], input: "")
            #expect(r.status == 1, "\(font)")
            #expect(r.out == "", "\(font)")
            #expect(r.err == "error: \(message)\n", "\(font)")
        }
    }

    @Test func usageErrors() throws {
        for args in [
            ["--width", "0"], ["--width", "wide"], ["--cell", "8"], ["--cell", "0x16"],
            ["--font", "mono", "--cell", "8x"],
        ] {
            let r = try runSpoiler(["layout"] + args, input: "")
            #expect(r.status == 2, "\(args)")
            #expect(r.err.hasPrefix("error: "), "\(args)")
        }
        let h = try runSpoiler(["layout", "--help"])
        #expect(h.status == 0)
        #expect(h.out.contains("--font F"))
    }
}
