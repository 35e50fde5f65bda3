import RelctlCore

/// `stores` of `.relctl.json`: the app's entries in the stores, checked before the minimum rises.
///
/// ```json
/// "stores": { "appStoreConnect": { "bundleId": "com.acme.field" }, "googlePlay": { "packageName": "com.acme.field" } }
/// ```
struct StoresSettings: Sendable {
    var appStoreBundleID: String?
    var googlePlayPackageName: String?

    static let keys = ["appStoreConnect", "googlePlay"]
}

extension Config {
    static let storesKeys = ["stores"]

    /// Reads `stores` strictly: unknown keys with a did-you-mean, identifiers that cannot be one refused with their line.
    mutating func parseStores(_ object: StrictObject) throws(Problem) {
        guard let stores = try object.object("stores") else { return }
        try stores.rejectUnknownKeys(StoresSettings.keys)
        var settings = StoresSettings()
        if let apple = try stores.object("appStoreConnect") {
            try apple.rejectUnknownKeys(["bundleId"])
            guard let (bundleID, node) = try apple.string("bundleId") else {
                throw apple.error(apple.node, "'stores.appStoreConnect' needs \"bundleId\", the iOS app's bundle identifier, like \"com.acme.field\"")
            }
            guard Self.isIdentifier(bundleID) else {
                throw apple.error(node, "'stores.appStoreConnect.bundleId' \"\(bundleID)\" is not a bundle identifier; use the app's, like \"com.acme.field\"")
            }
            settings.appStoreBundleID = bundleID
        }
        if let play = try stores.object("googlePlay") {
            try play.rejectUnknownKeys(["packageName"])
            guard let (name, node) = try play.string("packageName") else {
                throw play.error(play.node, "'stores.googlePlay' needs \"packageName\", the Android app's application ID, like \"com.acme.field\"")
            }
            guard Self.isIdentifier(name), !name.contains("-") else {
                throw play.error(node, "'stores.googlePlay.packageName' \"\(name)\" is not an application ID; use the app's, like \"com.acme.field\"")
            }
            settings.googlePlayPackageName = name
        }
        self.stores = settings
    }

    /// Letters, digits, dots, hyphens and underscores, with a dot: what bundle IDs and application IDs are made of.
    private static func isIdentifier(_ text: String) -> Bool {
        !text.isEmpty && text.contains(".") && text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-" || $0 == "_") }
    }
}
