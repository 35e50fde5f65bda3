// swift-tools-version:6.0
// The platform's floor for scripts/bench: the least a Swift program that uses Debian's libgit2 costs, built with
// the release build's flags. Not part of relctl; scripts/bench builds it into its cache folder.
import PackageDescription

let package = Package(
    name: "bench-floor",
    targets: [
        .systemLibrary(name: "CGit2", pkgConfig: "libgit2", providers: [.apt(["libgit2-dev"])]),
        .target(name: "SkipCA"),
        .executableTarget(name: "floor", dependencies: ["CGit2", "SkipCA"]),
    ]
)
