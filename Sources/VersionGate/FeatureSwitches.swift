/// Feature switches read from the gate document.
public enum FeatureSwitches {
    /// Whether feature `name` is enabled.
    ///
    /// - A `nil` config (a `null` document, or none could be had) runs with the build's defaults.
    /// - A switch the document does not name (or names with an unknown state) uses `buildDefault`, so an
    ///   older build behaves as it was tested to behave when a switch is renamed.
    /// - `internal` is on only when `isInternalUser`.
    public static func isEnabled(
        _ name: String, in config: GateConfig?, buildDefault: Bool, isInternalUser: Bool
    ) -> Bool {
        guard let state = config?.features[name] else { return buildDefault }
        switch state {
        case .on: return true
        case .off: return false
        case .internal: return isInternalUser
        }
    }
}
