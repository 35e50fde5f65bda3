internal import CLibGit2
#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// `git_libgit2_init` of Debian's libgit2 (built with mbedTLS) parses every certificate in the system CA bundle
/// (`/etc/ssl/certs/ca-certificates.crt`, about 140 PEM certificates): some 52 million instructions, 4 ms, on
/// every relctl run that opens a repository, though only `push` and the remote listing ever talk HTTPS.
///
/// The relctl executable (and only it: `Sources/relctl/Interposers.swift`) defines the two mbedTLS functions
/// libgit2 calls for that, and hands each call to `parseFile`/`parsePath` here. An executable's own symbols come
/// first in the dynamic linker's search order, so libgit2's calls land there: while `git_libgit2_init` runs, the
/// location is only remembered (an empty CA chain is set); at any other time the call goes on to mbedTLS
/// (`RTLD_NEXT`). Before the first network operation, `loadIfDeferred()` hands the remembered location to libgit2
/// (`GIT_OPT_SET_SSL_CERT_LOCATIONS`), which parses it then, exactly as init would have. In a process without the
/// interposers (the test binary, `relctl-fuzz`) init parses the bundle itself, nothing is remembered and
/// `loadIfDeferred()` does nothing; with a libgit2 built on OpenSSL the functions are never called.
package enum DeferredCertificates {
    private struct State {
        var initializing = false
        var file: String?
        var directory: String?
        var loaded = false

        @inline(never) static func initial() -> State { State() }
    }
    // Not `Mutex(State())`: an optimised build may initialise a global Mutex of a folded struct to zero bytes
    // (DeferredNetworkInit says more); a call it does not fold keeps the lazy initialisation.
    private static let state = Mutex(State.initial())

    /// Runs libgit2's initialisation with certificate loading deferred.
    static func initializing(_ body: () -> Void) {
        state.withLock { $0.initializing = true }
        body()
        state.withLock { $0.initializing = false }
    }

    /// Loads the certificate location libgit2's initialisation asked for, once, before a network operation.
    static func loadIfDeferred() {
        let location: (file: String?, directory: String?)? = state.withLock { state in
            guard !state.loaded, state.file != nil || state.directory != nil else { return nil }
            state.loaded = true
            return (state.file, state.directory)
        }
        guard let location else { return }
        _ = setLocations(file: location.file, directory: location.directory)
    }

    /// What `git_libgit2_init` asked to load and whether it was loaded since.
    static var remembered: (file: String?, directory: String?, loaded: Bool) {
        state.withLock { ($0.file, $0.directory, $0.loaded) }
    }

    /// libgit2's `GIT_OPT_SET_SSL_CERT_LOCATIONS`: 0, or a negative code when the certificates do not parse.
    static func setLocations(file: String?, directory: String?) -> Int32 {
        _ = libgit2Initialized
        return relctl_git_set_ssl_cert_locations(file, directory)
    }

    /// `mbedtls_x509_crt_parse_file` for the executable's interposer: remembered during init, else mbedTLS's.
    package static func parseFile(_ chain: UnsafeMutableRawPointer?, _ path: UnsafePointer<CChar>?) -> Int32 {
        if remember(file: path.map { String(cString: $0) }, directory: nil) { return 0 }
        // MBEDTLS_ERR_X509_FEATURE_UNAVAILABLE when mbedTLS is not loaded (nobody but libgit2 could call this then).
        guard let parse = realParseFile else { return -0x2080 }
        return parse(chain, path)
    }

    /// `mbedtls_x509_crt_parse_path` for the executable's interposer: remembered during init, else mbedTLS's.
    package static func parsePath(_ chain: UnsafeMutableRawPointer?, _ path: UnsafePointer<CChar>?) -> Int32 {
        if remember(file: nil, directory: path.map { String(cString: $0) }) { return 0 }
        guard let parse = realParsePath else { return -0x2080 }
        return parse(chain, path)
    }

    /// True when the call comes from `git_libgit2_init`: the location is remembered instead of parsed.
    private static func remember(file: String?, directory: String?) -> Bool {
        state.withLock { state in
            guard state.initializing else { return false }
            if let file { state.file = file }
            if let directory { state.directory = directory }
            return true
        }
    }

    private typealias Parse = @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?) -> Int32

    /// The mbedTLS functions, after the executable's own in the search order (RelctlGit is linked into the
    /// executable, so `RTLD_NEXT` here searches past it), each looked up once.
    private static let realParseFile = next("mbedtls_x509_crt_parse_file")
    private static let realParsePath = next("mbedtls_x509_crt_parse_path")

    private static func next(_ name: String) -> Parse? {
        // RTLD_NEXT is ((void *) -1) in <dlfcn.h>, a macro Swift does not import.
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: -1), name) else { return nil }
        return unsafeBitCast(symbol, to: Parse.self)
    }
}
