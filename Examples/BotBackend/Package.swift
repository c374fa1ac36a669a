// swift-tools-version: 6.0
// A bot backend: MarkdownV2 messages to Telegram entities and HTML, many at once.
import PackageDescription

let package = Package(
    name: "BotBackend",
    dependencies: [.package(name: "SpoilerKit", path: "../..")],
    targets: [
        .executableTarget(
            name: "BotBackend", dependencies: [.product(name: "SpoilerKit", package: "SpoilerKit")])
    ]
)
