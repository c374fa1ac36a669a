// swift-tools-version: 6.0
// Writes a message's spoilers as SVG: a still picture and a loop that plays in a browser.
import PackageDescription

let package = Package(
    name: "SVGExporter",
    dependencies: [.package(name: "SpoilerKit", path: "../..")],
    targets: [
        .executableTarget(
            name: "SVGExporter", dependencies: [.product(name: "SpoilerKit", package: "SpoilerKit")])
    ]
)
