import Foundation
import SpoilerCore

/// Writes `target`'s seed inputs into `folder` (created if need be), one file each, named
/// `seed-N`; returns how many.
func writeSeeds(for target: FuzzTarget, fixtures: String, to folder: String) -> Int {
    try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let inputs = target.seeds.flatMap { seedInputs($0, fixtures: fixtures) }
    for (i, input) in inputs.enumerated() {
        _ = FileManager.default.createFile(atPath: "\(folder)/seed-\(i)", contents: Data(input))
    }
    return inputs.count
}

/// The inputs one seed source gives, read from the files under `fixtures`.
func seedInputs(_ source: SeedSource, fixtures: String) -> [[UInt8]] {
    func bytes(_ path: String) -> [UInt8]? {
        let full = path.hasPrefix("/") ? path : fixtures + "/" + path
        return FileManager.default.contents(atPath: full).map { [UInt8]($0) }
    }
    switch source {
    case .files(let dir, let suffix):
        let names = (try? FileManager.default.contentsOfDirectory(atPath: fixtures + "/" + dir)) ?? []
        return names.sorted().filter { $0.hasSuffix(suffix) }.compactMap { bytes(dir + "/" + $0) }
    case .file(let path):
        return bytes(path).map { [$0] } ?? []
    case .lines(let path):
        return (bytes(path) ?? []).split(separator: UInt8(ascii: "\n")).map { Array($0) }
    case .jsonField(let path, let key):
        return (bytes(path) ?? []).split(separator: UInt8(ascii: "\n")).compactMap { line in
            guard let v = try? JSONValue.parse(Array(line)), let s = v[key]?.stringValue else { return nil }
            return Array(s.utf8)
        }
    case .literal(let strings):
        return strings.map { Array($0.utf8) }
    case .prefixed(let firsts, let inner):
        let inputs = seedInputs(inner, fixtures: fixtures)
        return firsts.flatMap { first in inputs.map { [first] + $0 } }
    }
}
