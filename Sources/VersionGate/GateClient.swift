/// The gate as an app runs it: fetch results in, decisions out, with the cache, the throttle and the
/// dismissed version kept in an injected ``GateStorage`` and time read from an injected clock.
///
/// ```swift
/// var gate = GateClient(reader: GateDocumentReader(format: .json), storage: defaultsStorage,
///                       clock: { GateInstant(secondsSince1970: Date().timeIntervalSince1970) })
/// let fetch: GateFetchResult = gate.shouldCheck() ? await fetchDocument() : .unavailable
/// let decision = gate.decide(installed: GateVersion(appVersion), platform: .ios, fetch: fetch)
/// ```
///
/// Only a document that was fetched and read can block. A failed fetch or an unreadable document never
/// does: the last good document is used while it applies (``GateCachePolicy``), and without one the
/// decision is ``GateStatus/error``, which lets the user through.
public struct GateClient<Storage: GateStorage> {
    public var storage: Storage
    public var reader: GateDocumentReader
    public var policy: GateCachePolicy
    /// Prefix of the storage keys: `<prefix>document`, `<prefix>fetchedAt`, `<prefix>dismissedVersion`.
    public let keyPrefix: String
    private let clock: @Sendable () -> GateInstant

    public init(
        reader: GateDocumentReader, storage: Storage, policy: GateCachePolicy = GateCachePolicy(),
        keyPrefix: String = "versionGate.", clock: @escaping @Sendable () -> GateInstant
    ) {
        self.reader = reader
        self.storage = storage
        self.policy = policy
        self.keyPrefix = keyPrefix
        self.clock = clock
    }

    private var documentKey: String { keyPrefix + "document" }
    private var fetchedAtKey: String { keyPrefix + "fetchedAt" }
    private var dismissedKey: String { keyPrefix + "dismissedVersion" }

    /// The cached document and when it was fetched, if any.
    public var cachedEntry: GateCacheEntry? {
        guard let document = storage.string(forKey: documentKey),
            let seconds = storage.string(forKey: fetchedAtKey).flatMap(Double.init)
        else { return nil }
        return GateCacheEntry(document: document, fetchedAt: GateInstant(secondsSince1970: seconds))
    }

    /// The version the user last chose Later for.
    public var dismissedVersion: GateVersion? {
        storage.string(forKey: dismissedKey).map { GateVersion($0) }
    }

    /// Whether to fetch the document now (at most one successful check per throttle window).
    public func shouldCheck() -> Bool {
        policy.shouldCheck(lastSuccessfulCheck: cachedEntry?.fetchedAt, now: clock())
    }

    /// The verdict for `installed` on `platform`, given this time's fetch.
    ///
    /// A fetched document that reads is cached (raw) and decides. A mock document decides without being
    /// cached. Otherwise the cached document decides while it applies, judged against today's `installed`
    /// version, so an update installed offline lifts a cached block.
    public mutating func decide(
        installed: GateVersion, platform: GatePlatform?, fetch: GateFetchResult, store: StoreListing = .notConfigured
    ) -> GateDecision {
        let now = clock()
        let dismissed = dismissedVersion
        var unreadable = false
        switch fetch {
        case .fetched(let text):
            // `config` is `nil` for a `null` document, which is a good document ("run with defaults").
            if case .success(let config) = read(text) {
                if let entry = policy.entryToCache(document: text, isMock: false, now: now) {
                    storage.setString(entry.document, forKey: documentKey)
                    storage.setString(String(entry.fetchedAt.secondsSince1970), forKey: fetchedAtKey)
                }
                return GateLadder.evaluate(installed: installed, config: config, store: store, dismissed: dismissed)
            }
            unreadable = true
        case .mock(let text):
            guard case .success(let config) = read(text) else {
                return GateLadder.failOpen(installed: installed, reason: .configUnreadable)
            }
            return GateLadder.evaluate(installed: installed, config: config, store: store, dismissed: dismissed)
        case .unavailable:
            break
        }
        if let entry = cachedEntry, case .success(let config) = read(entry.document),
            policy.applies(entry, documentMaxAgeSeconds: config?.maxAgeSeconds, now: now)
        {
            return GateLadder.evaluate(installed: installed, config: config, store: store, dismissed: dismissed)
        }
        return GateLadder.failOpen(installed: installed, reason: unreadable ? .configUnreadable : .configUnavailable)

        func read(_ text: String) -> Result<GateConfig?, GateDocumentError> {
            do throws(GateDocumentError) {
                return .success(try reader.config(from: text, for: platform))
            } catch {
                return .failure(error)
            }
        }
    }

    /// Records the user's Later for `decision`'s latest version. Does nothing for a decision that cannot be
    /// dismissed (a block, maintenance, ok), so a dismissal never suppresses a block.
    public mutating func dismiss(_ decision: GateDecision) {
        guard let version = decision.versionToDismiss else { return }
        storage.setString(version.description, forKey: dismissedKey)
    }
}

extension GateClient: Sendable where Storage: Sendable {}
