public import SpoilerCore

/// Which metric model measured a layout.
public enum MetricModel: String, Sendable, Hashable, Codable {
    /// A cell grid, widths as terminals compute them.
    case mono
    /// A BDF 2.1 bitmap font.
    case bdf
    /// A PSF1 or PSF2 Linux console font.
    case psf
    /// A GNU Unifont `.hex` font.
    case hex
}

/// The font measurements a layout was made with.
///
/// All values in pixels. Codable with the keys of the geometry JSON's `metrics`, but for
/// `fontName`, which the geometry JSON calls `font`.
public struct LayoutMetrics: Sendable, Hashable, Codable {
    /// Which metric model measured the layout.
    public var model: MetricModel
    /// The font's name (BDF `FONT`, or the file name), nil for `mono`.
    public var fontName: String?
    /// Width of one cell (mono) or the font's default advance.
    public var cellWidth: Int
    /// Height of one cell (mono) or the font's line height.
    public var cellHeight: Int
    /// Pixels from the top of a line to the baseline.
    public var ascent: Int
    /// Pixels from the baseline to the bottom of a line.
    public var descent: Int
    /// Pixels from one line's top to the next one's.
    public var lineHeight: Int
    /// How many graphemes the font lacked and drew with its default glyph or a box.
    public var fallbacks: Int

    /// Metrics from their values, in pixels.
    public init(
        model: MetricModel, fontName: String?, cellWidth: Int, cellHeight: Int, ascent: Int,
        descent: Int, lineHeight: Int, fallbacks: Int
    ) {
        self.model = model
        self.fontName = fontName
        self.cellWidth = cellWidth
        self.cellHeight = cellHeight
        self.ascent = ascent
        self.descent = descent
        self.lineHeight = lineHeight
        self.fallbacks = fallbacks
    }
}

/// One laid-out line.
///
/// Pixels, origin at the layout's top-left, y downward.
public struct LayoutLine: Sendable, Hashable, Codable {
    /// The line's index from 0.
    public var index: Int
    /// The line's top edge.
    public var y: Int
    /// The line's height.
    public var height: Int
    /// The width of the line's text.
    public var width: Int
    /// First UTF-16 unit of the message text on this line.
    public var utf16Offset: Int
    /// UTF-16 units of the message text on this line (the line break excluded).
    public var utf16Length: Int

    /// A line from its values (pixels, and UTF-16 code units of the message text).
    public init(index: Int, y: Int, height: Int, width: Int, utf16Offset: Int, utf16Length: Int) {
        self.index = index
        self.y = y
        self.height = height
        self.width = width
        self.utf16Offset = utf16Offset
        self.utf16Length = utf16Length
    }
}

/// One grapheme cluster placed on a line.
public struct PlacedGrapheme: Sendable, Hashable, Codable {
    /// The grapheme as in the message text (controls not yet made visible: see `display`).
    public var text: String
    /// What a renderer draws for it.
    ///
    /// The grapheme itself, or a visible stand-in for a control character (U+241B for
    /// ESC; see ``ControlPictures``), or "" for zero-width ones and line breaks; for a tab
    /// in `mono`, as many spaces as it takes cells.
    public var display: String
    /// The index of its line.
    public var line: Int
    /// Left edge in pixels.
    public var x: Int
    /// Advance in pixels.
    public var width: Int
    /// Mono only: the first cell.
    public var column: Int
    /// Mono only: the number of cells (0, 1 or 2).
    public var columns: Int
    /// Its first UTF-16 code unit in the message text.
    public var utf16Offset: Int
    /// Its length in UTF-16 code units.
    public var utf16Length: Int
    /// Index into ``TextLayout/words`` of the word this grapheme belongs to, if hidden.
    public var word: Int?
    /// Whether the font lacked this grapheme.
    public var isFallback: Bool

    /// A placed grapheme from its values.
    public init(
        text: String, display: String, line: Int, x: Int, width: Int, column: Int, columns: Int,
        utf16Offset: Int, utf16Length: Int, word: Int?, isFallback: Bool
    ) {
        self.text = text
        self.display = display
        self.line = line
        self.x = x
        self.width = width
        self.column = column
        self.columns = columns
        self.utf16Offset = utf16Offset
        self.utf16Length = utf16Length
        self.word = word
        self.isFallback = isFallback
    }
}

/// The rectangle of one hidden word (or of one line fragment of a wrapped word).
public struct WordBox: Sendable, Hashable, Codable {
    /// Index of the spoiler entity in the message's entities.
    public var entity: Int
    /// Index of the word inside its entity (fragments of one word share it).
    public var word: Int
    /// The index of the line it is on.
    public var line: Int
    /// Pixels, origin at the layout's top-left, y downward.
    public var rect: SpoilerRect
    /// Mono only: the first cell.
    public var column: Int?
    /// Mono only: the number of cells.
    public var columns: Int?
    /// Its first UTF-16 code unit in the message text, as entity offsets count.
    public var utf16Offset: Int
    /// Its length in UTF-16 code units.
    public var utf16Length: Int
    /// Grapheme clusters in this fragment.
    public var graphemes: Int
    /// The word's text (fragment).
    public var text: String

    /// A word box from its values.
    public init(
        entity: Int, word: Int, line: Int, rect: SpoilerRect, column: Int?, columns: Int?,
        utf16Offset: Int, utf16Length: Int, graphemes: Int, text: String
    ) {
        self.entity = entity
        self.word = word
        self.line = line
        self.rect = rect
        self.column = column
        self.columns = columns
        self.utf16Offset = utf16Offset
        self.utf16Length = utf16Length
        self.graphemes = graphemes
        self.text = text
    }
}

/// A message laid out: lines, placed graphemes and one box per hidden word fragment.
///
/// Codable (as are its parts), so that a layout can be stored or sent and read back; the
/// keys are the properties' names (``jsonBytes(id:redact:)`` writes the geometry JSON).
public struct TextLayout: Sendable, Hashable, Codable {
    /// The font measurements the layout was made with.
    public var metrics: LayoutMetrics
    /// The layout's width in pixels.
    public var width: Int
    /// The layout's height in pixels.
    public var height: Int
    /// Mono only: the grid's width in cells.
    public var columns: Int?
    /// Mono only: the grid's height in cells.
    public var rows: Int?
    /// The lines, top to bottom.
    public var lines: [LayoutLine]
    /// Every grapheme, in text order.
    public var graphemes: [PlacedGrapheme]
    /// One box per hidden word fragment, in text order.
    public var words: [WordBox]

    /// A layout from its parts.
    public init(
        metrics: LayoutMetrics, width: Int, height: Int, columns: Int?, rows: Int?,
        lines: [LayoutLine], graphemes: [PlacedGrapheme], words: [WordBox]
    ) {
        self.metrics = metrics
        self.width = width
        self.height = height
        self.columns = columns
        self.rows = rows
        self.lines = lines
        self.graphemes = graphemes
        self.words = words
    }
}
