import Foundation
import SpoilerCore
import SpoilerLayout
import SpoilerTestSupport
import Testing

/// Bitmap font parsing: metrics, glyph bitmaps, fallbacks and errors, for each format.
@Suite struct FontTests {
    @Test func bdfMetricsAndGlyphs() throws {
        let font = try BitmapFont.parse(LayoutFixtures.fixtureBytes("tiny.bdf"), file: "Fixtures/layout/tiny.bdf")
        #expect(font.format == .bdf)
        #expect(font.name == "-spoilerkit-tiny-medium-r-normal--8-80-75-75-c-60-iso10646-1")
        #expect(font.ascent == 6)
        #expect(font.descent == 2)
        #expect(font.lineHeight == 8)
        #expect(font.defaultAdvance == 6)
        #expect(font.glyphCount == 11)
        let b = try #require(font.glyph(for: "b"))
        #expect(b.advance == 6)
        #expect(
            LayoutFixtures.art(b) == """
                #....
                #....
                ####.
                #...#
                #...#
                #...#
                ####.
                """)
        // The baseline is 6 pixels down; `b` stands on it, 7 pixels high.
        #expect(b.inkedPixels(ascent: font.ascent).first! == (x: 0, y: -1))
        let wide = try #require(font.glyph(for: "漢"))
        #expect(wide.advance == 12)
        #expect(wide.width == 11)
        #expect(font.glyph(for: "z") == nil)
        #expect(font.glyph(forGrapheme: "z") == font.defaultGlyph)
        #expect(font.glyph(forGrapheme: "e\u{301}") == font.glyph(for: "e"))
        #expect(font.glyph(forGrapheme: "\u{241B}") == font.glyph(for: "\u{241B}"))
    }

    @Test func missingGraphemesFallBackAndAreCounted() throws {
        let font = try BitmapFont.parse(LayoutFixtures.fixtureBytes("tiny.bdf"), file: "tiny.bdf")
        let layout = LayoutEngine(model: .font(font)).layout(Message(text: "abz漢🇺🇦\u{1B}"))
        #expect(layout.graphemes.map(\.width) == [6, 6, 6, 12, 6, 6])
        #expect(layout.graphemes.map(\.isFallback) == [false, false, true, false, true, false])
        #expect(layout.metrics.fallbacks == 2)
        #expect(layout.metrics.model == .bdf)
    }

    @Test func aFontWithoutADefaultGlyphFallsBackToABox() throws {
        var text = try LayoutFixtures.fixtureBytes("tiny.bdf")
        // Drop DEFAULT_CHAR and U+FFFD's glyph.
        var s = String(decoding: text, as: UTF8.self)
        s = s.replacingOccurrences(of: "DEFAULT_CHAR 65533\n", with: "")
        s = s.replacingOccurrences(of: "ENCODING 65533", with: "ENCODING -1")
        text = Array(s.utf8)
        let font = try BitmapFont.parse(text, file: "tiny.bdf")
        #expect(font.defaultGlyph == nil)
        #expect(font.defaultAdvance == 11)  // the bounding box width
        #expect(font.glyph(forGrapheme: "z") == nil)
        let layout = LayoutEngine(model: .font(font)).layout(Message(text: "az"))
        #expect(layout.graphemes.map(\.width) == [6, 11])
        #expect(layout.metrics.fallbacks == 1)
    }

    @Test func psf1WithUnicodeTable() throws {
        let font = try BitmapFont.parse(
            LayoutFixtures.systemBytes(LayoutFixtures.unifontPSF), file: LayoutFixtures.unifontPSF)
        #expect(font.format == .psf)
        #expect(font.name == "Unifont-APL8x16.psf.gz")
        #expect(font.glyphCount == 512)
        #expect(font.lineHeight == 16)
        #expect(font.ascent == 12)
        #expect(font.defaultAdvance == 8)
        #expect(font.mappedScalarCount > 500)
        let a = try #require(font.glyph(for: "A"))
        expectMatchesFixture(LayoutFixtures.art(a) + "\n", "layout/glyph-psf1-unifont-apl-A.txt")
        #expect(font.glyph(for: "⍝") != nil)  // APL
    }

    @Test func psf2WithUnicodeTableAndNarrowGlyphs() throws {
        let font = try BitmapFont.parse(
            LayoutFixtures.systemBytes(LayoutFixtures.terminusPSF2), file: LayoutFixtures.terminusPSF2)
        #expect(font.format == .psf)
        #expect(font.defaultAdvance == 6)
        #expect(font.lineHeight == 12)
        let zhe = try #require(font.glyph(for: "ж"))
        #expect(zhe.width == 6)
        #expect(zhe.bytesPerRow == 1)
        expectMatchesFixture(LayoutFixtures.art(zhe) + "\n", "layout/glyph-psf2-terminus12x6-zhe.txt")
    }

    @Test func plainAndGzippedPSFAreTheSameFont() throws {
        for path in [LayoutFixtures.unifontPSF, LayoutFixtures.terminusPSF2] {
            let gz = try LayoutFixtures.systemBytes(path)
            let plain = [UInt8](try runProgram(URL(fileURLWithPath: "/bin/gzip"), ["-dc", path]).stdout)
            #expect(plain.count > gz.count)
            let a = try BitmapFont.parse(gz, file: "font.psf")
            let b = try BitmapFont.parse(plain, file: "font.psf")
            #expect(a == b, "\(path)")
        }
    }

    @Test func everyConsoleFontLoads() throws {
        let dir = "/usr/share/consolefonts"
        let names = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasSuffix(".psf.gz") }.sorted()
        #expect(names.count > 100)
        var psf1 = 0
        var psf2 = 0
        for name in names {
            let bytes = try LayoutFixtures.systemBytes(dir + "/" + name)
            let font = try BitmapFont.parse(bytes, file: name)
            #expect(font.glyphCount >= 256, "\(name)")
            #expect(font.glyph(for: "A") != nil || font.mappedScalarCount > 0, "\(name)")
            if font.defaultAdvance % 8 == 0 && font.lineHeight <= 16 { psf1 += 1 } else { psf2 += 1 }
        }
        #expect(psf1 > 0 && psf2 > 0)
    }

    @Test func unifontHex() throws {
        let font = try BitmapFont.parse(
            LayoutFixtures.systemBytes(LayoutFixtures.unifontHex), file: LayoutFixtures.unifontHex)
        #expect(font.format == .hex)
        #expect(font.name == "unifont.hex")
        #expect(font.glyphCount == 3_723)
        #expect(font.ascent == 14)
        #expect(font.descent == 2)
        #expect(font.glyph(for: "a")?.advance == 8)
        #expect(font.glyph(for: "漢")?.advance == 16)
        #expect(font.defaultGlyph == font.glyph(for: "\u{FFFD}"))
        let han = try #require(font.glyph(for: "漢"))
        expectMatchesFixture(LayoutFixtures.art(han) + "\n", "layout/glyph-hex-unifont-han.txt")
    }

    @Test func gzippedHexMatchesPlain() throws {
        let gz = try BitmapFont.parse(LayoutFixtures.fixtureBytes("subset.hex.gz"), file: "subset.hex.gz")
        let plain = try BitmapFont.parse(
            LayoutFixtures.systemBytes(LayoutFixtures.unifontHex), file: LayoutFixtures.unifontHex)
        #expect(gz.glyphCount == 20)
        for s in "abdeitж漢字\u{241B}\u{FFFD}".unicodeScalars {
            #expect(gz.glyph(for: s) == plain.glyph(for: s), "U+\(String(s.value, radix: 16))")
        }
    }

    // MARK: Errors

    struct BadFont: CustomTestStringConvertible, Sendable {
        var name: String
        var bytes: @Sendable () throws -> [UInt8]
        var expected: LayoutError
        var testDescription: String { name }
    }

    static func bdf(replacing old: String, with new: String) -> @Sendable () throws -> [UInt8] {
        {
            let s = String(decoding: try LayoutFixtures.fixtureBytes("tiny.bdf"), as: UTF8.self)
            return Array(s.replacingOccurrences(of: old, with: new).utf8)
        }
    }

    static func psf2Header(count: Int, glyphBytes: Int, height: Int, width: Int, flags: Int = 0) -> [UInt8] {
        var b: [UInt8] = [0x72, 0xB5, 0x4A, 0x86]
        for v in [0, 32, flags, count, glyphBytes, height, width] {
            b += [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 24 & 0xFF)]
        }
        return b
    }

    static let badFonts: [BadFont] = [
        BadFont(
            name: "PSF1 header cut short", bytes: { [0x36, 0x04, 0x00] },
            expected: .truncatedFont(
                file: "f", at: .byte(3, decompressed: false), reason: "the PSF1 header needs 4 bytes")),
        BadFont(
            name: "PSF1 glyphs cut short", bytes: { [0x36, 0x04, 0x00, 0x10] + [UInt8](repeating: 0, count: 100) },
            expected: .truncatedFont(
                file: "f", at: .byte(104, decompressed: false),
                reason: "256 glyphs of 16 bytes need 4100 bytes, the file has 104")),
        BadFont(
            name: "PSF1 unicode table cut short",
            bytes: { [0x36, 0x04, 0x02, 0x01] + [UInt8](repeating: 0, count: 256) + [0x41, 0x00, 0xFF, 0xFF, 0x42] },
            expected: .truncatedFont(
                file: "f", at: .byte(265, decompressed: false),
                reason: "the unicode table ends inside the entry of glyph 1")),
        BadFont(
            name: "PSF2 glyph size disagrees with the header",
            bytes: { psf2Header(count: 1, glyphBytes: 10, height: 8, width: 8) + [UInt8](repeating: 0, count: 10) },
            expected: .corruptFont(
                file: "f", at: .byte(20, decompressed: false),
                reason: "10 bytes per glyph, but 8×8 glyphs need 8")),
        BadFont(
            name: "PSF2 glyphs cut short",
            bytes: { psf2Header(count: 4, glyphBytes: 16, height: 8, width: 12) + [UInt8](repeating: 0, count: 40) },
            expected: .truncatedFont(
                file: "f", at: .byte(72, decompressed: false),
                reason: "a 32-byte header and 4 glyphs of 16 bytes need 96 bytes, the file has 72")),
        BadFont(
            name: "PSF2 bad UTF-8 in the unicode table",
            bytes: {
                psf2Header(count: 1, glyphBytes: 8, height: 8, width: 8, flags: 1) + [UInt8](repeating: 0, count: 8) + [
                    0x41, 0xC0, 0xFF,
                ]
            },
            expected: .corruptFont(
                file: "f", at: .byte(41, decompressed: false),
                reason: "invalid UTF-8 byte 0xc0 in the unicode table")),
        BadFont(
            name: "BDF glyph never ends",
            bytes: bdf(replacing: "ENDCHAR\nSTARTCHAR uniFFFD", with: "STARTCHAR uniFFFD"),
            expected: .corruptFont(
                file: "f", at: .line(143, decompressed: false),
                reason: "glyph 'uni241B' has more bitmap rows than its BBX height 7")),
        BadFont(
            name: "BDF file cut inside a glyph",
            bytes: {
                // Cut after the second bitmap row of `a` (line 31).
                let s = String(decoding: try LayoutFixtures.fixtureBytes("tiny.bdf"), as: UTF8.self)
                return Array(s[..<s.range(of: "70\n08\n")!.upperBound].utf8)
            },
            expected: .truncatedFont(
                file: "f", at: .line(31, decompressed: false), reason: "the file ends inside glyph 'a' begun at line 23"
            )),
        BadFont(
            name: "BDF bitmap row is not hexadecimal", bytes: bdf(replacing: "70\n08\n78", with: "70\nzz\n78"),
            expected: .corruptFont(
                file: "f", at: .line(30, decompressed: false), reason: "bitmap row 'zz' is not hexadecimal")),
        BadFont(
            name: "BDF without ENDFONT", bytes: bdf(replacing: "ENDFONT\n", with: ""),
            expected: .truncatedFont(
                file: "f", at: .line(159, decompressed: false), reason: "the file ends before ENDFONT")),
        BadFont(
            name: "BDF bad number",
            bytes: bdf(replacing: "DWIDTH 6 0\nBBX 5 5 0 0\nBITMAP\n70", with: "DWIDTH six 0\nBBX 5 5 0 0\nBITMAP\n70"),
            expected: .corruptFont(
                file: "f", at: .line(26, decompressed: false), reason: "DWIDTH: 'six' is not a number")),
        BadFont(
            // The fuzzer's find: a negative advance gave words of negative width.
            name: "BDF negative glyph advance",
            bytes: bdf(replacing: "DWIDTH 6 0\nBBX 5 5 0 0\nBITMAP\n70", with: "DWIDTH -11 0\nBBX 5 5 0 0\nBITMAP\n70"),
            expected: .corruptFont(
                file: "f", at: .line(26, decompressed: false), reason: "DWIDTH -11 is out of range (0 to 1024)")),
        BadFont(
            name: "BDF font-wide advance too wide",
            bytes: bdf(replacing: "STARTPROPERTIES", with: "DWIDTH 5000 0\nSTARTPROPERTIES"),
            expected: .corruptFont(
                file: "f", at: .line(8, decompressed: false), reason: "DWIDTH 5000 is out of range (0 to 1024)")),
        BadFont(
            // The fuzzer's find: a negative ascent gave word boxes of negative height.
            name: "BDF negative ascent", bytes: bdf(replacing: "FONT_ASCENT 6", with: "FONT_ASCENT -80"),
            expected: .corruptFont(
                file: "f", at: .line(9, decompressed: false),
                reason: "a font ascent of -80 pixels is out of range (0 to 1024)")),
        BadFont(
            name: "BDF descent from a bounding box below the baseline",
            bytes: {
                let s = String(decoding: try bdf(replacing: "FONT_DESCENT 2\n", with: "")(), as: UTF8.self)
                return Array(s.replacingOccurrences(of: "BOX 11 8 0 -2", with: "BOX 11 8 0 2").utf8)
            },
            expected: .corruptFont(
                file: "f", at: .line(7, decompressed: false),
                reason: "a font descent of -2 pixels is out of range (0 to 1024)")),
        BadFont(
            name: "BDF lines 0 pixels high",
            bytes: bdf(replacing: "FONT_ASCENT 6\nFONT_DESCENT 2", with: "FONT_ASCENT 0\nFONT_DESCENT 0"),
            expected: .corruptFont(
                file: "f", at: .line(10, decompressed: false), reason: "the font's lines are 0 pixels high")),
        BadFont(
            name: "BDF bounding box of negative size",
            bytes: bdf(replacing: "FONTBOUNDINGBOX 11 8 0 -2", with: "FONTBOUNDINGBOX -11 8 0 -2"),
            expected: .corruptFont(
                file: "f", at: .line(7, decompressed: false), reason: "FONTBOUNDINGBOX size -11×8 is out of range")),
        BadFont(
            name: "hex line without a colon",
            bytes: { Array("0041:00000000000018242442427E42424242\n0042 0000\n".utf8) },
            expected: .corruptFont(
                file: "f", at: .line(2, decompressed: false), reason: "expected 'XXXX:' and hexadecimal digits")),
        BadFont(
            name: "hex bitmap of the wrong length",
            bytes: { Array("0041:00000000000018242442427E424242420000\n".utf8) },
            expected: .corruptFont(
                file: "f", at: .line(1, decompressed: false),
                reason: "36 bitmap digits; expected 32, 64, 96 or 128 (16 rows of 8 to 32 pixels)")),
        BadFont(
            name: "hex bad digit", bytes: { Array("0041:00000000000018242442427E4242424G\n".utf8) },
            expected: .corruptFont(
                file: "f", at: .line(1, decompressed: false), reason: "bitmap digit 'G' is not hexadecimal")),
        BadFont(
            name: "gzip cut short", bytes: { Array(try LayoutFixtures.fixtureBytes("subset.hex.gz").prefix(120)) },
            expected: .truncatedFont(
                file: "f", at: .byte(120, decompressed: false), reason: "the gzip stream ends early")),
        BadFont(
            name: "not a font", bytes: { Array("hello world\n".utf8) }, expected: .unknownFontFormat(file: "f")),
    ]

    @Test(arguments: badFonts) func errorsNameTheFileThePositionAndTheReason(_ bad: BadFont) throws {
        let bytes = try bad.bytes()
        #expect(throws: bad.expected) { try BitmapFont.parse(bytes, file: "f") }
    }

    /// Fonts of formats that are not read are named as what they are, by their magic bytes
    /// (a real file's first bytes; the rest does not matter).
    @Test(
        arguments: [
            (
                [0x01, 0x66, 0x63, 0x70, 0x0D, 0x00, 0x00, 0x00],
                "PCF (X11 compiled bitmap font; convert it to BDF with pcf2bdf)"
            ),
            ([0x00, 0x01, 0x00, 0x00, 0x00, 0x12, 0x01, 0x00], "TrueType"),
            (Array("OTTO\u{0}\u{C}".utf8), "OpenType"),
            (Array("ttcf\u{0}\u{1}".utf8), "TrueType/OpenType collection"),
            (Array("wOFF\u{0}\u{1}".utf8), "WOFF"),
            (Array("wOF2\u{0}\u{1}".utf8), "WOFF2"),
            (Array("%!PS-AdobeFont-1.0: Utopia".utf8), "PostScript Type 1"),
            ([0x80, 0x01, 0x10, 0x00], "PostScript Type 1 (PFB)"),
            (Array("MZ\u{90}\u{0}".utf8), "Windows FON/FNT"),
            (Array("BZh91AY&SY".utf8), "bzip2-compressed data (decompress it first)"),
        ] as [([UInt8], String)])
    func unsupportedFormatsAreNamed(magic: [UInt8], format: String) throws {
        let bytes = magic + [UInt8](repeating: 0x20, count: 64)
        #expect(throws: LayoutError.unsupportedFontFormat(file: "f", format: format)) {
            try BitmapFont.parse(bytes, file: "f")
        }
        // Inside gzip too, said so.
        #expect(throws: LayoutError.unsupportedFontFormat(file: "f", format: format + ", gzip-compressed")) {
            try BitmapFont.parse(try gzip(bytes), file: "f")
        }
    }

    @Test func unsupportedAndUnknownFormatsNameTheFormatsThatAreRead() {
        let pcf = LayoutError.unsupportedFontFormat(file: "ter-u12n.pcf", format: "PCF")
        #expect(
            pcf.description
                == "ter-u12n.pcf: unsupported font format: PCF; the formats read are BDF 2.1, PSF1, PSF2 or GNU Unifont .hex (plain or gzip-compressed)"
        )
        #expect(
            LayoutError.unknownFontFormat(file: "/etc/passwd").description
                == "/etc/passwd: not a font: expected BDF 2.1, PSF1, PSF2 or GNU Unifont .hex (plain or gzip-compressed)"
        )
    }

    /// The fonts the fuzzer found (Fixtures/fuzz/bdf), which gave word boxes of negative
    /// width or height, are refused as corrupt.
    @Test(arguments: ["negative-dwidth.bdf", "box-below-baseline.bdf"])
    func fuzzerFontsAreRefused(_ name: String) throws {
        let bytes = [UInt8](try fixtureData("fuzz/bdf/\(name)"))
        #expect(throws: LayoutError.self) { try BitmapFont.parse(bytes, file: name) }
    }

    @Test func errorDescriptionsReadLikeCompilerMessages() {
        let e = LayoutError.truncatedFont(file: "x.psf.gz", at: .byte(40, decompressed: true), reason: "cut")
        #expect(e.description == "x.psf.gz:byte 40 (after gunzip): truncated font: cut")
        let l = LayoutError.corruptFont(file: "x.bdf", at: .line(3, decompressed: false), reason: "bad")
        #expect(l.description == "x.bdf:3: corrupt font: bad")
    }

    @Test func gzipPositionsAreInTheDecompressedData() throws {
        // A PSF2 file with a truncated glyph table, gzip-compressed by the system's gzip.
        let plain = Self.psf2Header(count: 4, glyphBytes: 16, height: 8, width: 12) + [UInt8](repeating: 0, count: 40)
        let gz = try gzip(plain)
        #expect(
            throws: LayoutError.truncatedFont(
                file: "f.psf.gz", at: .byte(72, decompressed: true),
                reason: "a 32-byte header and 4 glyphs of 16 bytes need 96 bytes, the file has 72")
        ) {
            try BitmapFont.parse(gz, file: "f.psf.gz")
        }
    }

    @Test func arbitraryBytesNeverTrap() throws {
        let seeds: [[UInt8]] = [
            try LayoutFixtures.fixtureBytes("tiny.bdf"), try LayoutFixtures.fixtureBytes("subset.hex.gz"),
            Array(try LayoutFixtures.systemBytes(LayoutFixtures.terminusPSF2)),
            Array("0041:00000000000018242442427E42424242\n".utf8),
        ]
        forAll(
            { rng -> [UInt8] in
                var b = seeds[Int(rng.next() % UInt64(seeds.count))]
                if b.count > 4 && rng.next() % 2 == 0 { b = Array(b.prefix(Int(rng.next() % UInt64(b.count)))) }
                for _ in 0..<Int(rng.next() % 4) where !b.isEmpty {
                    b[Int(rng.next() % UInt64(b.count))] = UInt8(truncatingIfNeeded: rng.next())
                }
                return b
            }, count: 400
        ) { bytes in
            _ = try? BitmapFont.parse(bytes, file: "fuzz")
            return true
        }
    }

    /// `bytes` compressed by the system's gzip.
    func gzip(_ bytes: [UInt8]) throws -> [UInt8] {
        let r = try runProgram(URL(fileURLWithPath: "/bin/gzip"), ["-c", "-n"], stdin: Data(bytes))
        return [UInt8](r.stdout)
    }
}
