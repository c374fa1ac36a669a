public import SpoilerCore

extension SpoilerScene {
    /// The word whose rectangle is nearest `point` (0 away when it contains it), or nil
    /// when the scene has no words or the nearest is farther than `maxDistance` pixels.
    ///
    /// Distances are from the point to the rectangle's edge; a tie goes to the word that
    /// comes first. A click on the space between two words of one spoiler so finds one
    /// of them.
    ///
    /// - Parameters:
    ///   - point: pixels, origin at the layout's top-left, y downward.
    ///   - maxDistance: the farthest a word may be (default: no limit).
    /// - Complexity: O(words).
    public func nearestWord(to point: SpoilerPoint, maxDistance: Double = .infinity) -> Int? {
        var best: Int?
        var bestDistance = Double.infinity
        for (i, w) in words.enumerated() {
            let r = w.rect
            let dx = max(r.minX - point.x, 0, point.x - r.maxX)
            let dy = max(r.minY - point.y, 0, point.y - r.maxY)
            let d = dx * dx + dy * dy
            if d < bestDistance {
                best = i
                bestDistance = d
                if d == 0 { break }
            }
        }
        guard let best, bestDistance.squareRoot() <= maxDistance else { return nil }
        return best
    }

    /// Schedules the reveal a renderer's `--reveal-at` asks for, at scene time `time`.
    ///
    /// With an `origin` (a click, in pixels), the word under it, or else the nearest one,
    /// is revealed with what the scope adds, the circle growing from the origin. Without
    /// one, scope `message` reveals every word at once from the first word's centre, and
    /// the other scopes reveal every word from its own centre. With `rehideAfter`, what
    /// was revealed hides again that many seconds later.
    public mutating func scheduleReveal(at time: Double, origin: SpoilerPoint? = nil, rehideAfter: Double? = nil) {
        guard !words.isEmpty else { return }
        if let origin {
            let target = nearestWord(to: origin) ?? 0
            reveal(word: target, origin: origin, at: time)
            if let r = rehideAfter { hide(word: target, at: time + r) }
        } else if options.revealScope == .message {
            revealAll(at: time)
            if let r = rehideAfter { hideAll(at: time + r) }
        } else {
            // One reveal per word (its fragments together), from its first fragment's centre.
            var fragments: [Int: [Int]] = [:]
            var order: [Int] = []
            for i in words.indices {
                if fragments[words[i].group] == nil { order.append(words[i].group) }
                fragments[words[i].group, default: []].append(i)
            }
            for g in order {
                let members = fragments[g]!
                reveal(words: members, origin: words[members[0]].rect.center, at: time)
            }
            if let r = rehideAfter { hideAll(at: time + r) }
        }
    }
}
