import Testing
@testable import RelctlFiles

/// Golden before/after fixtures of the Android shapes: version catalogs, `android` reached through the extension
/// type, androidComponents outputs, literal fallbacks, version.properties. Same checks as `GoldenTests`.
@Suite struct AndroidGoldenTests {
    static let cases: [GoldenCase] = [
        GoldenCase("version-catalog", "app-versions", .versionCatalog,
                   options: FileOptions(versionNameKey: "appVersionName", versionCodeKey: "versionCode"),
                   marketing: "2.5.0-rc.1", android: "250", changed: [8, 9]),
        GoldenCase("version-catalog", "dashed-keys-crlf", .versionCatalog,
                   options: FileOptions(versionNameKey: "app.version.name", versionCodeKey: "app-version-code"),
                   marketing: "1.1.0", android: "8", changed: [2, 3]),
        GoldenCase("gradle", "kotlin-configure-application-extension", .gradle, marketing: "3.2.0", android: "3108", changed: [17, 18]),
        GoldenCase("gradle", "kotlin-android-components", .gradle, marketing: "5.3.0", android: "53", changed: [9, 10, 18, 19]),
        GoldenCase("gradle", "kotlin-fallback", .gradle, marketing: "1.10.0", android: "1010", changed: [10, 11]),
        GoldenCase("gradle", "groovy-fallback-ternary", .gradle, marketing: "0.58.0", android: "58", changed: [7, 8]),
        GoldenCase("properties", "version-properties", .properties,
                   options: FileOptions(versionNameKey: "versionName", versionCodeKey: "versionCode"),
                   marketing: "4.13.0", android: "41300", changed: [3, 4]),
    ]

    @Test(arguments: cases)
    func golden(_ c: GoldenCase) throws {
        try GoldenTests().golden(c)
    }
}
