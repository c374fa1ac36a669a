/// Small fonts written for the tests.
enum TestFonts {
    /// A 5×8 BDF 2.1 font with `a`, `b`, space and a default glyph (U+FFFD); advance 6.
    static let tinyBDF = """
        STARTFONT 2.1
        FONT -test-tiny-medium-r-normal--8-80-75-75-c-60-iso10646-1
        SIZE 8 75 75
        FONTBOUNDINGBOX 5 8 0 -2
        STARTPROPERTIES 3
        FONT_ASCENT 6
        FONT_DESCENT 2
        DEFAULT_CHAR 65533
        ENDPROPERTIES
        CHARS 4
        STARTCHAR space
        ENCODING 32
        SWIDTH 750 0
        DWIDTH 6 0
        BBX 1 1 0 0
        BITMAP
        00
        ENDCHAR
        STARTCHAR a
        ENCODING 97
        DWIDTH 6 0
        BBX 5 5 0 0
        BITMAP
        70
        08
        78
        88
        78
        ENDCHAR
        STARTCHAR b
        ENCODING 98
        DWIDTH 6 0
        BBX 5 7 0 0
        BITMAP
        80
        80
        F0
        88
        88
        88
        F0
        ENDCHAR
        STARTCHAR uniFFFD
        ENCODING 65533
        DWIDTH 6 0
        BBX 5 8 0 -2
        BITMAP
        F8
        88
        88
        88
        88
        88
        88
        F8
        ENDCHAR
        ENDFONT

        """
}
