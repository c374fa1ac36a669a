/// A point in pixels; the origin is the top-left corner, y grows downward.
public struct SpoilerPoint: Sendable, Hashable {
    public var x: Double
    public var y: Double
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}

/// A size in pixels.
public struct SpoilerSize: Sendable, Hashable {
    public var width: Double
    public var height: Double
    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }
}

/// An axis-aligned rectangle in pixels; the origin is its top-left corner, y grows downward.
public struct SpoilerRect: Sendable, Hashable {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    public var minX: Double { x }
    public var minY: Double { y }
    public var maxX: Double { x + width }
    public var maxY: Double { y + height }
    public var center: SpoilerPoint { SpoilerPoint(x: x + width / 2, y: y + height / 2) }

    /// Whether `p` lies inside (the top and left edges included, bottom and right excluded).
    public func contains(_ p: SpoilerPoint) -> Bool {
        p.x >= minX && p.x < maxX && p.y >= minY && p.y < maxY
    }

    /// The rectangle shrunk by `d` on every side (never below zero size).
    public func insetBy(_ d: Double) -> SpoilerRect {
        let w = max(0, width - 2 * d)
        let h = max(0, height - 2 * d)
        return SpoilerRect(x: x + (width - w) / 2, y: y + (height - h) / 2, width: w, height: h)
    }
}
