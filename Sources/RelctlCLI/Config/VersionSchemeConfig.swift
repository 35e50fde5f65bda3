import RelctlCore
import RelctlFiles

// `versionScheme` of `.relctl.json`: "semver" (the default), "major.minor" (two parts) or a calendar scheme such as
// "YYYY.M.MICRO".

extension Config {
    /// Reads `versionScheme`, and refuses a scheme the configured iOS files cannot carry: App Store Connect
    /// takes at most three components in CFBundleShortVersionString (ITMS-90060).
    mutating func parseVersionScheme(_ object: StrictObject) throws(Problem) {
        guard let (text, node) = try object.string("versionScheme") else { return }
        do {
            versionScheme = try VersionScheme(text)
        } catch {
            throw object.error(node, "'versionScheme' is not a scheme relctl knows: \(error); use \"semver\", \"major.minor\" (two-part versions such as 8.19) or a calendar scheme such as \"YYYY.M.MICRO\" or \"YY.0M\" (tokens YYYY, YY, 0Y, MM/M, 0M, WW/W, 0W, DD/D, 0D, MICRO/PATCH)")
        }
        if versionScheme.componentCount > 3, let ios = files.first(where: { $0.format.marketingPlatform == .ios }) {
            let shorter = text.split(separator: ".").dropLast().joined(separator: ".")
            throw object.error(node, "'versionScheme' \"\(text)\" has \(versionScheme.componentCount) components, but \(ios.path) is an iOS file and App Store Connect accepts at most three in CFBundleShortVersionString (ITMS-90060); use three, e.g. \"\(shorter)\"")
        }
    }
}
