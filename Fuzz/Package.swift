// swift-tools-version: 6.0
// Coverage-guided fuzz targets for SpoilerKit's parsers and loaders, driven by libFuzzer.
//
// A package of its own that depends on SpoilerKit by path, so that SpoilerKit's own
// `swift build` and `swift test` never see it: its one executable, `spoiler-fuzz`, calls
// libFuzzer's driver (LLVMFuzzerRunDriver), which exists only in a build with
// `-sanitize=fuzzer`. `scripts/fuzz` builds it (release, fuzzer + address sanitizers,
// the C extension instrumented too) and runs one target at a time:
// `spoiler-fuzz TARGET [libFuzzer options] [corpus folders]`.
import PackageDescription

let package = Package(
    name: "SpoilerFuzz",
    dependencies: [.package(name: "SpoilerKit", path: "..")],
    targets: [
        .executableTarget(
            name: "spoiler-fuzz",
            dependencies: [
                .product(name: "SpoilerCore", package: "SpoilerKit"),
                .product(name: "SpoilerParser", package: "SpoilerKit"),
                .product(name: "SpoilerLayout", package: "SpoilerKit"),
                .product(name: "SpoilerEffect", package: "SpoilerKit"),
                .product(name: "SpoilerRender", package: "SpoilerKit"),
                .product(name: "SpoilerTerminal", package: "SpoilerKit"),
            ])
    ]
)
