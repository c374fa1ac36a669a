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
        /// Per group of `written`, its elements in order of first showing.
        private(set) var tracks: [[LoopTrack]]
        /// Per group of `written`, each element's index in `tracks` by its key.
        private var index: [[UInt64: Int]]
        /// Per group of `written`, the bytes its record takes (about).
        private var groupBytes: [Int]
        private var bytes = 0
        private let budget: Int
        private let frames: Int

        init(groups: Range<Int>, frames: Int, budget: Int) {
            written = groups
            tracks = Array(repeating: [], count: groups.count)
            index = Array(repeating: [:], count: groups.count)
            groupBytes = Array(repeating: 0, count: groups.count)
            self.budget = budget
            self.frames = frames
        }

        /// Whether this run records `group`.
        func records(_ group: Int) -> Bool { written.contains(group) }

        /// Sets frame `frame` of the element `key` of `group` from sample `i` of `visible`.
        mutating func set(group: Int, key: UInt64, frame: Int, of visible: VisibleParticles, _ i: Int) {
            let g = group - written.lowerBound
            let n: Int
            if let known = index[g][key] {
                n = known
            } else {
                n = tracks[g].count
                index[g][key] = n
                tracks[g].append(LoopTrack(shape: visible.shape[i], color: visible.color[i], first: frame))
                groupBytes[g] += LoopTrack.elementBytes
                bytes += LoopTrack.elementBytes
            }
            let before = tracks[g][n].samples.capacity
            tracks[g][n].set(
                frame, x: visible.x[i], y: visible.y[i], size: visible.size[i], rotation: visible.rotation[i],
                alpha: visible.alpha[i])
            let grown = (tracks[g][n].samples.capacity - before) * MemoryLayout<Float>.stride
            groupBytes[g] += grown
            bytes += grown
        }

        /// Lets go of the last groups while the record is over budget, keeping one.
        mutating func keepWithinBudget() {
            while bytes > budget && written.count > 1 {
                let g = written.count - 1
                bytes -= groupBytes[g]
                tracks.removeLast()
                index.removeLast()
                groupBytes.removeLast()
                written = written.lowerBound..<(written.upperBound - 1)
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
