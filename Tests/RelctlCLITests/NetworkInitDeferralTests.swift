import Foundation
import Testing
import RelctlTestSupport

/// The relctl binary run with `LD_DEBUG=bindings`: the dynamic loader names every symbol it resolves. The binary
/// defines the mbedTLS and libssh2 functions Debian's libgit2 calls from `git_libgit2_init`
/// (Sources/relctl/Interposers.swift), so libgit2 binds to relctl's; the real `mbedtls_x509_crt_parse_file`,
/// `libssh2_init`, `mbedtls_entropy_init` and `mbedtls_ctr_drbg_seed` are resolved only when relctl calls them
/// (`dlsym(RTLD_NEXT)`, before the first network operation). Without the deferral libgit2 binds to them at load.
/// Linux with a libgit2 built on libssh2 and mbedTLS only (Debian's); elsewhere there is nothing to see. The test
/// binary itself does not interpose: DeferredNetworkInitTests.
@Suite("The binary: the CA bundle, libssh2 and mbedTLS set up only for the network")
struct NetworkInitDeferralTests {
    /// The deferred calls, in the order libgit2's init makes them (runIfDeferred and loadIfDeferred keep it).
    static let deferred = [
        ("libssh2_init", "libssh2.so"), ("mbedtls_entropy_init", "libmbedcrypto.so"),
        ("mbedtls_ctr_drbg_seed", "libmbedcrypto.so"), ("mbedtls_x509_crt_parse_file", "libmbedx509.so"),
    ]
    /// Every function the binary defines in place of its library's.
    static let interposed: Set = [
        "mbedtls_x509_crt_parse_file", "mbedtls_x509_crt_parse_path", "libssh2_init",
        "mbedtls_ctr_drbg_seed", "mbedtls_entropy_init", "mbedtls_entropy_free",
    ]

    /// One run of relctl under `LD_DEBUG=bindings`: the deferred functions bound to their libraries (the real calls),
    /// in order, once per binding; and the interposed functions libgit2 bound to the relctl binary.
    static func bindings(
        _ arguments: [String], in directory: String,
        environment: [String: String]
    ) throws -> (real: [String], toRelctl: Set<String>) {
        let folder = try makeTempDirectory(prefix: "relctl-ld-debug")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var env = environment
        env["LD_DEBUG"] = "bindings"
        env["LD_DEBUG_OUTPUT"] = folder + "/bindings"
        let result = try runRelctl(arguments, in: directory, environment: env)
        #expect(result.status == 0, "\(result.stderr)")
        let relctl = try relctlExecutable()
        var real: [String] = []
        var toRelctl: Set<String> = []
        for name in try FileManager.default.contentsOfDirectory(atPath: folder).sorted() {
            let text = try String(contentsOfFile: folder + "/" + name, encoding: .utf8)
            for line in text.split(separator: "\n") {
                guard let to = line.range(of: " to ") else { continue }
                let from = line[..<to.lowerBound], target = line[to.upperBound...]
                // Made by relctl itself: under `make asan` the sanitizer's symbolizer (another process, whose libcurl
                // sets up libssh2) writes its bindings here too.
                for (symbol, library) in deferred
                where line.hasSuffix("`\(symbol)'") && target.contains(library) && from.hasSuffix("binding file \(relctl) [0]") {
                    real.append(symbol)
                }
                for symbol in interposed
                where line.hasSuffix("`\(symbol)'") && from.contains("/libgit2.so")
                    && target.hasPrefix(relctl + " ")
                {
                    toRelctl.insert(symbol)
                }
            }
        }
        return (real, toRelctl)
    }

    static var applies: Bool {
        #if os(Linux)
        let ldd = (try? runProcess("/usr/bin/env", ["ldd", relctlExecutable()]))?.stdout ?? ""
        return ldd.contains("libssh2.so") && ldd.contains("libmbedcrypto.so") && ldd.contains("libmbedx509.so")
        #else
        return false
        #endif
    }

    @Test(.enabled(if: applies)) func nextMakesNoneOfTheCallsAndAPushMakesEachOnceInLibgit2sOrder() throws {
        let remote = try TestRepository(bare: true)
        let repo = try TestRepository.released("1.0.0", then: ["feat: x"])
        try repo.git(["remote", "add", "origin", remote.path])
        let environment = repo.gitEnvironment()
        let next = try Self.bindings(["next"], in: repo.path, environment: environment)
        // libgit2's calls are bound to relctl's functions, and none reaches its library: no CA bundle parsed.
        #expect(next.toRelctl == Self.interposed)
        #expect(next.real == [])
        // The preflight's remote listing, then the pushes: the set-up is made once, before the first of them.
        let push = try Self.bindings(["release", "--push"], in: repo.path, environment: environment)
        #expect(push.real == Self.deferred.map(\.0))
        // The base release was made here and never pushed: it goes with this one.
        #expect(try remote.git(["tag", "--list"]) == "v1.0.0\nv1.1.0\n")
        #expect(try remote.git(["rev-parse", "refs/heads/main"]) == (try repo.git(["rev-parse", "HEAD"])))
    }

    /// The exported (dynamic) symbols of `binary` among the interposed functions (`nm -D`).
    static func exportedInterposers(_ binary: String) throws -> Set<String> {
        let nm = try runProcess("/usr/bin/env", ["nm", "-D", "--defined-only", binary])
        #expect(nm.status == 0, "\(nm.stderr)")
        return Set(
            nm.stdout.split(separator: "\n").compactMap { line in
                line.split(separator: " ").last.map(String.init).flatMap { interposed.contains($0) ? $0 : nil }
            })
    }

    @Test(.enabled(if: applies)) func onlyTheRelctlBinaryExportsTheInterposers() throws {
        let relctl = try relctlExecutable()
        #expect(try Self.exportedInterposers(relctl) == Self.interposed)
        let fuzz = URL(fileURLWithPath: relctl).deletingLastPathComponent().appendingPathComponent("relctl-fuzz").path
        #expect(FileManager.default.isExecutableFile(atPath: fuzz), "relctl-fuzz is built beside relctl by 'swift build --build-tests'")
        #expect(try Self.exportedInterposers(fuzz) == [])
    }
}
