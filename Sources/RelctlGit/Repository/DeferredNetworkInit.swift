internal import CLibGit2
#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// Besides the CA bundle (`DeferredCertificates`), `git_libgit2_init` of Debian's libgit2 sets up what only the
/// network uses: libssh2's global state (`libssh2_init`, which loads and registers OpenSSL's built-in engines), and
/// mbedTLS's entropy pool (`mbedtls_entropy_init`, whose HAVEGE source fills its table from the CPU's clock) and
/// random generator (`mbedtls_ctr_drbg_seed`, which gathers entropy and hashes it). About 2 million instructions
/// on every relctl run that opens a repository.
///
/// The relctl executable (`Sources/relctl/Interposers.swift`) defines these functions, the way it defines mbedTLS's
/// certificate parsers, and hands each call to the function of the same job here: libgit2's calls land there, and
/// while `git_libgit2_init` runs the arguments are only remembered. `runIfDeferred()`, before the first network
/// operation, makes the real calls with those arguments, in libgit2's order (libssh2, the entropy pool, the seed),
/// on the same mbedTLS contexts libgit2 made (the random generator's is initialised and already set as the TLS
/// configuration's, only not yet seeded). `mbedtls_entropy_free` passes over the pool while it is not set up
/// (libgit2 frees it only in `git_libgit2_shutdown`, which relctl never calls). At any other time the calls go
/// straight on to the libraries (`RTLD_NEXT`). In a process without the interposers (the test binary,
/// `relctl-fuzz`), and with a libgit2 without libssh2 or mbedTLS, init makes the real calls itself, nothing is
/// remembered and `runIfDeferred()` does nothing.
package enum DeferredNetworkInit {
    struct State {
        var initializing = false
        /// `libssh2_init`'s flags, when init asked for it.
        var sshFlags: Int32?
        /// `mbedtls_entropy_init`'s context (its address), when init asked for it.
        var entropy: UInt?
        /// `mbedtls_ctr_drbg_seed`'s arguments (addresses), when init asked for it.
        var seed: (context: UInt, entropy: UInt, entropyContext: UInt, custom: UInt, length: Int)?
        /// Set once `runIfDeferred` made the real calls: libssh2_init's and the seed's results.
        var sshResult: Int32?
        var seedResult: Int32?
        var ran = false
        /// Set once the real `mbedtls_entropy_init` ran on the remembered pool.
        var entropyReady = false

        @inline(never) static func initial() -> State { State() }
    }
    // Not `Mutex(State())`: in an optimised build (Swift 6.x) a global Mutex of a struct whose stored values the
    // compiler folds is statically initialised to zero bytes, so its optionals read `Optional(0)`, not nil (a test
    // binary without the interposers then "remembered" a null entropy pool). A call it does not fold keeps the
    // lazy initialisation.
    private static let state = Mutex(State.initial())
    /// Held while the real calls are made (not `state`: a library calling one of these functions back must not
    /// find the lock taken).
    private static let running = Mutex(false)

    /// Runs libgit2's initialisation with libssh2's and mbedTLS's set-up deferred.
    static func initializing(_ body: () -> Void) {
        state.withLock { $0.initializing = true }
        body()
        state.withLock { $0.initializing = false }
    }

    /// Makes the calls `git_libgit2_init` asked for, once, before a network operation; another thread starting one
    /// at the same time waits until they are made. A failure is libgit2's own error for it.
    static func runIfDeferred() throws(GitError) {
        let (ssh, seed) = running.withLock { ran -> (Int32?, Int32?) in
            if !ran {
                ran = true
                let asked = state.withLock { $0 }
                var sshResult: Int32?
                var seedResult: Int32?
                if let flags = asked.sshFlags, let initialize = realSSHInit {
                    sshResult = initialize(flags)
                }
                if let entropy = asked.entropy, let initialize = realEntropyInit {
                    initialize(UnsafeMutableRawPointer(bitPattern: entropy))
                }
                if let seed = asked.seed, let real = realSeed {
                    seedResult = real(
                        UnsafeMutableRawPointer(bitPattern: seed.context),
                        seed.entropy == 0 ? nil : unsafeBitCast(seed.entropy, to: Entropy.self),
                        UnsafeMutableRawPointer(bitPattern: seed.entropyContext),
                        UnsafePointer(bitPattern: seed.custom), seed.length)
                }
                state.withLock { state in
                    state.entropyReady = true
                    state.sshResult = sshResult
                    state.seedResult = seedResult
                    state.ran = true
                }
            }
            return state.withLock { ($0.sshResult, $0.seedResult) }
        }
        if let ssh, ssh < 0 {
            throw GitError(
                kind: .other, code: ssh, operation: "initialize ssh",
                message: "unable to initialize libssh2")
        }
        if let seed, seed != 0 {
            throw GitError(
                kind: .other, code: seed, operation: "initialize TLS",
                message: "failed to initialize mbedTLS entropy pool")
        }
    }

    /// What `git_libgit2_init` asked for, and whether the real calls were made since.
    static var remembered: State { state.withLock { $0 } }

    /// `libssh2_init` for the executable's interposer: remembered during init, else libssh2's.
    package static func sshInit(_ flags: Int32) -> Int32 {
        if remember({ $0.sshFlags = flags }) { return 0 }
        // -1 (LIBSSH2_ERROR_SOCKET_NONE, any failure) when libssh2 is not loaded: nobody but libgit2 could call this.
        guard let initialize = realSSHInit else { return -1 }
        return initialize(flags)
    }

    /// `mbedtls_ctr_drbg_seed` for the executable's interposer: remembered during init, else mbedTLS's.
    package static func seed(
        _ context: UnsafeMutableRawPointer?, _ entropy: Entropy?,
        _ entropyContext: UnsafeMutableRawPointer?, _ custom: UnsafePointer<UInt8>?,
        _ length: Int
    ) -> Int32 {
        let remembered = remember { state in
            state.seed = (
                UInt(bitPattern: context), entropy.map { UInt(bitPattern: unsafeBitCast($0, to: Int.self)) } ?? 0,
                UInt(bitPattern: entropyContext), UInt(bitPattern: custom), length
            )
        }
        if remembered { return 0 }
        // MBEDTLS_ERR_CTR_DRBG_ENTROPY_SOURCE_FAILED when mbedTLS is not loaded.
        guard let seed = realSeed else { return -0x0034 }
        return seed(context, entropy, entropyContext, custom, length)
    }

    /// `mbedtls_entropy_init` for the executable's interposer: remembered during init, else mbedTLS's.
    package static func entropyInit(_ context: UnsafeMutableRawPointer?) {
        if remember({ $0.entropy = UInt(bitPattern: context) }) { return }
        realEntropyInit?(context)
    }

    /// `mbedtls_entropy_free` for the executable's interposer: nothing to free while the pool's set-up waits.
    package static func entropyFree(_ context: UnsafeMutableRawPointer?) {
        if skipsFree(of: context) { return }
        realEntropyFree?(context)
    }

    /// True when `context` is the entropy pool whose set-up is still deferred: there is nothing to free.
    private static func skipsFree(of context: UnsafeMutableRawPointer?) -> Bool {
        state.withLock { $0.entropy != nil && $0.entropy == UInt(bitPattern: context) && !$0.entropyReady }
    }

    /// True when the call comes from `git_libgit2_init`: remembered instead of made.
    private static func remember(_ update: (inout State) -> Void) -> Bool {
        state.withLock { state in
            guard state.initializing else { return false }
            update(&state)
            return true
        }
    }

    private typealias SSHInit = @convention(c) (Int32) -> Int32
    /// mbedTLS's entropy callback, `int (*)(void *, unsigned char *, size_t)`.
    package typealias Entropy = @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<UInt8>?, Int) -> Int32
    private typealias Seed =
        @convention(c) (
            UnsafeMutableRawPointer?, Entropy?, UnsafeMutableRawPointer?,
            UnsafePointer<UInt8>?, Int
        ) -> Int32

    // RTLD_NEXT is ((void *) -1) in <dlfcn.h>, a macro Swift does not import. RelctlGit is linked into the
    // executable, so the search starts past the executable's own definitions. Each is looked up once: libssh2
    // calls `libssh2_init` itself (through relctl's) on every session it makes.
    private static let realSSHInit = dlsym(UnsafeMutableRawPointer(bitPattern: -1), "libssh2_init")
        .map { unsafeBitCast($0, to: SSHInit.self) }
    private static let realEntropyInit = dlsym(UnsafeMutableRawPointer(bitPattern: -1), "mbedtls_entropy_init")
        .map { unsafeBitCast($0, to: EntropyContextCall.self) }
    private static let realEntropyFree = dlsym(UnsafeMutableRawPointer(bitPattern: -1), "mbedtls_entropy_free")
        .map { unsafeBitCast($0, to: EntropyContextCall.self) }
    private static let realSeed = dlsym(UnsafeMutableRawPointer(bitPattern: -1), "mbedtls_ctr_drbg_seed")
        .map { unsafeBitCast($0, to: Seed.self) }

    private typealias EntropyContextCall = @convention(c) (UnsafeMutableRawPointer?) -> Void
}
