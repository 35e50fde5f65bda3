#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import RelctlCore

/// Where one version value of an Xcode target comes from, as Xcode resolves it.
package struct XcodeVersionSource: Sendable, Hashable {
    package enum Kind: String, Sendable, Hashable {
        /// A literal in the project file: the target's build settings or the project's.
        case pbxproj
        /// A literal in an `.xcconfig` (the base configuration, or a file it includes).
        case xcconfig
        /// A literal `CFBundleShortVersionString` / `CFBundleVersion` in the target's Info.plist.
        case plist
        /// `$(FLUTTER_BUILD_NAME)` / `$(FLUTTER_BUILD_NUMBER)`: `flutter build` sets them from pubspec.yaml.
        case flutter
        /// Set nowhere.
        case unset
        /// A value relctl cannot follow (`$(A).$(B)`, a reference loop).
        case unresolved
    }

    package var kind: Kind
    /// The build setting or plist key that holds the value: `MARKETING_VERSION`, `CFBundleVersion`, `APP_VERSION`.
    package var setting: String
    /// Root-relative file holding the value (nil for flutter, unset).
    package var path: String?
    package var line: Int?
    package var value: String?
    /// Byte range of the value in `path` (pbxproj only: the project editor edits it).
    package var range: Range<Int>?
    /// For an xcconfig value: the files that include it, nearest first.
    package var includedFrom: [String] = []
    /// What could not be followed (unresolved).
    package var reason: String?

    /// `ios/Config/Version.xcconfig:2`, `ios/App/Info.plist:21`, `set by flutter build from pubspec.yaml`.
    package var site: String {
        switch kind {
        case .pbxproj, .xcconfig, .plist:
            return (path ?? "?") + (line.map { ":\($0)" } ?? "")
        case .flutter: return "set by flutter build from pubspec.yaml"
        case .unset: return "\(setting) not set"
        case .unresolved: return reason ?? "\(setting) cannot be followed"
        }
    }
}
