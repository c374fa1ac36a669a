import SpoilerCore

/// Per entity type a container can open, how many are open (no allocation).
struct OpenCounts {
    private var counts: (Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0)

    subscript(slot: Int) -> Int {
        get {
            switch slot {
            case 0: return counts.0
            case 1: return counts.1
            case 2: return counts.2
            case 3: return counts.3
            case 4: return counts.4
            case 5: return counts.5
            default: return counts.6
            }
        }
        set {
            switch slot {
            case 0: counts.0 = newValue
            case 1: counts.1 = newValue
            case 2: counts.2 = newValue
            case 3: counts.3 = newValue
            case 4: counts.4 = newValue
            case 5: counts.5 = newValue
            default: counts.6 = newValue
            }
        }
    }
}

/// An entity while the text is being written: its type, UTF-16 offset and length, and its
/// URL (`text_link`) or language (`pre`).
struct PendingEntity {
    var type: EntityType
    var offset: Int
    var length: Int
    var extra: String?
}
