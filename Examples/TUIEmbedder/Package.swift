// swift-tools-version: 6.0
// A terminal program that embeds two animated messages in a screen buffer of its own.
import PackageDescription

let package = Package(
    name: "TUIEmbedder",
    dependencies: [.package(name: "SpoilerKit", path: "../..")],
    targets: [
        .executableTarget(
            name: "TUIEmbedder", dependencies: [.product(name: "SpoilerKit", package: "SpoilerKit")])
    ]
)
