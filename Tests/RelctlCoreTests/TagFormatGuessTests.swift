import Testing
@testable import RelctlCore

@Suite("tag format guess")
struct TagFormatGuessTests {
    @Test(arguments: [
        ("2.1.3", "", "2.1.3", ""),
        ("stable-3.30.0", "stable-", "3.30.0", ""),
        ("v2026.8.0-bwpm", "v", "2026.8.0", "-bwpm"),
        ("app/v1.4", "app/v", "1.4", ""),
    ])
    func splitsAroundTheVersion(name: String, prefix: String, version: String, suffix: String) {
        let split = TagFormatGuess.split(name)
        #expect(split?.prefix == prefix && split?.version == version && split?.suffix == suffix, "\(String(describing: split))")
    }

    @Test(arguments: ["release/2026.7.0/2026.2208", "rc-3.30.0-03", "dev-20260821", "v4", "latest", "v2.0-beta.1"])
    func aTagWithOtherDigitsOrNoDottedNumberHasNoFormat(name: String) {
        #expect(TagFormatGuess.split(name) == nil)
    }

    @Test func theFormatWithTheMostStableVersionsWinsHighestFirst() {
        let names = ["2.0.9", "2.1.3", "2.1.10", "nightly-1.0.0", "2.1.3-beta.1", "v1.2", "release/2026.7.0/2026.2208"]
        #expect(TagFormatGuess.candidates(tagNames: names, scheme: .semver)
                == [TagFormatGuess(pattern: "{version}", tags: ["2.1.10", "2.1.3", "2.0.9"])])
    }

    @Test func aTieIsNotGuessedAndOneStrayTagIsNoFormat() {
        let names = ["v3.1.0-phone", "v3.0.0-phone", "v3.1.0-watch", "v3.0.0-watch", "2024.9.4"]
        #expect(TagFormatGuess.candidates(tagNames: names, scheme: .semver).map(\.pattern) == ["v{version}-phone", "v{version}-watch"])
        #expect(TagFormatGuess.candidates(tagNames: ["2024.9.4", "release/1.0.0/12"], scheme: .semver) == [])
    }
}

/// `TagFormat` splits an ASCII pattern at `{version}` byte-wise; it must split as `split(separator:)` does.
@Suite("Tag format placeholder split")
struct TagFormatPlaceholderSplitTests {
    @Test(arguments: ["v{version}", "{version}", "app-v{version}-ios", "{version}{version}", "v{versio}", "", "{version",
                      "x{version}y{version}z", "é{version}", "{version}\u{301}", "ü-{version}-ß"])
    func splitsAsTheStringSearcherDoes(_ pattern: String) {
        #expect(TagFormat.placeholderParts(pattern)
                == pattern.split(separator: TagFormat.placeholder, omittingEmptySubsequences: false).map(String.init))
    }
}

@Suite("tag format guess: build numbers in tags")
struct TagFormatGuessBuildTests {
    @Test(arguments: [
        ("release/2026.7.0/2026.2208", "release/{version}/{build}", "2026.7.0"),
        ("7.157.0-5", "{version}-{build}", "7.157.0"),
        ("app-v2.1.0+77", "app-v{version}+{build}", "2.1.0"),
        ("v3.0.0", "v{version}", "3.0.0"),
    ])
    func findsTheFormatWithItsBuild(name: String, pattern: String, version: String) {
        let found = TagFormatGuess.formatAndVersion(name)
        #expect(found?.pattern == pattern && found?.version == version, "\(String(describing: found))")
    }

    @Test(arguments: ["rc-3.30.0-03x1", "dev-20260821", "release/2026.7.0/2026.2208/3", "v4", "build-12"])
    func aTagWithDigitsElsewhereHasNoFormat(name: String) {
        #expect(TagFormatGuess.formatAndVersion(name) == nil, "\(String(describing: TagFormatGuess.formatAndVersion(name)))")
    }

    /// Home Assistant's shape: more test-build tags than release tags, and two stray plain tags.
    @Test func releaseTagsWinOverMoreTestBuildTags() {
        let names = ["2024.9.4", "2019.1.0", "release/2026.7.3/2026.2546", "release/2026.7.0/2026.2208", "release/2026.5.0/2026.1987",
                     "testflight/2026.7.3/2540", "testflight/2026.7.3/2541", "testflight/2026.7.3/2542", "testflight/2026.7.0/2200"]
        #expect(TagFormatGuess.candidates(tagNames: names, scheme: .semver)
                == [TagFormatGuess(pattern: "release/{version}/{build}",
                                   tags: ["release/2026.7.3/2026.2546", "release/2026.7.0/2026.2208", "release/2026.5.0/2026.1987"])])
        // Only test-build tags: they are what there is.
        #expect(TagFormatGuess.candidates(tagNames: Array(names[5...]), scheme: .semver).map(\.pattern) == ["testflight/{version}/{build}"])
    }
}

@Suite("build number guess")
struct BuildNumberGuessTests {
    @Test func theDigitsEveryPairFollows() {
        #expect(BuildNumberGuess.fromVersionDigits([("6.1.7", "60107"), ("1.0.3", "10003")]) == [2, 2])
        #expect(BuildNumberGuess.fromVersionDigits([("2.3.4", "2003004"), ("1.0.0", "1000000")]) == [3, 3])
        #expect(BuildNumberGuess.fromVersionDigits([("2.3.4", "203004"), ("1.2.0", "102000")]) == [2, 3])
        // One version's build is not enough.
        #expect(BuildNumberGuess.fromVersionDigits([("2.3.4", "20304"), ("2.3.4", "20304")]) == nil)
        #expect(BuildNumberGuess.fromVersionDigits([("6.1.7", "60107"), ("6.1.7", "60108")]) == nil)
        #expect(BuildNumberGuess.fromVersionDigits([("0.0.1", "1")]) == nil)
        #expect(BuildNumberGuess.fromVersionDigits([]) == nil)
        #expect(BuildNumberGuess.fromVersionDigits([("1.2.3", "1.2.3")]) == nil)
    }
}

extension BuildNumberGuessTests {
    /// 260 for 2.6.0 may be counted by hand: one-digit slots are never guessed.
    @Test func oneDigitSlotsAreNotGuessed() {
        #expect(BuildNumberGuess.fromVersionDigits([("2.6.0", "260")]) == nil)
        #expect(BuildNumberGuess.fromVersionDigits([("4.1.2", "412")]) == nil)
    }
}

extension TagFormatGuessBuildTests {
    /// A prerelease is no build: `v3.38.0-rc.18` keeps the format `v{version}` (its channel tells the rest).
    @Test(arguments: ["v3.38.0-rc.18", "2.1.0-beta.2", "v1.0.0-alpha1"])
    func aPrereleaseIsNoBuild(name: String) {
        #expect(TagFormatGuess.formatAndVersion(name) == nil, "\(String(describing: TagFormatGuess.formatAndVersion(name)))")
    }
}
