// Writes a message's spoilers as SVG through the public API only.
//
//   swift run SVGExporter [TEXT] [OUTPUT-DIRECTORY]
//
// Writes still.svg (the message as it first shows, hidden words as dust), revealed.svg (after
// a click on the first hidden word) and loop.svg (three seconds that play in a browser).
import Glibc
import SpoilerKit

let arguments = CommandLine.arguments.dropFirst()
let text = arguments.first ?? "the butler ||did it|| in the library"
let directory = arguments.dropFirst().first ?? "."

func write(_ svg: String, to name: String) throws {
    let path = directory + "/" + name
    guard let file = fopen(path, "w") else { throw ExportError(path: path) }
    defer { fclose(file) }
    guard fputs(svg, file) >= 0 else { throw ExportError(path: path) }
    print("\(path): \(svg.utf8.count) bytes")
}

struct ExportError: Error, CustomStringConvertible {
    var path: String
    var description: String { "cannot write \(path)" }
}

do {
    let message = try Message(parsing: text)
    var view = SpoilerView(message, width: 40)
    view.advance(to: 0.5)
    try write(view.svg(), to: "still.svg")

    if let first = view.layout.words.first, let column = first.column {
        view.click(column: column, row: first.line)
    }
    view.advance(to: 2)
    try write(view.svg(), to: "revealed.svg")

    // A loop: the renderer, over a scene of the same layout.
    var loop: [UInt8] = []
    let scene = SpoilerScene(layout: view.layout, preset: .dust)
    SVGRenderer.renderLoop(
        scene: scene, layout: view.layout, fps: 20, duration: 3,
        formatting: message.entities, into: &loop)
    try write(String(decoding: loop, as: UTF8.self), to: "loop.svg")
} catch let error as ParseError {
    print("error: \(error.located(in: "<argument>"))")
    exit(1)
} catch {
    print("error: \(error)")
    exit(1)
}
