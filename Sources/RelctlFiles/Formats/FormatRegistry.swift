import RelctlCore

/// The formats relctl edits, one unit each. Adding a format: a folder `Formats/<Format>/` with its editor and its
/// unit, a case in `FileFormat`, one line here, and golden fixtures (see the README's development section).
///
/// The order is the order `relctl init` detects in: the cross-platform app configs first (their version is the
/// app's, which the native projects are compared with), then the Apple and the Android files.
package enum FormatRegistry {
    package static let units: [any VersionFileFormat] = [
        ExpoFormat(),
        ExpoJSFormat(),
        JSONFormat(),
        PubspecFormat(),
        PbxprojFormat(),
        PlistFormat(),
        XcconfigFormat(),
        GradleFormat(),
        PropertiesFormat(),
        VersionCatalogFormat(),
        RegexFormat(),
    ]

    /// The unit of `format`. A search of the eleven units: a `[FileFormat: …]` dictionary costs the Swift runtime a
    /// scan of the binary's protocol conformances (`FileFormat: Hashable`) on every run.
    package static func unit(_ format: FileFormat) -> any VersionFileFormat {
        guard let unit = units.first(where: { $0.name == format }) else { preconditionFailure("format \(format.rawValue) has no unit in FormatRegistry") }
        return unit
    }
}

extension FileFormat {
    /// Everything relctl knows about this format (`FormatRegistry`).
    package var unit: any VersionFileFormat { FormatRegistry.unit(self) }

    /// The platform whose store rules apply to the marketing version written into this format.
    package var marketingPlatform: StorePlatform? { unit.marketingPlatform }
}
