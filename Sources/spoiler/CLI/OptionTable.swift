import SpoilerEffect
import SpoilerParser
import SpoilerRender

/// Every option of every `spoiler` command, declared once.
///
/// An option means the same wherever it is taken: the same kind of value, the same range,
/// the same default and the same help line. The parser (``Arguments``) checks each value
/// against its entry before a command runs, and each command's help lists its options
/// from here (``CommandSpec/help``). `OptionTableTests` walks this table and checks every
/// command's help and parsing against it.
///
/// To add an option:
/// 1. add one entry below (name, kind, value placeholder, default, help line — the range,
///    the choices and the default are added to the help line from the entry);
/// 2. add its name to the `options` of each command that takes it (its `CommandSpec`);
/// 3. read it in the command with `args.flag`, `args.integer`, `args.number`, `args.seed`,
///    `args.choice` or `args.text`, which return the given value or the default.
///
/// A choice whose words come from a library enum (`InputFormat.allCases`, …) follows that
/// enum, so a new case there is a new value here with no edit.
enum OptionTable {
    /// The entries, in the order help lists them.
    static let entries: [OptionSpec] = [
        OptionSpec("from", .choice(InputFormat.allCases.map(\.rawValue)), "F", default: "plain", "input format"),
        .flag("spoiler-reasons", "read ||reason|text|| (plain, discord) as a spoiler of text with its reason"),
        OptionSpec(
            "to", .choice(OutputFormat.allCases.map(\.rawValue)), "F",
            "output format (plain: the text alone; plain-markup: with ||spoiler|| and `code` kept)"),
        OptionSpec(
            "mask", .choice(PreviewOptions.Mask.allCases.map(\.rawValue)), "M", default: "fixed",
            "--to preview and slack: what a spoiler becomes (fixed: four mask characters whatever its length; length: one per grapheme)"
        ),
        OptionSpec("max", .integer(1...Int(Int32.max)), "N", "--to preview: cut to N graphemes, the last one …"),
        OptionSpec("format", .choice(RenderFormat.allCases.map(\.rawValue)), "F", "what to render"),
        .flag(
            "ndjson",
            "one message a line (a JSON string, or an object with text, id, entities); each output line carries the id, or the line number; a bad line gives an error record in its place"
        ),
        OptionSpec(
            "jobs", .integer(0...1024, word: "auto"), "N", default: "1",
            "with --ndjson or --from export: work on N messages at once, 0 or auto for one per core (the output is the same whatever N)"
        ),
        .flag(
            "errors-as-records",
            "with --ndjson or --from export: exit 0 when every failed message became an error record (an unreadable input, a failed write or a usage error still exits non-zero)"
        ),
        .flag(
            "quiet",
            "with --ndjson or --from export: no error line on stderr per failed message, only the summary at the end"),
        .flag(
            "line-buffered",
            "with --ndjson or --from export: write each output line as soon as its input line is done (for callers that wait line by line)"
        ),
        OptionSpec(
            "font", .text(form: "mono or the path of a bitmap font"), "F", default: "mono",
            "metrics: mono (a terminal cell grid) or the path of a bitmap font, BDF 2.1 (.bdf), PSF1/PSF2 (.psf, .psf.gz) or GNU Unifont (.hex, .hex.gz)"
        ),
        OptionSpec(
            "width", .integer(1...1_000_000), "N",
            "wrap lines at N columns (mono) or N pixels (fonts); left out: no wrapping, or the terminal's width in play"
        ),
        OptionSpec(
            "cell", .text(form: "WIDTHxHEIGHT in pixels, each from 1 to 1024 (like 8x16)"), "WxH", default: "8x16",
            "pixels per cell for --font mono"),
        OptionSpec(
            "timeline", .choice(TimelineForm.allCases.map(\.rawValue)), "FORM", default: "tracks",
            "json: tracks (each particle once, its motion as quantised integer keyframes) or frames (every frame's particles as columnar arrays)"
        ),
        .flag(
            "redact",
            "leave hidden text out of the output (layout: every word's text; html: the spoilers then cannot be revealed)"
        ),
        .flag("embed", "html: write a fragment (style, element, script) to paste into a page, not a whole page"),
        OptionSpec(
            "preset", .text(form: "a preset name or the path of a JSON preset"), "P", default: "dust",
            "the effect: dust, confetti, snow, or the path of a JSON preset with CAEmitterLayer/CAEmitterCell field names"
        ),
        OptionSpec("seed", .seed, "N", default: "1", "random seed; the same seed gives the same output"),
        OptionSpec("fps", .integer(1...240), "N", default: "30", "frames per second"),
        OptionSpec("density", .number(0...1000), "D", default: "20", "particles per grapheme per second"),
        OptionSpec(
            "duration", .number(0...600), "S", default: "2",
            "seconds of animation (json, ansi, cast), or of the SVG loop"),
        OptionSpec("at", .number(0...3600), "S", "the time of a still frame, for svg and ansi; left out: 0"),
        OptionSpec(
            "reveal-at", .number(0...3600), "S",
            "reveal at S seconds: the word under --reveal-origin, or every word from its own centre when no origin is given"
        ),
        OptionSpec(
            "reveal-origin", .text(form: "X,Y in pixels (like 30,8)"), "X,Y",
            "the click, in pixels from the top-left (default: the word's centre)"),
        OptionSpec(
            "reveal-scope", .choice(RevealScope.allCases.map(\.rawValue)), "S", default: "spoiler",
            "what one reveal uncovers (spoiler: every word of the clicked spoiler)"),
        OptionSpec(
            "rehide-after", .number(0...86_400), "S",
            "hide a revealed word again S seconds after its reveal, over 0.4 s"),
        .flag(
            "celebrate",
            "when the last hidden word is revealed, confetti falls over the whole view for the preset's lifetime (render: from the last reveal in the timeline; html: over the browser window); with reduced motion (--reduced-motion, REDUCED_MOTION=1, or a browser asking for it) none, and nothing in its place"
        ),
        OptionSpec(
            "stage", .text(form: "WIDTHxHEIGHT in pixels, each from 1 to 10000 (like 320x240)"), "WxH",
            "render: the picture's size in pixels, margins included (ansi, cast: rounded up to whole cells); with --celebrate left out: as wide as the message and \(Celebration.defaultStageHeight) px tall"
        ),
        .flag(
            "reduced-motion",
            "a still pattern of dots with a fixed seed, and instant reveals (also when REDUCED_MOTION=1)"),
        OptionSpec(
            "color", .choice(ColorPreference.allCases.map(\.rawValue)), "C", default: "auto",
            "when to colour (auto: on a terminal, unless NO_COLOR is set or TERM=dumb; always: into pipes and files too)"
        ),
        OptionSpec(
            "glyphs", .choice(GlyphSet.allCases.map(\.rawValue)), "G", default: "braille",
            "how particles are drawn (braille: 2x4 dots a cell; blocks: half blocks)"),
        OptionSpec(
            "theme", .choice(ReaderTheme.builtInNames), "T", default: "green",
            "the reader's colours (green on near-black; none: the terminal's own, as with NO_COLOR)"),
        .flag("no-mouse", "do not ask the terminal for mouse clicks and the wheel"),
        OptionSpec(
            "output", .text(form: "a file path"), "FILE", short: "o", "write to FILE instead of standard output"),
        .flag("help", short: "h", "show this help"),
    ]

    /// The entries by name.
    static let byName: [String: OptionSpec] = Dictionary(uniqueKeysWithValues: entries.map { ($0.name, $0) })

    /// The entry for `name`; a name that is not in the table is a programming error.
    static func spec(_ name: String) -> OptionSpec {
        guard let spec = byName[name] else { preconditionFailure("'--\(name)' is not in OptionTable.entries") }
        return spec
    }
}
