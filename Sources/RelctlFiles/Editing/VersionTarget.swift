/// The values to write; nil leaves a field untouched.
package struct VersionTarget: Sendable, Hashable {
    package var marketing: String?
    package var iosBuild: String?
    package var androidBuild: String?

    package init(marketing: String? = nil, iosBuild: String? = nil, androidBuild: String? = nil) {
        self.marketing = marketing
        self.iosBuild = iosBuild
        self.androidBuild = androidBuild
    }

    /// The value for one field. `.build` (pubspec) takes `androidBuild ?? iosBuild`.
    package func value(for field: VersionField) -> String? {
        switch field {
        case .marketing: return marketing
        case .iosBuild: return iosBuild
        case .androidBuild: return androidBuild
        case .build: return androidBuild ?? iosBuild
        }
    }
}
