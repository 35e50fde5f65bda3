import RelctlGit

// The mbedTLS and libssh2 functions Debian's libgit2 calls from `git_libgit2_init`, defined by the relctl
// executable only: an executable's own exported symbols come first in the dynamic linker's search order, so
// libgit2's calls land here, and RelctlGit's `DeferredCertificates` and `DeferredNetworkInit` remember them during
// init (the CA bundle is parsed, libssh2 and mbedTLS's random generator set up, before the first network
// operation) and pass any other call on to the library (`RTLD_NEXT`). About 54 million instructions saved on every
// command that opens a repository (docs/speed.md). They live here, not in RelctlGit, so that the test binary and
// `relctl-fuzz` run the real libraries' set-up (a test checks that the test binary defines none of them).
//
// `public`: only exported symbols reach the dynamic symbol table, where libgit2's calls are bound (an internal
// function is a local symbol in an optimised build, and the library's own would be called).

@_cdecl("mbedtls_x509_crt_parse_file")
public func relctlDeferredParseFile(_ chain: UnsafeMutableRawPointer?, _ path: UnsafePointer<CChar>?) -> Int32 {
    DeferredCertificates.parseFile(chain, path)
}

@_cdecl("mbedtls_x509_crt_parse_path")
public func relctlDeferredParsePath(_ chain: UnsafeMutableRawPointer?, _ path: UnsafePointer<CChar>?) -> Int32 {
    DeferredCertificates.parsePath(chain, path)
}

@_cdecl("libssh2_init")
public func relctlDeferredSSHInit(_ flags: Int32) -> Int32 {
    DeferredNetworkInit.sshInit(flags)
}

@_cdecl("mbedtls_ctr_drbg_seed")
public func relctlDeferredDRBGSeed(
    _ context: UnsafeMutableRawPointer?,
    _ entropy: (@convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<UInt8>?, Int) -> Int32)?,
    _ entropyContext: UnsafeMutableRawPointer?, _ custom: UnsafePointer<UInt8>?, _ length: Int
) -> Int32 {
    DeferredNetworkInit.seed(context, entropy, entropyContext, custom, length)
}

@_cdecl("mbedtls_entropy_init")
public func relctlDeferredEntropyInit(_ context: UnsafeMutableRawPointer?) {
    DeferredNetworkInit.entropyInit(context)
}

@_cdecl("mbedtls_entropy_free")
public func relctlDeferredEntropyFree(_ context: UnsafeMutableRawPointer?) {
    DeferredNetworkInit.entropyFree(context)
}
