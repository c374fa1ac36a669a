import SpoilerEffect

extension SVGRenderer {
    /// One run's record of a loop: the samples of the elements of a range of groups (the
    /// words, then the celebration), each group's elements in the order they first show,
    /// kept within a budget by letting go of the last groups.
    ///
    /// A sample is kept as the `Float`s the scene gives (the `Double`s a ``Track`` holds
    /// are those exactly), from the element's first frame on.
    struct LoopRecord {
        /// The groups this run writes: from the first one asked for, shrunk from the end
        /// while the record is over budget (never below one group).
        private(set) var written: Range<Int>
        /// Per group of `written`, its elements in order of first showing (in the first
        /// group, those from ``firstElement`` on; in the last, those before ``elementEnd``).
        private(set) var tracks: [[LoopTrack]]
        /// The place, in order of first showing, of the first group's first element recorded:
        /// a run that goes on with a group an earlier run cut starts past its elements.
        let firstElement: Int
        /// Where the last group's elements were cut when that group alone went over the
        /// budget (the next run starts there), or nil when its elements are all recorded.
        private(set) var elementEnd: Int?
        /// Per group of `written`, each element's place in order of first showing by its key
        /// (the elements not recorded too, so that every run numbers them alike).
        private var places: [[UInt64: Int]]
        /// Per group of `written`, the bytes its record takes (about).
        private var groupBytes: [Int]
        private var bytes = 0
        private let budget: Int
        private let frames: Int
        /// The most frames an element shows in (a particle's longest life, in frames, and
        /// two more): its samples' room is made for that many at once and counted then.
        private let maxFrames: Int

        init(groups: Range<Int>, firstElement: Int = 0, frames: Int, maxFrames: Int = .max, budget: Int) {
            written = groups
            tracks = Array(repeating: [], count: groups.count)
            places = Array(repeating: [:], count: groups.count)
            groupBytes = Array(repeating: 0, count: groups.count)
            self.firstElement = firstElement
            self.budget = budget
            self.frames = frames
            self.maxFrames = max(1, maxFrames)
        }

        /// Whether this run records `group`.
        func records(_ group: Int) -> Bool { written.contains(group) }

        /// Sets frame `frame` of the element `key` of `group` from sample `i` of `visible`.
        mutating func set(group: Int, key: UInt64, frame: Int, of visible: VisibleParticles, _ i: Int) {
            // (The group may have been let go of by an element set just before.)
            guard written.contains(group) else { return }
            let g = group - written.lowerBound
            let place: Int
            if let known = places[g][key] {
                place = known
            } else {
                place = places[g].count
                places[g][key] = place
            }
            let n = place - (g == 0 ? firstElement : 0)
            guard n >= 0, g < written.count - 1 || elementEnd.map({ place < $0 }) ?? true else { return }
            if n == tracks[g].count {
                // Room for every sample the element can have, counted now: a group that
                // alone goes over the budget then stops taking elements before their
                // samples, still to come, take it far over.
                var track = LoopTrack(shape: visible.shape[i], color: visible.color[i], first: frame)
                track.samples.reserveCapacity(min(frames + 1 - frame, maxFrames) * LoopTrack.channels)
                let reserved = LoopTrack.elementBytes + track.samples.capacity * MemoryLayout<Float>.stride
                guard makeRoom(reserved, group: g) else { return }
                tracks[g].append(track)
                groupBytes[g] += reserved
                bytes += reserved
            }
            let before = tracks[g][n].samples.capacity
            tracks[g][n].set(
                frame, x: visible.x[i], y: visible.y[i], size: visible.size[i], rotation: visible.rotation[i],
                alpha: visible.alpha[i])
            let grown = (tracks[g][n].samples.capacity - before) * MemoryLayout<Float>.stride
            groupBytes[g] += grown
            bytes += grown
        }

        /// Makes room for `reserved` more bytes of group `g` (an index of `written`) within
        /// the budget: lets go of the groups after it, then of `g` itself unless it is the
        /// only one; an only group is cut before this element (unless it has none yet).
        /// False when the element is not to be recorded.
        private mutating func makeRoom(_ reserved: Int, group g: Int) -> Bool {
            while bytes + reserved > budget && written.count - 1 > g { dropLastGroup() }
            guard bytes + reserved > budget else { return true }
            if g > 0 {
                dropLastGroup()
                return false
            }
            guard tracks[0].isEmpty else {
                elementEnd = firstElement + tracks[0].count
                return false
            }
            return true
        }

        private mutating func dropLastGroup() {
            let g = written.count - 1
            bytes -= groupBytes[g]
            tracks.removeLast()
            places.removeLast()
            groupBytes.removeLast()
            written = written.lowerBound..<(written.upperBound - 1)
            elementEnd = nil
        }

        /// Lets go of the last groups while the record is over budget, keeping one; when
        /// that one alone is over, records no more of its elements than it has (one at
        /// least), and a later run goes on from there.
        mutating func keepWithinBudget() {
            while bytes > budget && written.count > 1 { dropLastGroup() }
            if bytes > budget && elementEnd == nil && written.count == 1 {
                elementEnd = firstElement + max(tracks[0].count, 1)
            }
        }
    }

    /// One element's samples, from its first frame to its last so far: per frame x, y,
    /// size, rotation, alpha and 1 when it showed (0 in a gap, where the rest is 0 too).
    struct LoopTrack {
        var shape: ParticleShape
        var color: UInt32
        var first: Int
        var samples: [Float] = []

        static let channels = 6
        /// The bytes an element takes besides its samples (about): itself, its array's
        /// header and allocation, its key in the index.
        static let elementBytes = MemoryLayout<LoopTrack>.stride + 48 + 24

        init(shape: ParticleShape, color: UInt32, first: Int) {
            self.shape = shape
            self.color = color
            self.first = first
        }

        mutating func set(_ k: Int, x: Float, y: Float, size: Float, rotation: Float, alpha: Float) {
            let i = (k - first) * Self.channels
            if samples.count <= i {
                samples.append(contentsOf: repeatElement(0, count: i + Self.channels - samples.count))
            }
            samples[i] = x
            samples[i + 1] = y
            samples[i + 2] = size
            samples[i + 3] = rotation
            samples[i + 4] = alpha
            samples[i + 5] = 1
        }

        /// The element as a ``Track`` over the loop's `frames + 1` samples.
        func expanded(word: Int, frames: Int) -> Track {
            var t = Track(word: word, shape: shape, color: color, frames: frames)
            var i = 0
            var k = first
            while i < samples.count {
                if samples[i + 5] != 0 {
                    t.set(
                        k, x: Double(samples[i]), y: Double(samples[i + 1]), size: Double(samples[i + 2]),
                        rotation: Double(samples[i + 3]), alpha: Double(samples[i + 4]))
                }
                i += Self.channels
                k += 1
            }
            return t
        }
    }
}
