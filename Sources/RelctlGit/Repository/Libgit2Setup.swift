internal import CLibGit2

/// libgit2 must be initialised once per process before any other call; a global `let` is thread-safe.
let libgit2Initialized: Bool = {
    // In the relctl binary, without parsing the system CA bundle (DeferredCertificates) or setting up libssh2 and
    // mbedTLS's random generator (DeferredNetworkInit): its interposers (Sources/relctl/Interposers.swift) hand
    // libgit2's calls to those, which remember them while this flag is up; both are done before the first network
    // call. Other processes (the tests, relctl-fuzz) have no interposers: init makes the real calls, nothing waits.
    DeferredNetworkInit.initializing { DeferredCertificates.initializing { git_libgit2_init() } }
    // relctl reads each object once: libgit2's object cache would only keep every commit of a long range in
    // memory (up to 256 MiB by default) and cost a hash-table insert per read.
    _ = relctl_git_enable_caching(0)
    // Like git itself when it reads (`git log`), trust the object store rather than re-hashing every object
    // read; pack checksums and `git fsck` are the tools for corruption.
    _ = relctl_git_enable_strict_hash_verification(0)
    return true
}()
