import Foundation
import SpoilerCore

/// Writes `target`'s seed inputs into `folder` (created if need be), one file each, named
/// `seed-N`; returns how many.
func writeSeeds(for target: FuzzTarget, fixtures: String, to folder: String) -> Int {
    try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    var inputs: [[UInt8]] = []
    func bytes(_ path: String) -> [UInt8]? {
        let full = path.hasPrefix("/") ? path : fixtures + "/" + path
        return FileManager.default.contents(atPath: full).map { [UInt8]($0) }
    }
    for source in target.seeds {
        switch source {
        case .files(let dir, let suffix):
            let names = (try? FileManager.default.contentsOfDirectory(atPath: fixtures + "/" + dir)) ?? []
            for name in names.sorted() where name.hasSuffix(suffix) {
                if let b = bytes(dir + "/" + name) { inputs.append(b) }
            }
        case .file(let path):
            if let b = bytes(path) { inputs.append(b) }
        case .lines(let path):
            for line in (bytes(path) ?? []).split(separator: UInt8(ascii: "\n")) { inputs.append(Array(line)) }
        case .jsonField(let path, let key):
            for line in (bytes(path) ?? []).split(separator: UInt8(ascii: "\n")) {
                if let v = try? JSONValue.parse(Array(line)), let s = v[key]?.stringValue {
                    inputs.append(Array(s.utf8))
                }
            }
        case .literal(let strings):
            inputs += strings.map { Array($0.utf8) }
        }
    }
    for (i, input) in inputs.enumerated() {
        FileManager.default.createFile(atPath: "\(folder)/seed-\(i)", contents: Data(input))
    }
    return inputs.count
}
