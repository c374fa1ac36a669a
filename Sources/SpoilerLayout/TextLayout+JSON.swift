public import SpoilerCore

extension TextLayout {
    /// Writes the geometry JSON of DESIGN.md §3: `id` (when given), `metrics`, `width`, `height`,
    /// `columns` and `rows` (mono only), `lines`, `words`.
    ///
    /// Keys come in a fixed order and numbers are integers, so the output is byte-identical
    /// run after run. Each word also carries `text` unless `redact` is set: redacted output
    /// holds no character of any hidden word (DESIGN.md §9, "hidden means absent").
    ///
    /// - Parameters:
    ///   - writer: where the object is written.
    ///   - id: the record's id as raw JSON (NDJSON runs), or nil to leave the key out.
    ///   - redact: leave out every word's `text`.
    public func writeJSON(to writer: inout JSONWriter, id: [UInt8]? = nil, redact: Bool = false) {
        writer.object { w in
            if let id {
                w.key("id")
                w.raw(id)
            }
            w.key("metrics")
            w.object { w in
                w.key("model"); w.string(metrics.model.rawValue)
                w.key("font")
                if let name = metrics.fontName { w.string(name) } else { w.null() }
                w.key("cellWidth"); w.number(metrics.cellWidth)
                w.key("cellHeight"); w.number(metrics.cellHeight)
                w.key("ascent"); w.number(metrics.ascent)
                w.key("descent"); w.number(metrics.descent)
                w.key("lineHeight"); w.number(metrics.lineHeight)
                w.key("fallbacks"); w.number(metrics.fallbacks)
            }
            w.key("width"); w.number(width)
            w.key("height"); w.number(height)
            if let columns, let rows {
                w.key("columns"); w.number(columns)
                w.key("rows"); w.number(rows)
            }
            w.key("lines")
            w.array { w in
                for line in lines {
                    w.object { w in
                        w.key("index"); w.number(line.index)
                        w.key("y"); w.number(line.y)
                        w.key("height"); w.number(line.height)
                        w.key("width"); w.number(line.width)
                        w.key("offset"); w.number(line.utf16Offset)
                        w.key("length"); w.number(line.utf16Length)
                    }
                }
            }
            w.key("words")
            w.array { w in
                for word in words {
                    w.object { w in
                        w.key("entity"); w.number(word.entity)
                        w.key("word"); w.number(word.word)
                        w.key("line"); w.number(word.line)
                        w.key("x"); w.number(word.rect.x)
                        w.key("y"); w.number(word.rect.y)
                        w.key("width"); w.number(word.rect.width)
                        w.key("height"); w.number(word.rect.height)
                        if let column = word.column, let columns = word.columns {
                            w.key("column"); w.number(column)
                            w.key("columns"); w.number(columns)
                        }
                        w.key("offset"); w.number(word.utf16Offset)
                        w.key("length"); w.number(word.utf16Length)
                        w.key("graphemes"); w.number(word.graphemes)
                        if !redact {
                            w.key("text"); w.string(word.text)
                        }
                    }
                }
            }
        }
    }

    /// The geometry JSON of ``writeJSON(to:id:redact:)`` as bytes.
    public func jsonBytes(id: [UInt8]? = nil, redact: Bool = false) -> [UInt8] {
        var w = JSONWriter()
        writeJSON(to: &w, id: id, redact: redact)
        return w.bytes
    }
}
