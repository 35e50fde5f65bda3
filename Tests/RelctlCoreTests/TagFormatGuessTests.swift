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
