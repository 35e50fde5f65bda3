/// The three states of a feature switch.
public enum FeatureState: String, Sendable, Hashable, CaseIterable, Codable {
    /// On for everyone.
    case on
    /// Off for everyone: one broken feature disabled without a release.
    case off
    /// On only for internal users (your own testers, through the real store build).
    case `internal`
}
