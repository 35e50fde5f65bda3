// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "relctl",
    products: [
        .executable(name: "relctl", targets: ["relctl"]),
        .library(name: "RelctlCore", targets: ["RelctlCore"]),
        // The app-side version gate: importable by an iOS app or a Swift server (no other relctl module than the
        // dependency-free JSON parser).
        .library(name: "VersionGate", targets: ["VersionGate"]),
    ],
    targets: [
        // libgit2 from the system (Debian: libgit2-dev; macOS: Homebrew's libgit2). Only RelctlGit imports it.
        .systemLibrary(
            name: "CLibGit2",
            pkgConfig: "libgit2",
            providers: [.apt(["libgit2-dev"]), .brew(["libgit2"])]
        ),
        // OpenSSL's libcrypto from the system (Debian: libssl-dev): the RS256 and ES256 signatures of the store
        // credentials (README, "Stores and Remote Config"). Only RelctlCLI/Stores/JWTSigner.swift imports it.
        .systemLibrary(
            name: "CLibCrypto",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"]), .brew(["openssl@3"])]
        ),
        // The one JSON parser (strict JSON and Expo's JSON5), keeping each value's line and byte range. A leaf:
        // it imports nothing, not even Foundation, so VersionGate can depend on it.
        .target(name: "RelctlJSON"),
        // Pure logic, no I/O: commits, versions, bump policy, store rules, changelog.
        .target(name: "RelctlCore", dependencies: ["RelctlJSON"]),
        // The only module that talks to libgit2; owns every C pointer.
        .target(name: "RelctlGit", dependencies: ["CLibGit2"]),
        // Format-preserving version editors: text in, edits out.
        .target(name: "RelctlFiles", dependencies: ["RelctlCore", "RelctlJSON"]),
        // Argument parsing, commands, workflows, output.
        .target(name: "RelctlCLI", dependencies: ["RelctlCore", "RelctlJSON", "RelctlGit", "RelctlFiles", "VersionGate", "CLibCrypto"]),
        // The version gate policy, documents, cache and request side. Pure Swift, no Foundation: its one dependency is
        // the JSON leaf.
        .target(name: "VersionGate", dependencies: ["RelctlJSON"]),
        // Thin entry point, and the only code that defines the mbedTLS/libssh2 functions libgit2's init calls
        // (Interposers.swift: RelctlGit defers them to the first network operation); test and fuzz binaries do not
        // link it, so they run the real libraries.
        .executableTarget(name: "relctl", dependencies: ["RelctlCLI", "RelctlGit"]),

        // Real git repositories in temp folders and real processes, shared by the test targets.
        .target(name: "RelctlTestSupport", path: "Tests/RelctlTestSupport"),
        .testTarget(name: "RelctlJSONTests", dependencies: ["RelctlJSON"]),
        .testTarget(name: "RelctlCoreTests", dependencies: ["RelctlCore", "RelctlTestSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "RelctlGitTests", dependencies: ["RelctlGit", "RelctlTestSupport"]),
        .testTarget(name: "RelctlFilesTests", dependencies: ["RelctlFiles", "RelctlTestSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "VersionGateTests", dependencies: ["VersionGate"], exclude: ["Fixtures"]),
        // In-process (`RelctlCLI.run`) and through the built binary (`relctlExecutable()` finds it beside the test
        // bundle; `swift build --build-tests` and `swift test` build it). Not a dependency on the `relctl` target:
        // that would link its interposers into the one test binary.
        .testTarget(name: "RelctlCLITests", dependencies: ["RelctlCLI", "RelctlTestSupport"], exclude: ["Golden"]),
    ],
    swiftLanguageModes: [.v6]
)

// Fuzzing (README, "Fuzzing"): the harnesses, one binary that runs them — under libFuzzer when built with
// `-sanitize=fuzzer -DFUZZING` (`make fuzz`), else as a seeded mutation driver — and a short seeded pass in the tests.
package.targets += [
    .target(name: "RelctlFuzzing", dependencies: ["RelctlCore", "RelctlJSON", "RelctlFiles", "RelctlCLI"]),
    .executableTarget(name: "relctl-fuzz", dependencies: ["RelctlFuzzing"], path: "Sources/RelctlFuzz"),
    .testTarget(name: "RelctlFuzzingTests", dependencies: ["RelctlFuzzing"]),
]
