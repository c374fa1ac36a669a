/// Decodes the bytes a terminal sends (keys, xterm escape sequences, SGR mouse reports)
/// into ``InputEvent``s, across reads.
///
/// A sequence cut in two by a read waits in the decoder for the rest (termbox's
/// `TB_ERR_NEED_MORE`), so however the input is split into chunks, the events are the
/// same: `feed` every chunk, then ``finish()`` when no more input is coming soon (the
/// player calls it after a short pause), which turns a lone ESC into ``TerminalKey/escape``.
///
/// Recognised: `CSI A/B/C/D/H/F/Z` and `SS3 A/B/C/D/H/F` (cursor and application
/// mode), `CSI n ~` (Home, End, Delete, PgUp, PgDn), SGR mouse reports
/// `CSI < b ; x ; y M/m` (xterm mode 1006), focus reports `CSI I` and `CSI O` (mode
/// 1004), legacy `CSI M b x y` reports (consumed),
/// C0 controls, and UTF-8 characters. Any other complete CSI sequence becomes
/// ``InputEvent/unknown``; a CSI with no final byte within 64 bytes is not a sequence:
/// its ESC is dropped and the rest read as characters.
///
/// - Complexity: O(n) over the bytes fed.
public struct InputDecoder: Sendable {
    private var pending: [UInt8] = []
    /// The longest CSI sequence accepted.
    static let maxSequence = 64
    /// How many bytes the decoding steps have looked at: an event's bytes once, and an
    /// incomplete sequence's (at most ``maxSequence``) again on each read until it is
    /// complete. The operation count behind the O(n) claim, which the tests measure.
    package private(set) var examinedBytes = 0

    /// A decoder with no bytes pending.
    public init() {}

    /// Whether bytes are waiting for the rest of a sequence.
    public var hasPending: Bool { !pending.isEmpty }

    /// Decodes `bytes` (after anything pending) and returns the complete events.
    public mutating func feed(_ bytes: some Sequence<UInt8>) -> [InputEvent] {
        pending.append(contentsOf: bytes)
        return decode(final: false)
    }

    /// Decodes what is pending as if no more input followed.
    public mutating func finish() -> [InputEvent] {
        decode(final: true)
    }

    private enum Step {
        case event(InputEvent?, consumed: Int)
        case needMore
    }

    private mutating func decode(final: Bool) -> [InputEvent] {
        var events: [InputEvent] = []
        var i = 0
        let bytes = pending
        while i < bytes.count {
            switch step(bytes, at: i, final: final) {
            case .needMore:
                examinedBytes += bytes.count - i
                pending.removeFirst(i)
                return events
            case .event(let e, let n):
                examinedBytes += n
                if let e { events.append(e) }
                i += n
            }
        }
        pending.removeAll(keepingCapacity: true)
        return events
    }

    private func step(_ b: [UInt8], at i: Int, final: Bool) -> Step {
        let byte = b[i]
        switch byte {
        case 0x1B:
            guard i + 1 < b.count else { return final ? .event(.key(.escape), consumed: 1) : .needMore }
            let next = b[i + 1]
            if next == UInt8(ascii: "[") { return csi(b, at: i, final: final) }
            if next == UInt8(ascii: "O") {
                guard i + 2 < b.count else { return final ? .event(.key(.escape), consumed: 1) : .needMore }
                let key: TerminalKey? =
                    switch b[i + 2] {
                    case UInt8(ascii: "A"): .up
                    case UInt8(ascii: "B"): .down
                    case UInt8(ascii: "C"): .right
                    case UInt8(ascii: "D"): .left
                    case UInt8(ascii: "H"): .home
                    case UInt8(ascii: "F"): .end
                    default: nil
                    }
                return .event(key.map { .key($0) } ?? .unknown, consumed: 3)
            }
            // ESC then anything else: a lone Escape; the next byte is read on its own.
            return .event(.key(.escape), consumed: 1)
        case 0x0D, 0x0A: return .event(.key(.enter), consumed: 1)
        case 0x09: return .event(.key(.tab), consumed: 1)
        case 0x7F, 0x08: return .event(.key(.backspace), consumed: 1)
        case 0x00: return .event(.key(.control(" ")), consumed: 1)
        case 0x01...0x1A:
            return .event(.key(.control(Character(Unicode.Scalar(byte + 0x60)))), consumed: 1)
        case 0x1C...0x1F: return .event(.unknown, consumed: 1)
        case 0x20...0x7E: return .event(.key(.character(Character(Unicode.Scalar(byte)))), consumed: 1)
        default: return utf8(b, at: i, final: final)
        }
    }

    private func utf8(_ b: [UInt8], at i: Int, final: Bool) -> Step {
        let lead = b[i]
        let length: Int
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0...0xEF: length = 3
        case 0xF0...0xF4: length = 4
        default: return .event(.unknown, consumed: 1)
        }
        var n = 1
        while n < length {
            guard i + n < b.count else { return final ? .event(.unknown, consumed: n) : .needMore }
            guard b[i + n] & 0xC0 == 0x80 else { return .event(.unknown, consumed: n) }
            n += 1
        }
        let s = String(validating: b[i..<i + length], as: UTF8.self)
        guard let s, let c = s.first, s.count == 1 else { return .event(.unknown, consumed: length) }
        return .event(.key(.character(c)), consumed: length)
    }

    private func csi(_ b: [UInt8], at i: Int, final: Bool) -> Step {
        // b[i] = ESC, b[i+1] = '['.
        if i + 2 < b.count && b[i + 2] == UInt8(ascii: "M") {
            // Legacy X10/normal mouse report: three more raw bytes.
            guard i + 5 < b.count else { return final ? .event(.unknown, consumed: b.count - i) : .needMore }
            return .event(.unknown, consumed: 6)
        }
        var j = i + 2
        while j < b.count {
            let c = b[j]
            if c >= 0x40 && c <= 0x7E { break }
            if c < 0x20 || c > 0x3F || j - i >= InputDecoder.maxSequence {
                // Not a well-formed sequence: drop the ESC, read the rest as characters.
                return .event(.unknown, consumed: 1)
            }
            j += 1
        }
        // The input ends before a final byte: at most maxSequence bytes are pending (a
        // parameter byte past them was refused above), and the next may still end it.
        guard j < b.count else { return final ? .event(.unknown, consumed: b.count - i) : .needMore }
        let params = b[(i + 2)..<j]
        let finalByte = b[j]
        let consumed = j - i + 1
        if params.first == UInt8(ascii: "<") && (finalByte == UInt8(ascii: "M") || finalByte == UInt8(ascii: "m")) {
            return .event(sgrMouse(params.dropFirst(), release: finalByte == UInt8(ascii: "m")), consumed: consumed)
        }
        if params.isEmpty && finalByte == UInt8(ascii: "I") { return .event(.focus(true), consumed: consumed) }
        if params.isEmpty && finalByte == UInt8(ascii: "O") { return .event(.focus(false), consumed: consumed) }
        let numbers = Self.numbers(params)
        let key: TerminalKey? =
            switch finalByte {
            case UInt8(ascii: "A"): .up
            case UInt8(ascii: "B"): .down
            case UInt8(ascii: "C"): .right
            case UInt8(ascii: "D"): .left
            case UInt8(ascii: "H"): .home
            case UInt8(ascii: "F"): .end
            case UInt8(ascii: "Z"): .backTab
            case UInt8(ascii: "~"):
                switch numbers.first ?? 0 {
                case 1, 7: .home
                case 4, 8: .end
                case 3: .delete
                case 5: .pageUp
                case 6: .pageDown
                default: nil
                }
            default: nil
            }
        return .event(key.map { .key($0) } ?? .unknown, consumed: consumed)
    }

    private func sgrMouse(_ params: ArraySlice<UInt8>, release: Bool) -> InputEvent {
        let n = Self.numbers(params)
        guard n.count == 3, n[1] >= 1, n[2] >= 1 else { return .unknown }
        let code = n[0]
        let button = code & 3
        let kind: MouseEvent.Kind
        if code & 64 != 0 {
            kind = button == 0 ? .wheelUp : .wheelDown
        } else if release {
            kind = .release
        } else if code & 32 != 0 {
            kind = .drag
        } else {
            kind = .press
        }
        return .mouse(MouseEvent(kind: kind, button: button, column: n[1] - 1, row: n[2] - 1))
    }

    /// The `;`-separated decimal parameters (capped, so no overflow).
    private static func numbers(_ params: ArraySlice<UInt8>) -> [Int] {
        var out: [Int] = []
        var current = 0
        var any = false
        for c in params {
            if c >= 0x30 && c <= 0x39 {
                current = min(current * 10 + Int(c - 0x30), 1_000_000)
                any = true
            } else if c == UInt8(ascii: ";") {
                out.append(current)
                current = 0
                any = false
            }
        }
        if any || !out.isEmpty { out.append(current) }
        return out
    }
}
