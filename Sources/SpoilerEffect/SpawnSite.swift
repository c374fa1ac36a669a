/// A word's emitter, flattened for the birth loop.
struct SpawnSite: Sendable {
    var geometry: EmitterGeometry
    var birthRate: Double
    var lifetime: Double
    var naturalDirection: Double

    init(_ e: Emitter) {
        geometry = e.geometry
        birthRate = e.birthRate
        lifetime = e.lifetime
        naturalDirection = e.naturalDirection
    }
}
