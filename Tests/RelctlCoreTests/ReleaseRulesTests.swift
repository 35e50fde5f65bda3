import Testing
@testable import RelctlCore

private func commit(_ n: Int, _ message: String) -> RawCommit {
    RawCommit(sha: String(repeating: "\(n % 10)", count: 40), message: message, parentCount: 1)
}

private func v(_ text: String) -> SemanticVersion {
    guard let version = SemanticVersion(text) else { fatalError("bad test version \(text)") }
    return version
}

@Suite("ReleaseRules")
struct ReleaseRulesTests {
    @Test func defaults() {
        let rules = ReleaseRules.default
        #expect(rules.bumpForType == ["feat": .minor, "fix": .patch, "perf": .patch])
        #expect(rules.majorOnZero == false)
        #expect(rules.ignoreMerges == true)
        #expect(rules.ignoreFixups == true)
        #expect(rules == ReleaseRules())
    }

    @Test func keysAreLowercasedAndLookupIsCaseInsensitive() {
        let rules = ReleaseRules(bumpForType: ["Docs": .patch, "DOCS": .minor, "feat": .none])
        #expect(rules.bumpForType == ["docs": .minor, "feat": .none])
        #expect(rules.bump(forType: "dOcS") == .minor)
        #expect(rules.bump(forType: "feat") == .none)
        #expect(rules.bump(forType: "fix") == .none)
    }

    @Test func lookupToleratesMixedCaseKeysSetAfterInit() {
        var rules = ReleaseRules.default
        rules.bumpForType["Chore"] = .patch
        #expect(rules.bump(forType: "chore") == .patch)
        #expect(rules.bump(forType: "CHORE") == .patch)
    }

    @Test func bumpForMessage() throws {
        let rules = ReleaseRules.default
        #expect(rules.bump(for: try #require(ConventionalCommitParser.parse("Feat: x"))) == .minor)
        #expect(rules.bump(for: try #require(ConventionalCommitParser.parse("style!: x"))) == .major)
        #expect(rules.bump(for: try #require(ConventionalCommitParser.parse("style: x"))) == .none)
    }
}

@Suite("VersionPolicy")
struct VersionPolicyTests {
    @Test(arguments: [
        ("1.2.3", Bump.none, false, nil as String?),
        ("1.2.3", .patch, false, "1.2.4"),
        ("1.2.3", .minor, false, "1.3.0"),
        ("1.2.3", .major, false, "2.0.0"),
        ("1.2.3", .major, true, "2.0.0"),
        ("0.4.1", .major, false, "0.5.0"),
        ("0.4.1", .major, true, "1.0.0"),
        ("0.4.1", .minor, false, "0.5.0"),
        ("0.4.1", .minor, true, "0.5.0"),
        ("0.4.1", .patch, false, "0.4.2"),
        ("0.0.1", .major, false, "0.1.0"),
        ("0.4.1", .none, true, nil),
        ("1.0.0-rc.1", .patch, false, "1.0.1"),
        ("0.9.0-beta.1+b", .major, false, "0.10.0"),
    ])
    func nextVersion(current: String, bump: Bump, majorOnZero: Bool, expected: String?) {
        let next = VersionPolicy.next(current: v(current), bump: bump, initialVersion: v("1.0.0"), majorOnZero: majorOnZero)
        #expect(next?.description == expected)
    }

    @Test(arguments: Bump.allCases)
    func firstReleaseIsInitialVersionUnbumped(_ bump: Bump) {
        #expect(VersionPolicy.next(current: nil, bump: bump, initialVersion: v("1.0.0"), majorOnZero: false) == v("1.0.0"))
        #expect(VersionPolicy.next(current: nil, bump: bump, initialVersion: v("0.1.0"), majorOnZero: true) == v("0.1.0"))
    }

    @Test func effectiveBump() {
        #expect(VersionPolicy.effectiveBump(current: v("0.1.0"), bump: .major, majorOnZero: false) == .minor)
        #expect(VersionPolicy.effectiveBump(current: v("0.1.0"), bump: .major, majorOnZero: true) == .major)
        #expect(VersionPolicy.effectiveBump(current: v("0.1.0"), bump: .patch, majorOnZero: false) == .patch)
        #expect(VersionPolicy.effectiveBump(current: v("1.1.0"), bump: .major, majorOnZero: false) == .major)
        #expect(VersionPolicy.effectiveBump(current: nil, bump: .major, majorOnZero: false) == .major)
        #expect(VersionPolicy.effectiveBump(current: v("0.1.0"), bump: .none, majorOnZero: true) == .none)
    }

    @Test func analysisToNextVersion() {
        let commits = [commit(2, "feat!: new api"), commit(1, "fix: y")]
        let analysis = CommitAnalyzer.analyze(commits, rules: .default)
        #expect(analysis.bump == .major)
        #expect(VersionPolicy.next(current: v("0.3.0"), bump: analysis.bump, initialVersion: v("1.0.0"), majorOnZero: false) == v("0.4.0"))
        #expect(VersionPolicy.next(current: v("0.3.0"), bump: analysis.bump, initialVersion: v("1.0.0"), majorOnZero: true) == v("1.0.0"))
        #expect(VersionPolicy.next(current: v("3.3.3"), bump: analysis.bump, initialVersion: v("1.0.0"), majorOnZero: false) == v("4.0.0"))
    }
}

@Suite("TagFormat")
struct TagFormatTests {
    @Test(arguments: [
        ("v{version}", "1.2.3", "v1.2.3"),
        ("{version}", "1.2.3", "1.2.3"),
        ("app-v{version}", "1.2.3-rc.1", "app-v1.2.3-rc.1"),
        ("{version}-ios", "2.0.0+build.5", "2.0.0+build.5-ios"),
        ("release/v{version}", "0.1.0", "release/v0.1.0"),
    ])
    func roundTrips(pattern: String, version: String, tag: String) throws {
        let format = try TagFormat(pattern)
        #expect(format.pattern == pattern)
        #expect(format.description == pattern)
        #expect(format.tagName(for: v(version)) == tag)
        #expect(format.version(fromTag: tag) == v(version))
    }

    @Test func prefixAndSuffix() throws {
        let format = try TagFormat("app-v{version}-ios")
        #expect(format.prefix == "app-v")
        #expect(format.suffix == "-ios")
        #expect(TagFormat.default == (try TagFormat("v{version}")))
    }

    @Test(arguments: [
        ("v{version}", ["v1.2", "latest", "v01.2.3", "vv1.2.3", "1.2.3", "v1.2.3 ", "V1.2.3", "v", "", "v1.2.3-", "v1.2.3+", "app-v1.2.3"]),
        ("{version}", ["v1.2.3", "latest", "1.2", "01.2.3", " 1.2.3"]),
        ("app-v{version}", ["v1.2.3", "app-1.2.3", "app-vv1.2.3", "app-v1.2", "app-v"]),
        ("{version}-ios", ["1.2.3", "1.2.3-android", "-ios", "1.2-ios"]),
    ])
    func rejectsNonMatchingTags(pattern: String, tags: [String]) throws {
        let format = try TagFormat(pattern)
        for tag in tags {
            #expect(format.version(fromTag: tag) == nil, "\(tag) should not match \(pattern)")
        }
    }

    @Test func suffixIsStrippedBeforeParsing() throws {
        let format = try TagFormat("{version}-ios")
        #expect(format.version(fromTag: "1.2.3-beta-ios") == v("1.2.3-beta"))
    }

    @Test(arguments: [
        ("", "missing {version} placeholder"),
        ("v", "missing {version} placeholder"),
        ("{Version}", "missing {version} placeholder"),
        ("{version}{version}", "more than one {version} placeholder"),
        ("v{version}-{version}", "more than one {version} placeholder"),
        ("my app {version}", "space in tag name"),
        ("v{version}~1", "character \"~\" is not allowed in tag names"),
        ("v{version}:x", "character \":\" is not allowed in tag names"),
        ("a..b{version}", "\"..\" is not allowed in tag names"),
        ("{version}.lock", "tag names cannot end with \".lock\""),
        ("{version}.", "tag names cannot end with \".\""),
        ("-{version}", "tag names cannot start with \"-\""),
        ("v\t{version}", "control character in tag name"),
    ])
    func rejectsInvalidPatterns(pattern: String, reason: String) {
        #expect(throws: Problem("invalid tag format \"\(pattern)\": \(reason)")) {
            try TagFormat(pattern)
        }
    }
}
