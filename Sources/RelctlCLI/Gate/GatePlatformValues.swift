import VersionGate

/// What one platform of the app reads from the gate document: its minimum, latest and store page.
struct GatePlatformValues {
    let platform: GatePlatform
    let condition: String
    let minimum: GateVersion?
    let latest: GateVersion?
    let storeURL: String?

    /// `ios      minimum 2.3.1   latest 2.5.0`, columns aligned across platforms by `width`.
    func row(width: Int) -> String {
        "\(padded(platform.rawValue, width))  minimum \(padded(minimum?.description ?? "none", 9)) latest \(latest?.description ?? "none")"
    }

    var json: JSONOutput {
        .object([("platform", .string(platform.rawValue)), ("condition", .string(condition)),
                 ("minimum", .optional(minimum?.description)), ("latest", .optional(latest?.description)),
                 ("storeUrl", .optional(storeURL))])
    }
}

extension LoadedGateDocument {
    /// The values of every platform of the gate, in the order of 'gate.platforms'. A value the app could not read
    /// is shown as none (`relctl gate check` says why).
    func platformValues() -> [GatePlatformValues] {
        settings.platforms.map { platform, _ in
            let config = (try? document.config(for: platform)) ?? nil
            return GatePlatformValues(platform: platform, condition: document.condition(for: platform),
                                      minimum: config?.minimumSupportedVersion, latest: config?.latestVersion,
                                      storeURL: config?.storeURL)
        }
    }
}

/// `text` followed by spaces up to `width` characters (never cut).
func padded(_ text: String, _ width: Int) -> String {
    text + String(repeating: " ", count: max(0, width - text.count))
}
