import Foundation
import Testing
import RelctlTestSupport
@testable import RelctlGit

/// libgit2 built on mbedTLS (Debian's) asks for the CA bundle in `git_libgit2_init`: relctl defers it.
@Suite("CA certificates deferred past libgit2's initialisation")
struct DeferredCertificatesTests {
    /// mbedTLS is in the process when libgit2 was built on it.
    private var libgit2UsesMbedTLS: Bool { dlsym(nil, "mbedtls_x509_crt_init") != nil }

    @Test func initRemembersTheSystemBundleInsteadOfParsingIt() throws {
        let repo = try TestRepository()
        _ = try repo.commit("chore: init")
        _ = try Repository(at: repo.path)
        let remembered = DeferredCertificates.remembered
        if libgit2UsesMbedTLS {
            let location = try #require(remembered.file ?? remembered.directory)
            #expect(FileManager.default.fileExists(atPath: location), "libgit2 asked for \(location)")
        } else {
            #expect(remembered.file == nil && remembered.directory == nil)
        }
    }

    @Test func outsideInitTheCertificatesAreReallyParsed() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("relctl-certs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let garbage = folder.appendingPathComponent("bundle.crt").path
        try "-----BEGIN CERTIFICATE-----\nnot base64 at all\n-----END CERTIFICATE-----\n"
            .write(toFile: garbage, atomically: true, encoding: .utf8)
        // Deferring this call would return 0: mbedTLS (or OpenSSL) must see the file and reject it.
        #expect(DeferredCertificates.setLocations(file: garbage, directory: nil) < 0)
        #expect(DeferredCertificates.setLocations(file: folder.appendingPathComponent("missing.crt").path, directory: nil) < 0)
    }
}
