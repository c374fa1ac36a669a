/// A point in pixels; the origin is the top-left corner, y grows downward.
///
/// Codable as `{"x": …, "y": …}`.
public struct SpoilerPoint: Sendable, Hashable, Codable {
    /// Pixels from the left edge.
    public var x: Double
    /// Pixels from the top edge, downward.
    public var y: Double
    /// A point `x` pixels right of and `y` pixels below the origin.
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}

/// A size in pixels.
///
/// Codable as `{"width": …, "height": …}`.
public struct SpoilerSize: Sendable, Hashable, Codable {
    /// The horizontal extent in pixels.
    public var width: Double
    /// The vertical extent in pixels.
    public var height: Double
    /// A size of `width` × `height` pixels.
    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }
}

/// An axis-aligned rectangle in pixels; the origin is its top-left corner, y grows downward.
///
/// Codable as `{"x": …, "y": …, "width": …, "height": …}`, the keys of the geometry JSON.
public struct SpoilerRect: Sendable, Hashable, Codable {
    /// The left edge, in pixels from the origin.
    public var x: Double
    /// The top edge, in pixels from the origin, downward.
    public var y: Double
    /// The width in pixels.
    public var width: Double
    /// The height in pixels.
    public var height: Double

    /// The rectangle whose top-left corner is (`x`, `y`), `width` × `height` pixels.
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The left edge (``x``).
    public var minX: Double { x }
    /// The top edge (``y``).
    public var minY: Double { y }
    /// The right edge, `x + width`.
    public var maxX: Double { x + width }
    /// The bottom edge, `y + height`.
    public var maxY: Double { y + height }
    /// The point halfway across and halfway down.
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
