import RelctlCore

/// The version of one build configuration of one target.
package struct XcodeTargetVersion: Sendable, Hashable {
    package var target: String
    package var productType: String
    package var configuration: String
    /// The configuration `xcodebuild` uses without `-configuration` (usually Release).
    package var isDefaultConfiguration: Bool
    /// Line of the configuration in the pbxproj.
    package var line: Int
    /// `SDKROOT` (`iphoneos`, `macosx`, `watchos` …) when set.
    package var platform: String?
    package var marketing: XcodeVersionSource
    package var build: XcodeVersionSource

    package func source(_ field: VersionField) -> XcodeVersionSource { field == .marketing ? marketing : build }

    /// An application (iOS, macOS, tvOS …), not an extension, watch app or App Clip.
    package var isApplication: Bool { productType == "com.apple.product-type.application" }
}
