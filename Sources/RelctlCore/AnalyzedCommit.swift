/// One commit with its classification.
///
/// Kept small, since a long range holds one per commit until the command prints its result (at 100,000 commits
/// these were most of the memory): the sha is held as its 20 bytes, a conventional header as offsets into the
/// summary (type, scope and description are parts of it), and what few commits have (a revert reference, a body,
/// footers, breaking-change texts that are not the description) in a box of its own. The properties read and write
/// as plain values.
public struct AnalyzedCommit: Hashable, Sendable {
    private var storedSHA: PackedSHA
    private var storedSummary: String
    private var storedMessage: StoredMessage
    /// The contribution to the release; `.none` unless ``status`` is `.counted`.
    public var bump: Bump
    public var status: CommitStatus
    /// `true` when ``message`` is not `nil`.
    public var isConventional: Bool
    private var revert: RevertReference?

    public init(sha: String, summary: String, message: ConventionalMessage?, bump: Bump,
                status: CommitStatus, isConventional: Bool, revertedSHA: String? = nil) {
        self.storedSHA = PackedSHA(sha)
        self.storedSummary = summary
        self.storedMessage = StoredMessage(message, summary: summary)
        self.bump = bump
        self.status = status
        self.isConventional = isConventional
        self.revert = revertedSHA.map { RevertReference(sha: $0, mainline: nil) }
    }

    /// A commit classified from its bytes (``ASCIIClassifier``): the sha already packed, the message already stored.
    init(packedSHA: PackedSHA, summary: String, storedMessage: StoredMessage, bump: Bump, status: CommitStatus) {
        self.storedSHA = packedSHA
        self.storedSummary = summary
        self.storedMessage = storedMessage
        self.bump = bump
        self.status = status
        if case .none = storedMessage { self.isConventional = false } else { self.isConventional = true }
        self.revert = nil
    }

    public var sha: String {
        get { storedSHA.text }
        set { storedSHA = PackedSHA(newValue) }
    }

    /// The first line of the message.
    public var summary: String {
        get { storedSummary }
        set {
            // The stored message points into the summary: it is stored again against the new one.
            let message = self.message
            storedSummary = newValue
            storedMessage = StoredMessage(message, summary: newValue)
        }
    }

    /// The sha as a key for lookups: lowercase (git prints lowercase hex), packed when it is a full sha.
    var shaKey: PackedSHA { storedSHA.lowercased }

    /// The parsed message; `nil` when not conventional. For a fixup analyzed because
    /// ``ReleaseRules/ignoreFixups`` is off, the message without its `fixup! ` prefixes.
    public var message: ConventionalMessage? {
        get { storedMessage.message(summary: storedSummary) }
        set { storedMessage = StoredMessage(newValue, summary: storedSummary) }
    }

    /// The message without its body and footers (its breaking changes stay): what every output needs, and small.
    public mutating func dropBodyAndFooters() {
        guard case .full(let box) = storedMessage, box.message.body != nil || !box.message.footers.isEmpty else {
            return
        }
        var message = box.message
        message.body = nil
        message.footers = []
        storedMessage = StoredMessage(message, summary: storedSummary)
    }

    /// For a revert commit, the sha it reverts as written in its body (possibly abbreviated).
    public var revertedSHA: String? {
        get { revert?.sha }
        set { revert = RevertReference.make(sha: newValue, mainline: revert?.mainline) }
    }

    /// For a revert of a merge, the parent git kept as the mainline (`reversing changes made to <sha>`).
    public var revertMainline: String? {
        get { revert?.mainline }
        set { revert = RevertReference.make(sha: revert?.sha, mainline: newValue) }
    }

    public var counted: Bool { status == .counted }
}

/// A sha as its 20 bytes when it is 40 lowercase hex digits (as a history walk gives it), else as written.
enum PackedSHA: Hashable, Sendable {
    case packed(CommitID)
    case text(String)

    init(_ text: String) {
        if let id = CommitID(hex: text) { self = .packed(id) } else { self = .text(text) }
    }

    var text: String {
        switch self {
        case .text(let text): return text
        case .packed(let id): return id.hex
        }
    }

    /// The same sha in lowercase (packed ones already are).
    var lowercased: PackedSHA {
        guard case .text(let text) = self, text.utf8.contains(where: { $0 >= 65 && $0 <= 90 }) else { return self }
        return PackedSHA(text.lowercased())
    }
}

/// A revert's reference and mainline: few commits have one, so they live apart.
final class RevertReference: Hashable, Sendable {
    let sha: String?
    let mainline: String?

    init(sha: String?, mainline: String?) {
        self.sha = sha
        self.mainline = mainline
    }

    static func make(sha: String?, mainline: String?) -> RevertReference? {
        sha == nil && mainline == nil ? nil : RevertReference(sha: sha, mainline: mainline)
    }

    static func == (lhs: RevertReference, rhs: RevertReference) -> Bool {
        lhs.sha == rhs.sha && lhs.mainline == rhs.mainline
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(sha)
        hasher.combine(mainline)
    }
}
