import Testing
@testable import RelctlCore

@Suite("SemanticVersion parsing")
struct SemanticVersionParsingTests {
    @Test(arguments: [
        "0.0.0", "1.2.3", "10.20.30", "1.0.0-alpha", "1.0.0-alpha.1", "1.0.0-0.3.7",
        "1.0.0-x.7.z.92", "1.0.0-x-y-z.--", "1.0.0-alpha+001", "1.0.0+20130313144700",
        "1.0.0-beta+exp.sha.5114f85", "1.0.0+21AF26D3----117B344092BD", "1.2.3----RC-SNAPSHOT.12.9.1--.12+788",
        "1.0.0-0A", "1.0.0-00A", "1.0.0+001.01", "18446744073709551615.0.0",
        "1.2.3-18446744073709551615",
    ])
    func roundTrips(_ text: String) throws {
        let version = try SemanticVersion.parse(text)
        #expect(version.description == text)
        #expect(SemanticVersion(text) == version)
        #expect(version.isValid)
    }

    @Test func parsesParts() throws {
        let version = try #require(SemanticVersion("1.22.333-rc.1.x-y+build.007"))
        #expect(version.major == 1)
        #expect(version.minor == 22)
        #expect(version.patch == 333)
        #expect(version.prerelease == [.alphanumeric("rc"), .numeric(1), .alphanumeric("x-y")])
        #expect(version.build == ["build", "007"])
        #expect(!version.isStable)
        #expect(SemanticVersion("1.0.0+meta")?.isStable == true)
    }

    @Test func numericLookingIdentifiersWithLettersAreAlphanumeric() throws {
        let version = try #require(SemanticVersion("1.0.0-0A.-1"))
        #expect(version.prerelease == [.alphanumeric("0A"), .alphanumeric("-1")])
    }

    @Test(arguments: [
        ("", "empty version"),
        ("1.2", "missing patch version"),
        ("1", "missing minor version"),
        ("1.2.", "missing patch version"),
        ("v1.2.3", "\"v\" prefix is not part of a semantic version"),
        ("01.2.3", "leading zero in major"),
        ("1.02.3", "leading zero in minor"),
        ("1.2.03", "leading zero in patch"),
        ("1.2.3-01", "leading zero in numeric pre-release identifier"),
        ("1.2.3-", "empty pre-release identifier"),
        ("1.2.3+", "empty build identifier"),
        ("1.2.3-alpha..1", "empty pre-release identifier"),
        ("1.2.3-alpha.", "empty pre-release identifier"),
        ("1.2.3+a..b", "empty build identifier"),
        ("1.2.3-+b", "empty pre-release identifier"),
        ("18446744073709551616.0.0", "major overflows UInt64"),
        ("1.99999999999999999999.0", "minor overflows UInt64"),
        ("1.2.18446744073709551616", "patch overflows UInt64"),
        ("1.2.3-18446744073709551616", "numeric pre-release identifier overflows UInt64"),
        ("1.2.3-alpha_beta", "invalid character \"_\" in pre-release identifier"),
        ("1.2.3+bü", "invalid character 0xC3 in build identifier"),
    ])
    func rejects(_ text: String, reason: String) {
        #expect(SemanticVersion(text) == nil)
        #expect(throws: Problem("invalid semantic version \"\(text)\": \(reason)")) {
            try SemanticVersion.parse(text)
        }
    }

    @Test(arguments: [
        " 1.2.3", "1.2.3 ", "1.2.3\n", "1.2.3.4", "1.2.3-rc.1+b+c", "1.2.3-é", "-1.2.3",
        "1.-2.3", "+1.2.3", "a.b.c", "1..3", "1.2.3.", "1.2.3+b.", "V1.2.3", "1.2.3-rc 1",
        "１.2.3",
    ])
    func rejectsMalformed(_ text: String) {
        #expect(SemanticVersion(text) == nil)
    }

    @Test func errorDescriptionMentionsTextAndReason() {
        let error = #expect(throws: Problem.self) { try SemanticVersion.parse("01.0.0") }
        #expect(error?.description == "invalid semantic version \"01.0.0\": leading zero in major")
    }

    @Test func memberwiseValuesCanBeInvalid() {
        let bad = SemanticVersion(major: 1, minor: 0, patch: 0, prerelease: [.alphanumeric("")])
        #expect(!bad.isValid)
        #expect(SemanticVersion(major: 1, minor: 0, patch: 0, build: ["x"]).isValid)
    }
}

@Suite("SemanticVersion precedence")
struct SemanticVersionPrecedenceTests {
    static let specChain = [
        "1.0.0-alpha", "1.0.0-alpha.1", "1.0.0-alpha.beta", "1.0.0-beta", "1.0.0-beta.2",
        "1.0.0-beta.11", "1.0.0-rc.1", "1.0.0",
    ]

    static func versions(_ texts: [String]) throws -> [SemanticVersion] {
        try texts.map { try SemanticVersion.parse($0) }
    }

    @Test func specPrereleaseChainIsStrictlyIncreasing() throws {
        let chain = try Self.versions(Self.specChain)
        for (lower, higher) in zip(chain, chain.dropFirst()) {
            #expect(lower < higher, "\(lower) < \(higher)")
            #expect(!(higher < lower), "!(\(higher) < \(lower))")
            #expect(lower.precedence(comparedTo: higher) == .orderedAscending)
            #expect(higher.precedence(comparedTo: lower) == .orderedDescending)
        }
    }

    @Test func coreNumbersCompareNumerically() throws {
        let chain = try Self.versions(["1.9.0", "1.10.0", "1.11.0", "2.0.0", "2.1.0", "2.1.1", "10.0.0"])
        for (lower, higher) in zip(chain, chain.dropFirst()) {
            #expect(lower < higher, "\(lower) < \(higher)")
        }
    }

    @Test(arguments: 0..<20)
    func sortingShuffledListRestoresSpecOrder(seed: UInt64) throws {
        var generator = SplitMix64(seed: seed)
        let texts = ["0.9.9"] + Self.specChain + ["1.0.1-0", "1.0.1", "1.9.0", "1.10.0", "1.11.0", "2.0.0-0", "2.0.0"]
        let shuffled = texts.shuffled(using: &generator)
        let sorted = try Self.versions(shuffled).sorted()
        #expect(sorted.map(\.description) == texts)
    }

    @Test func buildMetadataIsIgnoredByPrecedenceButNotByEquality() throws {
        let a = try SemanticVersion.parse("1.0.0+a")
        let b = try SemanticVersion.parse("1.0.0+b")
        #expect(a != b)
        #expect(!(a < b) && !(b < a))
        #expect(a.precedence(comparedTo: b) == .orderedSame)
        #expect(a.hasSamePrecedence(as: b))
        #expect(SemanticVersion("1.0.0-rc.1+x")! < SemanticVersion("1.0.0+y")!)
    }

    @Test func numericIdentifiersSortBeforeAlphanumericOnes() throws {
        #expect(try SemanticVersion.parse("1.0.0-1") < SemanticVersion.parse("1.0.0-a"))
        #expect(try SemanticVersion.parse("1.0.0-999") < SemanticVersion.parse("1.0.0--"))
        // ASCII order: uppercase before lowercase, "-" before digits.
        #expect(try SemanticVersion.parse("1.0.0-RC") < SemanticVersion.parse("1.0.0-rc"))
        #expect(try SemanticVersion.parse("1.0.0-a-1") < SemanticVersion.parse("1.0.0-a1"))
    }

    @Test func equalityIsStructural() throws {
        #expect(try SemanticVersion.parse("1.2.3-rc.1") == SemanticVersion(major: 1, minor: 2, patch: 3, prerelease: [.alphanumeric("rc"), .numeric(1)]))
        #expect(try SemanticVersion.parse("1.2.3-1") != SemanticVersion.parse("1.2.3-a"))
        #expect(Set(try Self.versions(["1.0.0", "1.0.0", "1.0.0+b"])).count == 2)
    }
}

@Suite("SemanticVersion bumping")
struct SemanticVersionBumpTests {
    @Test(arguments: [
        ("1.2.3", Bump.none, "1.2.3"),
        ("1.2.3", .patch, "1.2.4"),
        ("1.2.3", .minor, "1.3.0"),
        ("1.2.3", .major, "2.0.0"),
        ("0.9.9", .major, "1.0.0"),
        ("1.2.3-rc.1", .patch, "1.2.4"),
        ("1.2.3-rc.1+b", .minor, "1.3.0"),
        ("1.2.3-rc.1", .major, "2.0.0"),
        ("1.2.3+build.5", .patch, "1.2.4"),
        ("1.2.3-rc.1+b", .none, "1.2.3-rc.1+b"),
    ])
    func bumps(_ from: String, bump: Bump, to expected: String) throws {
        let version = try SemanticVersion.parse(from)
        #expect(version.bumped(bump).description == expected)
        #expect(version.checkedBumped(bump)?.description == expected)
    }

    @Test func checkedBumpReportsOverflow() throws {
        let max = UInt64.max
        #expect(SemanticVersion(major: max, minor: 0, patch: 0).checkedBumped(.major) == nil)
        #expect(SemanticVersion(major: 0, minor: max, patch: 0).checkedBumped(.minor) == nil)
        #expect(SemanticVersion(major: 0, minor: 0, patch: max).checkedBumped(.patch) == nil)
        #expect(SemanticVersion(major: 0, minor: max, patch: max).checkedBumped(.major)?.description == "1.0.0")
    }
}

@Suite("Bump")
struct BumpTests {
    @Test func orderAndNames() {
        #expect(Bump.allCases == [.none, .patch, .minor, .major])
        #expect(Bump.none < .patch && Bump.patch < .minor && Bump.minor < .major)
        #expect(Bump.allCases.map(\.description) == ["none", "patch", "minor", "major"])
        #expect([Bump.patch, .major, .none].max() == .major)
    }

    @Test(arguments: Bump.allCases)
    func nameRoundTrips(_ bump: Bump) {
        #expect(Bump(name: bump.description) == bump)
        #expect(Bump(name: bump.description.uppercased()) == bump)
    }

    @Test(arguments: ["", "majr", "breaking", " minor"])
    func rejectsUnknownNames(_ name: String) {
        #expect(Bump(name: name) == nil)
    }
}

/// Deterministic generator so shuffles are reproducible.
private struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

@Suite("SemanticVersion.reason(notVersion:)")
struct SemanticVersionReasonTests {
    @Test func theShortReasonOrNil() {
        #expect(SemanticVersion.reason(notVersion: "1.02.0") == "leading zero in minor")
        #expect(SemanticVersion.reason(notVersion: "") == "empty version")
        #expect(SemanticVersion.reason(notVersion: "1.2.3-beta.1") == nil)
    }
}
