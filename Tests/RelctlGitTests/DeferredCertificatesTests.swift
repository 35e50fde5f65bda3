import Foundation
import Testing
import RelctlTestSupport
@testable import RelctlGit

/// libgit2 built on mbedTLS (Debian's) parses the CA bundle in `git_libgit2_init`. The relctl binary defers that
/// (its interposers: NetworkInitDeferralTests); this test binary does not interpose, so init parses it itself.
@Suite("CA certificates: parsed by libgit2's initialisation in the test binary")
struct DeferredCertificatesTests {
    @Test func initParsesTheSystemBundleItselfAndNothingIsLeftToLoad() throws {
        let repo = try TestRepository()
        try repo.commit("chore: init")
        _ = try Repository(at: repo.path)
        var remembered = DeferredCertificates.remembered
        #expect(remembered.file == nil && remembered.directory == nil)
        DeferredCertificates.loadIfDeferred()
        remembered = DeferredCertificates.remembered
        #expect(remembered.file == nil && remembered.directory == nil && !remembered.loaded)
    }

    @Test func certificatesAreReallyParsed() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("relctl-certs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let garbage = folder.appendingPathComponent("bundle.crt").path
        try "-----BEGIN CERTIFICATE-----\nnot base64 at all\n-----END CERTIFICATE-----\n"
            .write(toFile: garbage, atomically: true, encoding: .utf8)
        // A remembered (deferred) call would return 0: mbedTLS (or OpenSSL) must see the file and reject it.
        #expect(DeferredCertificates.setLocations(file: garbage, directory: nil) < 0)
        #expect(DeferredCertificates.setLocations(file: folder.appendingPathComponent("missing.crt").path, directory: nil) < 0)
    }
}
