import SpoilerCore
import SpoilerTestSupport
import Testing

@testable import SpoilerRender

/// The sweep the HTML page uses over a message's formatting and spoiler entities, read in
/// place (issue 17: no copy of the ranges), must name at every point exactly the entities a
/// look through all of them names, in their order, whether the entities are in order of
/// offset (read in place) or not (through ``CoveringRanges``).
@Suite struct EntitySweepTests {
    @Test func theSweepAgreesWithALookThroughEveryEntity() {
        let types: [EntityType] = [.spoiler, .bold, .code, .italic]
        forAll(
            { rng -> ([Entity], [Int]) in
                let length = Int(rng.next() % 40) + 1
                var entities: [Entity] = []
                for _ in 0..<Int(rng.next() % 12) {
                    let offset = Int(rng.next() % UInt64(length))
                    let type = types[Int(rng.next() % UInt64(types.count))]
                    entities.append(Entity(type, offset: offset, length: Int(rng.next() % 10)))  // empty ones too
                }
                if rng.next() % 3 != 0 { entities.sort { $0.offset < $1.offset } }
                var points: [Int] = []
                var p = 0
                while p <= length + 2 {
                    points.append(p)
                    p += Int(rng.next() % 3)
                }
                return (entities, points)
            }, count: 2000
        ) { entities, points in
            var formats = EntitySweep(entities) { $0 != .spoiler }
            var spoilers = EntitySweep(entities) { $0 == .spoiler }
            let spoilerIndices = entities.indices.filter { entities[$0].type == .spoiler }
            for p in points {
                formats.move(to: p)
                spoilers.move(to: p)
                func covering(_ e: Entity) -> Bool { e.offset <= p && p < e.end }
                let expectedFormats = entities.indices.filter {
                    entities[$0].type != .spoiler && covering(entities[$0])
                }
                let expectedSpoilers = spoilerIndices.indices.filter { covering(entities[spoilerIndices[$0]]) }
                if formats.active.map(\.entity) != expectedFormats { return false }
                if spoilers.active.map(\.ordinal) != expectedSpoilers { return false }
                if spoilers.active.map(\.entity) != expectedSpoilers.map({ spoilerIndices[$0] }) { return false }
            }
            return true
        }
    }
}
