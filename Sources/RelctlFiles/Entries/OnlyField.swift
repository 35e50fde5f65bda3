import RelctlCore

/// `"only"` of a pbxproj, plist or xcconfig entry: the one value relctl reads and writes in that file.
/// `"only": "build"` leaves the marketing version alone (a target whose version is kept elsewhere, or by hand)
/// and writes the build number; `"only": "marketing"` the other way round.
package enum OnlyField: String, Sendable, Hashable, CaseIterable {
    case marketing, build

    /// Whether a value of `field` is this entry's to read and write.
    package func admits(_ field: VersionField) -> Bool {
        switch self {
        case .marketing: return field == .marketing
        case .build: return field != .marketing
        }
    }

    /// The formats that take the option (pbxproj, plist, xcconfig).
    package static var formats: Set<FileFormat> { Set(FormatRegistry.units.filter(\.takesOnly).map(\.name)) }
}

extension OnlyField {
    /// `target` without the values this entry leaves alone.
    package func selecting(_ target: VersionTarget) -> VersionTarget {
        var selected = target
        if !admits(.marketing) { selected.marketing = nil }
        if !admits(.iosBuild) { selected.iosBuild = nil; selected.androidBuild = nil }
        return selected
    }
}
