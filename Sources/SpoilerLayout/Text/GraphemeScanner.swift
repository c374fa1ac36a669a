internal import CUTF8Proc

/// One grapheme cluster found by ``GraphemeScanner``.
struct ScannedGrapheme {
    /// One past its last UTF-8 byte.
    var end: Int
    /// Its length in UTF-16 code units.
    var utf16Length: Int
    var kind: GraphemeKind
    /// Cells it takes in the `mono` model (tab and newline: 0, resolved by the breaker).
    var columns: Int
    /// Its first scalar, or for `.control` the stand-in scalar from ``ControlPictures``.
    var base: UInt32
    /// How many scalars it has.
    var scalarCount: Int
}

/// Finds grapheme clusters in UTF-8 bytes and measures them as terminals do.
///
/// Cluster boundaries come from utf8proc's `utf8proc_grapheme_break_stateful` (UAX #29 as
/// of Unicode 15, without the Indic conjunct rule GB9c). Widths come from
/// `utf8proc_charwidth` (East Asian Width, with emoji presentation characters wide) applied
/// to the cluster's first scalar, so combining marks, ZWJ, variation selectors and emoji
/// modifiers inside a cluster add nothing and a ZWJ sequence counts once. Two adjustments
/// follow what emoji-aware terminals do: a pair of regional indicators (a flag) takes
/// 2 cells, and a text-default pictograph or keycap base followed by VS16 (U+FE0F, emoji
/// presentation) takes 2 cells.
enum GraphemeScanner {
    /// Decodes the scalar at `i` of valid UTF-8 `p`: its value and byte length.
    @inline(__always)
    static func decode(_ p: UnsafeBufferPointer<UInt8>, _ i: Int) -> (UInt32, Int) {
        let b0 = UInt32(p[i])
        if b0 < 0x80 { return (b0, 1) }
        if b0 < 0xE0 { return ((b0 & 0x1F) << 6 | UInt32(p[i + 1]) & 0x3F, 2) }
        if b0 < 0xF0 {
            return ((b0 & 0x0F) << 12 | (UInt32(p[i + 1]) & 0x3F) << 6 | UInt32(p[i + 2]) & 0x3F, 3)
        }
        return (
            (b0 & 0x07) << 18 | (UInt32(p[i + 1]) & 0x3F) << 12 | (UInt32(p[i + 2]) & 0x3F) << 6
                | UInt32(p[i + 3]) & 0x3F, 4
        )
    }

    /// Decodes the scalar at `i` of the first `n` bytes of `p`, which may not be valid
    /// UTF-8: its value and byte length, or nil when the bytes from `i` on start no scalar
    /// of valid UTF-8 (a continuation byte, C0, C1 or F5 to FF, a sequence cut short or
    /// past `n`, an overlong form, a surrogate, a value past U+10FFFF). It reads nothing at
    /// or past `n`.
    @inline(__always)
    static func decodeChecked(_ p: UnsafeBufferPointer<UInt8>, _ i: Int, count n: Int) -> (UInt32, Int)? {
        let b0 = UInt32(p[i])
        if b0 < 0x80 { return (b0, 1) }
        @inline(__always) func continuation(_ k: Int) -> UInt32? {
            let b = p[i &+ k]
            return b & 0xC0 == 0x80 ? UInt32(b & 0x3F) : nil
        }
        if b0 < 0xC2 { return nil }
        if b0 < 0xE0 {
            guard i &+ 1 < n, let b1 = continuation(1) else { return nil }
            return ((b0 & 0x1F) << 6 | b1, 2)
        }
        if b0 < 0xF0 {
            guard i &+ 2 < n, let b1 = continuation(1), let b2 = continuation(2) else { return nil }
            let c = (b0 & 0x0F) << 12 | b1 << 6 | b2
            guard c >= 0x800, c & 0xF800 != 0xD800 else { return nil }
            return (c, 3)
        }
        guard b0 < 0xF5, i &+ 3 < n, let b1 = continuation(1), let b2 = continuation(2), let b3 = continuation(3)
        else { return nil }
        let c = (b0 & 0x07) << 18 | b1 << 12 | b2 << 6 | b3
        guard c >= 0x10000, c <= 0x10FFFF else { return nil }
        return (c, 4)
    }

    /// The grapheme cluster that starts at byte `start` of valid UTF-8 `p`.
    ///
    /// It looks no further than byte `n`. `table` is ``BMPInfo/table``, passed in so that a loop reads the global once.
    static func scan(
        _ p: UnsafeBufferPointer<UInt8>, from start: Int, to n: Int, table: UnsafeBufferPointer<UInt8>
    ) -> ScannedGrapheme {
        let (first, len) = decode(p, start)
        let j = start + len
        // A scalar that starts a cluster alone (boundary class Other,
        // Extended_Pictographic, LV or LVT, and not a control) ends it at the first scalar
        // after it that is not Extend or SpacingMark (UAX #29 GB9, GB9a; GB11 needs a ZWJ,
        // and RI pairs an RI first). Such a cluster, without a ZWJ, VS16 or a jamo after a
        // syllable (GB7, GB8), measures as its first scalar alone. The facts come from
        // utf8proc, cached per scalar in `BMPInfo`. A cluster that starts with a pictograph
        // or a regional indicator goes through `scanEmoji`; anything else through utf8proc.
        let firstInfo = BMPInfo.info(of: first, in: table)
        if firstInfo & BMPInfo.startsAlone != 0 {
            var k = j
            var utf16 = first > 0xFFFF ? 2 : 1
            var count = 1
            var simple = true
            while k < n && p[k] >= 0x80 {
                let (d, dl) = decode(p, k)
                guard let dIndex = BMPInfo.index(of: d) else {
                    simple = false
                    break
                }
                if table[dIndex] & BMPInfo.extends == 0 {
                    // A vowel or final jamo after a Hangul syllable joins it.
                    if first >= 0xAC00 && first <= 0xD7A3
                        && ((d >= 0x1160 && d <= 0x11FF) || (d >= 0xD7B0 && d <= 0xD7FF))
                    {
                        simple = false
                    }
                    break
                }
                if d == 0x200D || d == 0xFE0F {
                    simple = false
                    break
                }
                k += dl
                utf16 += d > 0xFFFF ? 2 : 1
                count += 1
            }
            if simple {
                return ScannedGrapheme(
                    end: k, utf16Length: utf16,
                    kind: unsafeBitCast(firstInfo & BMPInfo.kindMask, to: GraphemeKind.self),
                    columns: Int(firstInfo >> 4 & 0x03), base: first, scalarCount: count)
            }
        }
        // An emoji: its ZWJ sequences and flags are found here as utf8proc finds them.
        if firstInfo & BMPInfo.pictographic != 0 || isRegionalIndicator(first),
            let g = scanEmoji(p, from: start, first: first, firstLength: len, to: n, table: table)
        {
            return g
        }
        return scanWithUTF8Proc(p, from: start, to: n)
    }

    /// The grapheme cluster that starts at byte `start` of valid UTF-8 `p`, looking no
    /// further than byte `n`, found with utf8proc's stateful break: what ``scan(_:from:to:table:)``
    /// gives, the reference its shortcuts are tested against.
    static func scanWithUTF8Proc(_ p: UnsafeBufferPointer<UInt8>, from start: Int, to n: Int) -> ScannedGrapheme {
        var (c, len) = decode(p, start)
        let first = c
        var j = start + len
        var utf16 = c > 0xFFFF ? 2 : 1
        var count = 1
        var hasVS16 = false
        var regionalIndicators = isRegionalIndicator(first) ? 1 : 0
        var state: Int32 = 0
        while j < n {
            let (d, dl) = decode(p, j)
            if utf8proc_grapheme_break_stateful(Int32(bitPattern: c), Int32(bitPattern: d), &state) { break }
            if d == 0xFE0F { hasVS16 = true }
            if isRegionalIndicator(d) { regionalIndicators += 1 }
            c = d
            j += dl
            utf16 += d > 0xFFFF ? 2 : 1
            count += 1
        }
        var g = ScannedGrapheme(
            end: j, utf16Length: utf16, kind: .other, columns: 1, base: first, scalarCount: count)
        classify(&g, hasVS16: hasVS16, regionalIndicators: regionalIndicators)
        return g
    }

    /// The cluster that starts at byte `start` of `p` with `first` (`firstLength` bytes),
    /// an Extended_Pictographic scalar or a regional indicator, as
    /// ``scanWithUTF8Proc(_:from:to:)`` finds it, without utf8proc's break function: its
    /// state machine for these (UAX #29 GB9, GB9a, GB11, GB12, GB13) over the table's facts.
    /// Nil, for the caller to ask utf8proc, when a scalar after it is outside the table.
    static func scanEmoji(
        _ p: UnsafeBufferPointer<UInt8>, from start: Int, first: UInt32, firstLength: Int, to n: Int,
        table: UnsafeBufferPointer<UInt8>
    ) -> ScannedGrapheme? {
        /// utf8proc's state: EXTENDED_PICTOGRAPHIC (a pictograph and Extend scalars after
        /// it), E_ZWG (those and a ZWJ), REGIONAL_INDICATOR (one indicator alone), or
        /// another class, after which only Extend, ZWJ and SpacingMark join.
        enum State { case pictographic, pictographicZWJ, indicator, other }
        var state: State = isRegionalIndicator(first) ? .indicator : .pictographic
        var k = start + firstLength
        var utf16 = first > 0xFFFF ? 2 : 1
        var count = 1
        var hasVS16 = false
        var regionalIndicators = state == .indicator ? 1 : 0
        // No ASCII scalar joins a cluster (GB5, GB999).
        while k < n && p[k] >= 0x80 {
            let (d, dl) = decode(p, k)
            guard let dIndex = BMPInfo.index(of: d) else { return nil }
            let info = table[dIndex]
            if info & BMPInfo.extends != 0 {
                // Extend, ZWJ or SpacingMark: joins (GB9, GB9a). After a pictograph, Extend
                // keeps it one and a ZWJ waits for the next (GB11); anything else ends that.
                if d == 0x200D {
                    state = state == .pictographic ? .pictographicZWJ : .other
                } else if state == .pictographic {
                    let isExtend =
                        d == 0xFE0F || (d >= 0x1F3FB && d <= 0x1F3FF) || (d >= 0x0300 && d <= 0x036F)
                        || utf8proc_get_property(Int32(bitPattern: d)).pointee.boundclass
                            == UTF8PROC_BOUNDCLASS_EXTEND.rawValue
                    if !isExtend { state = .other }
                } else {
                    state = .other
                }
                if d == 0xFE0F { hasVS16 = true }
            } else if state == .pictographicZWJ && info & BMPInfo.pictographic != 0 {
                state = .pictographic
            } else if state == .indicator && isRegionalIndicator(d) {
                state = .other
                regionalIndicators += 1
            } else {
                break
            }
            k += dl
            utf16 += d > 0xFFFF ? 2 : 1
            count += 1
        }
        var g = ScannedGrapheme(end: k, utf16Length: utf16, kind: .other, columns: 1, base: first, scalarCount: count)
        classify(&g, hasVS16: hasVS16, regionalIndicators: regionalIndicators)
        return g
    }

    /// Facts about every scalar of the Basic Multilingual Plane and of U+1F000 to U+1FFFF
    /// (the emoji), from utf8proc (recorded at build time, or derived once per process,
    /// about 3 ms, when the utf8proc at hand is another version): bits 0–2 the
    /// ``GraphemeKind`` of the scalar alone (``kindMask``), bit 3 ``pictographic``, bits
    /// 4–5 its cells, bit 6 ``startsAlone``, bit 7 ``extends``. ``index(of:)`` gives a
    /// scalar's place in ``table``.
    enum BMPInfo {
        /// The bits of the ``GraphemeKind``.
        static let kindMask: UInt8 = 0x07
        /// The scalar's boundary class is Extended_Pictographic (UAX #29 GB11).
        static let pictographic: UInt8 = 1 << 3
        /// The scalar's boundary class is Other, Extended_Pictographic or a Hangul syllable
        /// (LV, LVT) and it is not a control: it forms a cluster alone unless an extending
        /// scalar follows (or, after a syllable, a vowel or final jamo: UAX #29 GB7, GB8).
        static let startsAlone: UInt8 = 1 << 6
        /// The scalar's boundary class is Extend, ZWJ or SpacingMark: it joins the cluster
        /// before it (UAX #29 GB9, GB9a).
        static let extends: UInt8 = 1 << 7

        /// The first scalar of the emoji plane kept after the BMP's.
        static let emojiStart: UInt32 = 0x1F000

        /// Where the facts about `v` are in ``table``, or nil when they are not kept.
        @inline(__always)
        static func index(of v: UInt32) -> Int? {
            if v < 0x10000 { return Int(v) }
            let e = v &- emojiStart
            return e < 0x1000 ? 0x10000 + Int(e) : nil
        }

        /// The facts about `v` from `table`, or 0 (none of the bits) when they are not kept.
        @inline(__always)
        static func info(of v: UInt32, in table: UnsafeBufferPointer<UInt8>) -> UInt8 {
            guard let k = index(of: v) else { return 0 }
            return table[k]
        }

        /// The facts, from the table recorded at build time (``recorded``) when the
        /// utf8proc the process runs with is the one it was recorded from, else derived.
        static let table: [UInt8] = recorded(utf8procVersion: String(cString: utf8proc_version())) ?? derived()

        /// The facts derived from utf8proc, scalar by scalar (about 14 M instructions).
        static func derived() -> [UInt8] {
            (0..<0x11000).map(derive)
        }

        /// The facts about the scalar at place `k` of ``table``, from utf8proc.
        static func derive(_ k: Int) -> UInt8 {
            let v = k < 0x10000 ? k : Int(emojiStart) + k - 0x10000
            if v >= 0xD800 && v <= 0xDFFF { return 0 }
            let bc = Int(utf8proc_get_property(Int32(v)).pointee.boundclass)
            var g = ScannedGrapheme(end: 0, utf16Length: 1, kind: .other, columns: 1, base: UInt32(v), scalarCount: 1)
            classify(&g, hasVS16: false, regionalIndicators: 0)
            var info = g.kind.rawValue | UInt8(min(2, g.columns)) << 4
            if (bc == Int(UTF8PROC_BOUNDCLASS_OTHER.rawValue)
                || bc == Int(UTF8PROC_BOUNDCLASS_EXTENDED_PICTOGRAPHIC.rawValue)
                || bc == Int(UTF8PROC_BOUNDCLASS_LV.rawValue) || bc == Int(UTF8PROC_BOUNDCLASS_LVT.rawValue))
                && g.kind != .control
                && g.kind != .newline
            {
                info |= startsAlone
            }
            if bc == Int(UTF8PROC_BOUNDCLASS_EXTENDED_PICTOGRAPHIC.rawValue) {
                info |= pictographic
            }
            if bc == Int(UTF8PROC_BOUNDCLASS_EXTEND.rawValue) || bc == Int(UTF8PROC_BOUNDCLASS_ZWJ.rawValue)
                || bc == Int(UTF8PROC_BOUNDCLASS_SPACINGMARK.rawValue)
            {
                info |= extends
            }
            return info
        }
    }

    /// Whether the four bytes at `p`, which may not be valid UTF-8, are a regional
    /// indicator (U+1F1E6 to U+1F1FF: F0 9F 87 A6 to F0 9F 87 BF).
    @inline(__always)
    static func isRegionalIndicator(bytes p: UnsafePointer<UInt8>) -> Bool {
        p[0] == 0xF0 && p[1] == 0x9F && p[2] == 0x87 && p[3] &- 0xA6 < 0x1A
    }

    @inline(__always)
    static func isRegionalIndicator(_ c: UInt32) -> Bool { c >= 0x1F1E6 && c <= 0x1F1FF }

    /// Sets the kind and width of a cluster from its first scalar `g.base`.
    static func classify(_ g: inout ScannedGrapheme, hasVS16: Bool, regionalIndicators: Int) {
        let first = g.base
        switch first {
        case 0x0A, 0x0D, 0x85, 0x2028, 0x2029:
            g.kind = .newline
            g.columns = 0
            return
        case 0x09:
            g.kind = .tab
            g.columns = 0
            return
        case 0x20, 0x1680, 0x2000...0x2006, 0x2008...0x200A, 0x205F:
            g.kind = .space
            g.columns = 1
            return
        case 0x3000:
            g.kind = .space
            g.columns = 2
            return
        case 0xA0, 0x2007, 0x202F:
            g.kind = .glue
            g.columns = 1
            return
        default:
            break
        }
        if let picture = ControlPictures.picture(for: first) {
            g.kind = .control
            g.columns = 1
            g.base = picture.value
            return
        }
        let scalar = Int32(bitPattern: first)
        var width = Int(utf8proc_charwidth(scalar))
        if width == 0 && utf8proc_category(scalar) == UTF8PROC_CATEGORY_CF {
            g.kind = .format
            g.columns = 0
            return
        }
        if width == 1 && g.scalarCount > 1 {
            if regionalIndicators >= 2 {
                width = 2
            } else if hasVS16 {
                let isKeycapBase = first == 0x23 || first == 0x2A || (first >= 0x30 && first <= 0x39)
                if isKeycapBase
                    || utf8proc_get_property(scalar).pointee.boundclass
                        == UTF8PROC_BOUNDCLASS_EXTENDED_PICTOGRAPHIC.rawValue
                {
                    width = 2
                }
            }
        }
        g.columns = width
        g.kind = width >= 2 ? .wide : .other
    }
}
