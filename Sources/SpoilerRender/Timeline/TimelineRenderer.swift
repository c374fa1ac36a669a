import SpoilerCore
public import SpoilerEffect
public import SpoilerLayout

/// Writes the effect as a JSON frame timeline (SPEC §5): a compact document a web, game
/// or app developer can play back, with columnar arrays per frame.
///
/// ```json
/// {"fps":30,"duration":2,"seed":1,"preset":"dust","width":96,"height":16,
///  "words":[{"x":24,"y":0,"width":48,"height":16,"graphemes":6}],
///  "frames":[{"t":0.0333,"reveal":[null],
///             "particles":{"word":[0,…],"x":[25.31,…],"y":[3.5,…],"size":[1,…],
///                          "alpha":[0.412,…],"color":["#8e8e93",…]}}]}
/// ```
///
/// Frames are at `t = k / fps` for `k = 1 … round(duration × fps)`, in seconds from the
/// start (the cloud is already settled at 0). `reveal` holds, per word, the reveal
/// circle's radius in pixels, or null while the word is hidden. `particles` lists the
/// particles that show (opacity above zero): the word index, the centre in pixels
/// (origin top-left, y down), the diameter in pixels, the opacity 0…1 and the colour.
/// Numbers: `t` with 4 decimals, pixels with 2, opacity with 3, trailing zeros dropped.
/// No word's text appears anywhere in the timeline.
public enum TimelineRenderer {
    /// Appends the timeline of `scene` (at time 0) to `out`, stepping the scene through
    /// `duration` seconds at `fps` frames per second.
    ///
    /// - Parameters:
    ///   - scene: a scene made from `layout`, at time 0, with its reveals scheduled.
    ///   - layout: the laid-out message (only its size and word boxes are written).
    ///   - fps: frames per second, at least 1.
    ///   - duration: seconds, at least 0.
    ///   - out: the JSON (one line, no trailing newline) is appended here.
    /// - Complexity: O(frames × particles).
    public static func render(
        scene: inout SpoilerScene, layout: TextLayout, fps: Int, duration: Double, into out: inout [UInt8]
    ) {
        let fps = max(fps, 1)
        let duration = max(duration.isFinite ? duration : 0, 0)
        let frameCount = Int((duration * Double(fps)).rounded())
        var w = JSONWriter()
        w.bytes = out
        out = []
        var visible = VisibleParticles()
        w.object { w in
            w.key("fps"); w.number(fps)
            w.key("duration"); w.number(duration, decimals: 4)
            w.key("seed"); w.number(scene.seed)
            w.key("preset"); w.string(scene.preset.name)
            w.key("width"); w.number(layout.width)
            w.key("height"); w.number(layout.height)
            w.key("words")
            w.array { w in
                for box in layout.words {
                    w.object { w in
                        w.key("x"); w.number(box.rect.x, decimals: 2)
                        w.key("y"); w.number(box.rect.y, decimals: 2)
                        w.key("width"); w.number(box.rect.width, decimals: 2)
                        w.key("height"); w.number(box.rect.height, decimals: 2)
                        w.key("graphemes"); w.number(box.graphemes)
                    }
                }
            }
            w.key("frames")
            w.array { w in
                for k in 1..<(frameCount + 1) {
                    let t = Double(k) / Double(fps)
                    scene.advance(to: t)
                    scene.visibleParticles(into: &visible)
                    frame(&w, t: t, scene: scene, visible: visible)
                }
            }
        }
        out = w.bytes
    }

    static func frame(_ w: inout JSONWriter, t: Double, scene: SpoilerScene, visible: VisibleParticles) {
        w.object { w in
            w.key("t"); w.number(t, decimals: 4)
            w.key("reveal")
            w.array { w in
                for i in scene.words.indices {
                    if let r = scene.revealRadius(word: i) { w.number(r, decimals: 2) } else { w.null() }
                }
            }
            w.key("particles")
            w.object { w in
                w.key("word"); w.array { w in for v in visible.word { w.number(v) } }
                w.key("x"); w.array { w in for v in visible.x { w.number(Double(v), decimals: 2) } }
                w.key("y"); w.array { w in for v in visible.y { w.number(Double(v), decimals: 2) } }
                w.key("size"); w.array { w in for v in visible.size { w.number(Double(v), decimals: 2) } }
                w.key("alpha"); w.array { w in for v in visible.alpha { w.number(Double(v), decimals: 3) } }
                w.key("color")
                w.array { w in
                    for v in visible.color {
                        w.string(
                            RGBColor(red: UInt8(v >> 16 & 0xFF), green: UInt8(v >> 8 & 0xFF), blue: UInt8(v & 0xFF))
                                .hexString)
                    }
                }
            }
        }
    }
}
