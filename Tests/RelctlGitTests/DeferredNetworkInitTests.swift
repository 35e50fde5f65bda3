import Foundation
import Testing
import RelctlTestSupport
@testable import RelctlGit

/// libgit2 built with libssh2 and mbedTLS (Debian's) sets both up in `git_libgit2_init`: relctl defers that to the
/// first network operation. (`relctl next` making neither call is checked on the binary: NetworkInitDeferralTests.)
@Suite("libssh2 and mbedTLS set-up deferred past libgit2's initialisation")
struct DeferredNetworkInitTests {
    private var libgit2UsesLibssh2: Bool { dlsym(nil, "libssh2_session_init_ex") != nil }
    private var libgit2UsesMbedTLS: Bool { dlsym(nil, "mbedtls_ctr_drbg_init") != nil }

    @Test func initRemembersTheCallsInsteadOfMakingThem() throws {
        let repo = try TestRepository()
        _ = try repo.commit("chore: init")
        _ = try Repository(at: repo.path)
        let remembered = DeferredNetworkInit.remembered
        #expect((remembered.sshFlags != nil) == libgit2UsesLibssh2)
        #expect((remembered.seed != nil) == libgit2UsesMbedTLS)
        #expect((remembered.entropy != nil) == libgit2UsesMbedTLS)
        // The pool the seed draws from is the one whose set-up waits.
        #expect(remembered.seed?.entropyContext == remembered.entropy)
        if let seed = remembered.seed {
            // The random generator context libgit2 made and handed to its TLS configuration.
            #expect(seed.context != 0 && seed.entropy != 0 && seed.entropyContext != 0)
        }
    }

    @Test func aPushMakesTheRealCallsOnceAndStillWorks() throws {
        let remote = try TestRepository(bare: true)
        let repo = try TestRepository()
        try repo.commit("chore: init")
        try repo.git(["remote", "add", "origin", remote.path])
        let git = try Repository(at: repo.path)
        let result = try git.push(remote: "origin", refspecs: ["refs/heads/main:refs/heads/main"], environment: [:])
        #expect(result.rejected.isEmpty && result.accepted == ["refs/heads/main"])
        let after = DeferredNetworkInit.remembered
        #expect(after.ran)
        #expect(after.entropyReady)
        // The libraries' own results: libssh2_init and mbedtls_ctr_drbg_seed both succeeded.
        #expect(after.sshResult == (libgit2UsesLibssh2 ? 0 : nil))
        #expect(after.seedResult == (libgit2UsesMbedTLS ? 0 : nil))
        // Once: a second network operation changes nothing.
        _ = try git.remoteReferences("origin", environment: [:])
        let again = DeferredNetworkInit.remembered
        #expect(again.sshResult == after.sshResult && again.seedResult == after.seedResult && again.ran)
    }
}
