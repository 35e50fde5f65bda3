/// The two shapes of gate document.
public enum GateDocumentFormat: String, Sendable, Hashable, CaseIterable, Codable {
    /// A Firebase Remote Config template as `firebase remoteconfig:get -o` writes it: `conditions`,
    /// `parameters`, `parameterGroups` (whose parameters sit one level deeper), values as strings in
    /// `defaultValue.value`, per-condition values in `conditionalValues`.
    case firebase
    /// A plain JSON document served by the team's own API: `minimumSupportedVersion`, `latestVersion`,
    /// `features`, … at the top level, per-platform values under `platforms`.
    case json
}
