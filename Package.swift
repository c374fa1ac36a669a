// swift-tools-version: 6.0
// SpoilerKit: chat messages with hidden parts, from markup to geometry to animation.
//
// Dependency direction (nothing imports upward):
//   SpoilerCore  <-  SpoilerParser, SpoilerLayout, SpoilerEffect  <-  SpoilerRender
//   <-  SpoilerTerminal  <-  spoiler (the command-line edge), spoiler-bench
// Core, Parser, Layout, Effect and Render are pure: no files, no clock, no environment.
import PackageDescription

let package = Package(
    name: "SpoilerKit",
    products: [
        .library(name: "SpoilerKit", targets: ["SpoilerKit"]),
        .library(name: "SpoilerCore", targets: ["SpoilerCore"]),
        .library(name: "SpoilerParser", targets: ["SpoilerParser"]),
        .library(name: "SpoilerLayout", targets: ["SpoilerLayout"]),
        .library(name: "SpoilerEffect", targets: ["SpoilerEffect"]),
        .library(name: "SpoilerRender", targets: ["SpoilerRender"]),
        .library(name: "SpoilerTerminal", targets: ["SpoilerTerminal"]),
        .executable(name: "spoiler", targets: ["spoiler"]),
        .executable(name: "spoiler-bench", targets: ["spoiler-bench"]),
    ],
    targets: [
        // C libraries from Debian packages.
        .systemLibrary(
            name: "CCmarkGFM", pkgConfig: "libcmark-gfm",
            providers: [.apt(["libcmark-gfm-dev", "libcmark-gfm-extensions-dev"])]),
        // No pkgConfig: libutf8proc.pc adds -DUTF8PROC_EXPORTS (for building utf8proc itself
        // on Windows), a flag SwiftPM prohibits and warns about in every dependent's build.
        // The header is in /usr/include and the module map links the library.
        .systemLibrary(name: "CUTF8Proc", providers: [.apt(["libutf8proc-dev"])]),
        .systemLibrary(
            name: "CZlib", pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(
            name: "CYajl", pkgConfig: "yajl",
            providers: [.apt(["libyajl-dev"])]),
        // The `||spoiler||` inline syntax extension for cmark-gfm (C, public extension API).
        .target(name: "CSpoilerSyntax", dependencies: ["CCmarkGFM"]),

        // Pure modules.
        .target(name: "SpoilerCore", linkerSettings: [.linkedLibrary("m")]),
        .target(
            name: "SpoilerParser",
            dependencies: ["SpoilerCore", "CCmarkGFM", "CSpoilerSyntax", "CYajl"]),
        .target(name: "SpoilerLayout", dependencies: ["SpoilerCore", "CUTF8Proc", "CZlib"]),
        .target(name: "SpoilerEffect", dependencies: ["SpoilerCore"]),
        .target(
            name: "SpoilerRender",
            dependencies: ["SpoilerCore", "SpoilerLayout", "SpoilerEffect"]),

        // The outer edge: terminal I/O and the command line.
        .target(
            name: "SpoilerTerminal",
            dependencies: ["SpoilerCore", "SpoilerParser", "SpoilerLayout", "SpoilerEffect", "SpoilerRender"]),
        // One import for all of the above, and the high-level API.
        .target(
            name: "SpoilerKit",
            dependencies: [
                "SpoilerCore", "SpoilerParser", "SpoilerLayout", "SpoilerEffect", "SpoilerRender",
                "SpoilerTerminal",
            ]),
        .executableTarget(
            name: "spoiler",
            dependencies: [
                "SpoilerCore", "SpoilerParser", "SpoilerLayout", "SpoilerEffect",
                "SpoilerRender", "SpoilerTerminal",
            ]),
        .executableTarget(
            name: "spoiler-bench",
            dependencies: [
                "SpoilerCore", "SpoilerParser", "SpoilerLayout", "SpoilerEffect",
                "SpoilerRender", "SpoilerTerminal", "CCmarkGFM",
            ]),

        // Tests.
        .target(name: "SpoilerTestSupport", dependencies: ["SpoilerCore", "CZlib"], path: "Tests/SpoilerTestSupport"),
        .testTarget(name: "SpoilerCoreTests", dependencies: ["SpoilerCore", "SpoilerTestSupport"]),
        .testTarget(
            name: "SpoilerParserTests",
            dependencies: ["SpoilerCore", "SpoilerParser", "CSpoilerSyntax", "SpoilerTestSupport"]),
        .testTarget(
            name: "SpoilerLayoutTests",
            dependencies: ["SpoilerCore", "SpoilerParser", "SpoilerLayout", "SpoilerTestSupport"]),
        .testTarget(
            name: "SpoilerEffectTests",
            dependencies: ["SpoilerCore", "SpoilerLayout", "SpoilerEffect", "SpoilerTestSupport"]),
        .testTarget(
            name: "SpoilerRenderTests",
            dependencies: [
                "SpoilerCore", "SpoilerParser", "SpoilerLayout", "SpoilerEffect", "SpoilerRender",
                "SpoilerTestSupport",
            ]),
        .testTarget(
            name: "SpoilerTerminalTests",
            dependencies: [
                "SpoilerCore", "SpoilerParser", "SpoilerLayout", "SpoilerEffect", "SpoilerRender", "SpoilerTerminal",
                "SpoilerTestSupport",
            ]),
        .testTarget(name: "SpoilerKitTests", dependencies: ["SpoilerKit", "SpoilerTestSupport"]),
        .testTarget(
            name: "SpoilerCLITests", dependencies: ["spoiler", "SpoilerCore", "SpoilerTestSupport"],
            exclude: ["Browser"]),
    ]
)
