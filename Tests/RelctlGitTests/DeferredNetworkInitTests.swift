import Foundation
import Testing
import RelctlTestSupport
@testable import RelctlGit

/// The functions Debian's libgit2 calls from `git_libgit2_init` to set up libssh2 and mbedTLS are interposed by the
/// relctl executable only (Sources/relctl/Interposers.swift): this test binary does not link it, so it runs the real
/// libraries' set-up, and RelctlGit's deferral has nothing to do. (The binary deferring them: NetworkInitDeferralTests.)
@Suite("The test binary runs the real libssh2 and mbedTLS set-up")
struct DeferredNetworkInitTests {
    /// Each interposed function and the library that defines it, when libgit2 was built on that library.
    static let interposed = [
        ("mbedtls_x509_crt_parse_file", "libmbedx509.so"), ("mbedtls_x509_crt_parse_path", "libmbedx509.so"),
        ("libssh2_init", "libssh2.so"), ("mbedtls_ctr_drbg_seed", "libmbedcrypto.so"),
        ("mbedtls_entropy_init", "libmbedcrypto.so"), ("mbedtls_entropy_free", "libmbedcrypto.so"),
    ]

    /// The file of the loaded object that defines `symbol` for the whole process (the definition libgit2's calls
    /// are bound to), or nil when nothing defines it.
    static func definingObject(_ symbol: String) -> String? {
        guard let address = dlsym(nil, symbol) else { return nil }
        #if os(Linux)
        // Glibc's module does not import dladdr (a _GNU_SOURCE function): the mapping holding the address names it.
        let target = UInt(bitPattern: address)
        // Read to the end: /proc files have no size, and a read sized by it stops short.
        guard let file = FileHandle(forReadingAtPath: "/proc/self/maps") else { return nil }
        defer { try? file.close() }
        let maps = String(decoding: file.readDataToEndOfFile(), as: UTF8.self)
        for line in maps.split(separator: "\n") {
            let fields = line.split(separator: " ")
            let range = fields.first?.split(separator: "-") ?? []
            guard fields.count >= 6, range.count == 2, let low = UInt(range[0], radix: 16),
                let high = UInt(range[1], radix: 16), low <= target, target < high
            else { continue }
            return fields[5...].joined(separator: " ")
        }
        return nil
        #else
        var info = Dl_info()
        guard dladdr(address, &info) != 0, let name = info.dli_fname else { return nil }
        return String(cString: name)
        #endif
    }

    private var libgit2UsesLibssh2: Bool { dlsym(nil, "libssh2_session_init_ex") != nil }
    private var libgit2UsesMbedTLS: Bool { dlsym(nil, "mbedtls_ctr_drbg_init") != nil }

    @Test func theTestBinaryDefinesNoneOfTheInterposedFunctions() throws {
        let repo = try TestRepository()
        try repo.commit("chore: init")
        _ = try Repository(at: repo.path)
        for (symbol, library) in Self.interposed {
            let uses = library == "libssh2.so" ? libgit2UsesLibssh2 : libgit2UsesMbedTLS
            guard uses else {
                // No library of that name in the process: nothing (not this binary either) may define the symbol.
                #expect(Self.definingObject(symbol) == nil, "\(symbol) is defined though libgit2 does not use \(library)")
                continue
            }
            let object = try #require(Self.definingObject(symbol), "\(symbol) is not defined")
            #expect(URL(fileURLWithPath: object).lastPathComponent.hasPrefix(library), "\(symbol) resolves into \(object)")
        }
    }

    @Test func initMakesTheRealCallsAndRemembersNone() throws {
        let repo = try TestRepository()
        try repo.commit("chore: init")
        _ = try Repository(at: repo.path)
        let remembered = DeferredNetworkInit.remembered
        #expect(remembered.sshFlags == nil)
        #expect(remembered.entropy == nil)
        #expect(remembered.seed == nil)
        #expect(!remembered.initializing)
    }

    @Test func networkOperationsWorkAndTheDeferredStepDoesNothing() throws {
        let remote = try TestRepository(bare: true)
        let repo = try TestRepository()
        try repo.commit("chore: init")
        try repo.git(["remote", "add", "origin", remote.path])
        let git = try Repository(at: repo.path)
        let result = try git.push(remote: "origin", refspecs: ["refs/heads/main:refs/heads/main"], environment: [:])
        #expect(result.rejected.isEmpty && result.accepted == ["refs/heads/main"])
        #expect(try remote.git(["rev-parse", "refs/heads/main"]) == (try repo.git(["rev-parse", "HEAD"])))
        let after = DeferredNetworkInit.remembered
        // runIfDeferred ran before the push and had no call to make: no result of its own.
        #expect(after.ran)
        #expect(after.sshResult == nil && after.seedResult == nil)
        let references = try git.remoteReferences("origin", environment: [:])
        #expect(references["refs/heads/main"] != nil)
        let again = DeferredNetworkInit.remembered
        #expect(again.ran && again.sshResult == nil && again.seedResult == nil)
        try DeferredNetworkInit.runIfDeferred()
    }
}
