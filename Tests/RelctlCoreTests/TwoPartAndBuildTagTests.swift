import Testing
@testable import RelctlCore

@Suite("two-part versions and tags carrying a build")
struct TwoPartAndBuildTagTests {
    @Test(arguments: [
        ("v{version}.{build}", "v1.7.0.4", "1.7.0", "4"),
        ("release/{version}/{build}", "release/2026.7.0/2026.2208", "2026.7.0", "2026.2208"),
        ("{version}-{build}", "7.157.0-5", "7.157.0", "5"),
        ("{version}-{build}", "7.157.0-rc.1-5", "7.157.0-rc.1", "5"),
        ("v{version}+{build}-ios", "v2.1.0+88-ios", "2.1.0", "88"),
    ])
    func aTagSplitsIntoVersionAndBuild(pattern: String, tag: String, version: String, build: String) throws {
        let format = try TagFormat(pattern)
        #expect(format.carriesBuild)
        let parts = format.parts(fromTag: tag)
        #expect(parts?.version == version && parts?.build == build, "\(String(describing: parts))")
        #expect(format.versionText(fromTag: tag) == version)
        #expect(format.tagName(for: SemanticVersion(version) ?? SemanticVersion(major: 0, minor: 0, patch: 0), build: build) == tag
                || SemanticVersion(version) == nil)
        #expect(format.literalPrefix == String(pattern.prefix { $0 != "{" }))
    }

    @Test(arguments: [
        ("{build}-{version}", "{build} must come after {version}"),
        ("v{version}{build}", "{build} needs a separator after {version} that holds no digit"),
        ("v{version}.{build}.{build}", "more than one {build} placeholder"),
        ("v{version}.{build}..", "\"..\" is not allowed in tag names"),
    ])
    func aBadBuildPatternIsRefused(pattern: String, reason: String) {
        #expect(throws: Problem.self) { try TagFormat(pattern) }
        do { _ = try TagFormat(pattern) } catch { #expect(error.message.hasPrefix("invalid tag format \"\(pattern)\": " + reason), "\(error.message)") }
    }

    @Test func aTagWithoutABuildIsNoBuildTag() throws {
        let format = try TagFormat("v{version}.{build}")
        #expect(format.parts(fromTag: "v1.7.0.x") == nil)
        #expect(format.parts(fromTag: "w1.7.0.4") == nil)
        #expect(format.textIgnoringBuild(fromTag: "v1.6.0") == "1.6.0")
        // A format without {build} reads as before.
        let plain = try TagFormat("v{version}")
        #expect(!plain.carriesBuild && plain.parts(fromTag: "v1.7.0.4")?.version == "1.7.0.4" && plain.parts(fromTag: "v1.7.0.4")?.build == nil)
    }

    @Test(arguments: [
        ("8.19", "8.19", UInt64(8), UInt64(19), true), ("29.0", "29.0", 29, 0, true), ("8.19-rc-2", "8.19-rc-2", 8, 19, false),
        ("8.19-rc.2", "8.19-rc.2", 8, 19, false), ("8.19+b7", "8.19+b7", 8, 19, true),
    ])
    func twoPartVersionsParse(text: String, written: String, major: UInt64, minor: UInt64, stable: Bool) throws {
        let version = try #require(TwoPartVersion(text))
        #expect(version.text == written && version.major == major && version.minor == minor && version.isStable == stable)
    }

    @Test(arguments: ["8", "8.19.0", "08.1", "8.01", "8.", "v8.19", "8.19-", "8.19-rc..2"])
    func notTwoPartVersions(text: String) {
        #expect(TwoPartVersion(text) == nil)
    }

    @Test func prereleasesOrderWhateverTheirSpellingAndSitBelowTheFinal() throws {
        let rc2 = try #require(TwoPartVersion("8.19-rc-2")), rc10 = try #require(TwoPartVersion("8.19-rc-10"))
        let final = try #require(TwoPartVersion("8.19")), next = try #require(TwoPartVersion("8.20"))
        #expect(rc2 < rc10 && rc10 < final && final < next)
        #expect(rc2.semantic == SemanticVersion("8.19.0-rc.2"))
        #expect(TwoPartVersion(SemanticVersion("8.20.0-rc.3")!, spelling: rc2.spelling).text == "8.20-rc-3")
        #expect(TwoPartVersion(SemanticVersion("8.20.0-rc.3")!, spelling: PrereleaseSpelling(separator: "")).text == "8.20-rc3")
        #expect(TwoPartVersion(SemanticVersion("8.20.0-beta.1.2")!).text == "8.20-beta.1.2")
    }

    @Test func theSchemeBumpsAPatchAsAMinorAndNamesItself() throws {
        let scheme = try VersionScheme("major.minor")
        #expect(scheme == .majorMinor && scheme.description == "major.minor" && scheme.componentCount == 2)
        #expect(scheme.effective(.patch) == .minor && scheme.effective(.major) == .major && VersionScheme.semver.effective(.patch) == .patch)
        #expect(scheme.parse("8.19")?.description == "8.19" && scheme.parse("8.19.0") == nil)
        #expect(scheme.example == "MAJOR.MINOR such as 1.3")
    }
}
