import Foundation
import Testing
import RelctlTestSupport

/// The relctl binary run with `LD_DEBUG=bindings`: the dynamic loader names every symbol it resolves, and the real
/// `libssh2_init`, `mbedtls_entropy_init` and `mbedtls_ctr_drbg_seed` (not relctl's own) are resolved only when
/// relctl calls them (`dlsym(RTLD_NEXT)`, before the first network operation). Without the deferral libgit2 binds to
/// them at load. Linux with a libgit2 built on libssh2 and mbedTLS only (Debian's); elsewhere there is nothing to see.
@Suite("The binary: libssh2 and mbedTLS set up only for the network")
struct NetworkInitDeferralTests {
    static let deferred = ["libssh2_init": "libssh2.so", "mbedtls_entropy_init": "libmbedcrypto.so",
                           "mbedtls_ctr_drbg_seed": "libmbedcrypto.so"]

    /// The deferred functions the loader bound to their libraries during one run of relctl.
    static func realCalls(_ arguments: [String], in directory: String,
                          environment: [String: String]) throws -> Set<String> {
        let folder = try makeTempDirectory(prefix: "relctl-ld-debug")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var env = environment
        env["LD_DEBUG"] = "bindings"
        env["LD_DEBUG_OUTPUT"] = folder + "/bindings"
        let result = try runRelctl(arguments, in: directory, environment: env)
        #expect(result.status == 0, "\(result.stderr)")
        var found: Set<String> = []
        for name in try FileManager.default.contentsOfDirectory(atPath: folder) {
            let text = try String(contentsOfFile: folder + "/" + name, encoding: .utf8)
            for line in text.split(separator: "\n") {
                for (symbol, library) in deferred where line.hasSuffix("`\(symbol)'") && line.contains(" to ")
                    && line[line.range(of: " to ")!.upperBound...].contains(library) {
                    found.insert(symbol)
                }
            }
        }
        return found
    }

    static var applies: Bool {
        #if os(Linux)
        let ldd = (try? runProcess("/usr/bin/env", ["ldd", relctlExecutable()]))?.stdout ?? ""
        return ldd.contains("libssh2.so") && ldd.contains("libmbedcrypto.so")
        #else
        return false
        #endif
    }

    @Test(.enabled(if: applies)) func nextMakesNeitherCallAndAPushMakesBoth() throws {
        let remote = try TestRepository(bare: true)
        let repo = try TestRepository.released("1.0.0", then: ["feat: x"])
        try repo.git(["remote", "add", "origin", remote.path])
        let environment = repo.gitEnvironment()
        #expect(try Self.realCalls(["next"], in: repo.path, environment: environment).isEmpty)
        #expect(try Self.realCalls(["release", "--push"], in: repo.path, environment: environment)
                == Set(Self.deferred.keys))
        #expect(try remote.git(["tag", "--list"]).contains("v1.1.0"))
    }
}
