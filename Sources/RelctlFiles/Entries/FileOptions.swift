import RelctlCore

/// Per-format options; each applies only to the formats listed.
package struct FileOptions: Sendable, Hashable {
    /// json: key path of the value (default `["version"]`).
    package var keyPath: [String]?
    /// json, regex: which field the value is (default marketing).
    package var field: VersionField?
    /// pbxproj: target names (nil = application and app-extension targets).
    package var targets: [String]?
    /// regex: a pattern with a `(?<version>…)` group.
    package var pattern: String?
    /// regex: where `pattern` is written (the config file, the line), for a pattern stopped by its step budget.
    package var patternSource: DiagnosticLocation?
    /// properties: key of the version name (`VERSION_NAME` when neither key is given); version-catalog: the key of
    /// the `[versions]` table holding the version name.
    package var versionNameKey: String?
    /// properties: key of the version code (`VERSION_CODE` when neither key is given); version-catalog: the key of
    /// the `[versions]` table holding the version code.
    package var versionCodeKey: String?
    /// pubspec: keep a zero-padded build number zero-padded to the same width.
    package var padBuildNumber: Bool
    /// pbxproj, plist, xcconfig: read and write only this value (see `OnlyField`).
    package var only: OnlyField?
    /// gradle: the product flavour whose own versionCode / versionName the entry reads and writes.
    package var flavor: String?

    /// properties: the keys read and written. Only the configured keys; `VERSION_NAME` and `VERSION_CODE` when
    /// neither is configured.
    package var propertyKeys: (name: String?, code: String?) {
        if versionNameKey == nil && versionCodeKey == nil { return ("VERSION_NAME", "VERSION_CODE") }
        return (versionNameKey, versionCodeKey)
    }

    package init(keyPath: [String]? = nil, field: VersionField? = nil, targets: [String]? = nil, pattern: String? = nil,
                versionNameKey: String? = nil, versionCodeKey: String? = nil, padBuildNumber: Bool = false,
                only: OnlyField? = nil, flavor: String? = nil) {
        self.flavor = flavor
        self.keyPath = keyPath
        self.field = field
        self.targets = targets
        self.pattern = pattern
        self.versionNameKey = versionNameKey
        self.versionCodeKey = versionCodeKey
        self.padBuildNumber = padBuildNumber
        self.only = only
    }
}
