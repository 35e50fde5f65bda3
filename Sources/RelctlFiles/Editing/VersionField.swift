/// Which version field a location holds.
package enum VersionField: String, Sendable, Hashable, CaseIterable {
    /// The marketing version: expo.version, versionName, CFBundleShortVersionString, MARKETING_VERSION, package.json version.
    case marketing
    /// CFBundleVersion / CURRENT_PROJECT_VERSION / expo.ios.buildNumber.
    case iosBuild
    /// versionCode / expo.android.versionCode.
    case androidBuild
    /// A build number shared by both platforms (pubspec `+N`).
    case build
}
