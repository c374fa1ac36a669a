import SpoilerCore

/// Writes an asciicast v2 recording (asciinema's file format): a header line, then one
/// event line per chunk of terminal output.
///
/// The format (github.com/asciinema/asciinema, doc/asciicast-v2.md) is newline-delimited
/// JSON: the header `{"version": 2, "width": W, "height": H, …}`, then events
/// `[time, "o", data]` with `time` in seconds from the start (non-decreasing) and `data`
/// the bytes written to the terminal, as a JSON string.
///
/// ```swift
/// var cast = AsciicastWriter(width: 80, height: 24)
/// cast.output(at: 0.0, Array("hello".utf8))
/// // cast.bytes: {"version":2,"width":80,"height":24,...}\n[0.000000,"o","hello"]\n
/// ```
public struct AsciicastWriter: Sendable {
    /// The recording so far, UTF-8.
    public private(set) var bytes: [UInt8] = []
    private var lastTime: Double = 0

    /// Starts a recording of a `width` × `height` terminal.
    ///
    /// - Parameters:
    ///   - title: shown by players, if given.
    ///   - term: the `TERM` recorded in the header's `env`.
    public init(width: Int, height: Int, title: String? = nil, term: String = "xterm-256color") {
        var w = JSONWriter()
        w.object { w in
            w.key("version")
            w.number(2)
            w.key("width")
            w.number(width)
            w.key("height")
            w.number(height)
            if let title {
                w.key("title")
                w.string(title)
            }
            w.key("env")
            w.object { w in
                w.key("TERM")
                w.string(term)
            }
        }
        bytes = w.bytes
        bytes.append(0x0A)
    }

    /// Appends an output event: `data` written to the terminal `seconds` after the start.
    ///
    /// Times earlier than the previous event's are raised to it, so the recording stays
    /// ordered. Bytes that are not valid UTF-8 are written as U+FFFD. Empty data writes nothing.
    public mutating func output(at seconds: Double, _ data: [UInt8]) {
        guard !data.isEmpty else { return }
        let t = max(lastTime, seconds.isFinite ? seconds : lastTime)
        lastTime = t
        bytes.append(UInt8(ascii: "["))
        JSONWriter.appendNumber(t, decimals: 6, to: &bytes)
        bytes.append(contentsOf: Array(#","o","#.utf8))
        JSONWriter.appendQuoted(String(decoding: data, as: UTF8.self), to: &bytes)
        bytes.append(contentsOf: [UInt8(ascii: "]"), 0x0A])
    }

    /// Passes the recording so far on to `sink` when it fills a piece, and forgets it.
    mutating func spill(to sink: PieceSink) { sink.spill(&bytes) }

    /// Passes whatever the recording holds on to `sink`, and forgets it.
    mutating func pass(to sink: PieceSink) { sink.pass(&bytes) }
}
