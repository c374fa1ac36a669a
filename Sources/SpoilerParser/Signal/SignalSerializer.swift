import SpoilerCore

/// Writes a ``Message`` in signal-cli's JSON (`--to signal`):
/// `{"message":…,"textStyles":[{"style":"SPOILER","start":11,"length":6}]}`, as signal-cli's
/// `JsonTextStyle` record writes a received message's body ranges.
///
/// `bold`, `italic`, `strikethrough` and `spoiler` keep their names; `code` and `pre` are
/// `MONOSPACE`. Signal's ranges may overlap in any way, so nothing is split. Signal has no
/// underline, links, quotations, language of a code block or spoiler reasons: those are left
/// out (their text is kept).
enum SignalSerializer {
    static func serialize(_ message: Message) -> String {
        var w = JSONWriter()
        w.object { w in
            w.key("message"); w.string(message.text)
            w.key("textStyles")
            w.array { w in
                for e in EntityNesting.validEntities(of: message) {
                    let style: String
                    switch e.type {
                    case .bold: style = "BOLD"
                    case .italic: style = "ITALIC"
                    case .strikethrough: style = "STRIKETHROUGH"
                    case .code, .pre: style = "MONOSPACE"
                    case .spoiler: style = "SPOILER"
                    default: continue
                    }
                    w.object { w in
                        w.key("style"); w.string(style)
                        w.key("start"); w.number(e.offset)
                        w.key("length"); w.number(e.length)
                    }
                }
            }
        }
        return w.string
    }
}
