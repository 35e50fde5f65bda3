import Testing
@testable import RelctlCore

@Suite("ReleaseChannel: prerelease counters")
struct ReleaseChannelTests {
    let core = SemanticVersion(major: 1, minor: 3, patch: 0)

    @Test(arguments: ["beta", "alpha", "rc", "internal-qa", "rc2", "x"])
    func channelNamesAreNonNumericIdentifiers(_ name: String) {
        #expect(ReleaseChannel(name)?.name == name)
    }

    @Test(arguments: ["", "1", "007", "beta.1", "be ta", "béta", "beta+1"])
    func otherNamesAreRefused(_ name: String) {
        #expect(ReleaseChannel(name) == nil)
    }

    @Test func theCounterIsOneMoreThanTheHighestOfTheChannelOnTheCore() throws {
        let beta = try #require(ReleaseChannel("beta"))
        let tagged = ["1.3.0-beta.1", "1.3.0-beta.10", "1.3.0-beta.2", "1.3.0-alpha.40", "1.2.0-beta.77", "1.3.1-beta.5",
                      "1.3.0-beta", "1.3.0-beta.3.1", "1.3.0-beta.x", "1.3.0"].compactMap(SemanticVersion.init)
        #expect(beta.nextNumber(core: core, tagged: tagged) == 11)
        #expect(beta.nextNumber(core: core, tagged: []) == 1)
        #expect(try #require(ReleaseChannel("rc")).nextNumber(core: core, tagged: tagged) == 1)
        #expect(beta.version(core: core, number: 11).description == "1.3.0-beta.11")
        #expect(beta.number(of: try #require(SemanticVersion("1.3.0-beta.10")), core: core) == 10)
        #expect(beta.number(of: try #require(SemanticVersion("1.3.0-beta.3.1")), core: core) == nil)
    }

    @Test func channelsOrderBySemVerAndEveryPrereleaseBelowTheFinal() throws {
        let versions = try [("rc", 1), ("alpha", 2), ("beta", 1), ("alpha", 10), ("beta", 2)].map { name, number in
            try #require(ReleaseChannel(name)).version(core: core, number: UInt64(number))
        }
        #expect(versions.sorted().map(\.description) == ["1.3.0-alpha.2", "1.3.0-alpha.10", "1.3.0-beta.1", "1.3.0-beta.2", "1.3.0-rc.1"])
        #expect(versions.allSatisfy { $0 < core })
    }
}

@Suite("MaintenanceRange")
struct MaintenanceRangeTests {
    @Test(arguments: [("1.4.x", "1.4.x"), ("1.x", "1.x"), ("1.4", "1.4.x"), ("10.0.X", "10.0.x"), ("0.x", "0.x")])
    func parses(_ text: String, _ shown: String) {
        #expect(MaintenanceRange(text)?.description == shown)
    }

    @Test(arguments: ["1", "x", "1.4.2", "1.4.x.x", "01.4.x", "a.x", "", "1..x"])
    func refuses(_ text: String) {
        #expect(MaintenanceRange(text) == nil)
    }

    @Test(arguments: [("release/1.4.x", "1.4.x"), ("1.x", "1.x"), ("hotfix/2.0.x", "2.0.x"), ("release/1.4", nil),
                      ("main", nil), ("release/v1.x", nil)] as [(String, String?)])
    func aBranchNameSpellsARangeOnlyWithTheX(_ branch: String, _ range: String?) {
        #expect(MaintenanceRange(branchName: branch)?.description == range)
    }

    @Test func aBranchMarkedMaintenanceMayLeaveOutTheX() {
        #expect(MaintenanceRange(maintenanceBranchName: "release/1.4")?.description == "1.4.x")
        #expect(MaintenanceRange(maintenanceBranchName: "support")?.description == nil)
        #expect(MaintenanceRange(maintenanceBranchName: "release/7")?.description == nil)
    }

    @Test func containsAndTheLargestBump() throws {
        let patches = try #require(MaintenanceRange("1.4.x"))
        let minors = try #require(MaintenanceRange("1.x"))
        #expect(patches.contains(try #require(SemanticVersion("1.4.9"))))
        #expect(patches.contains(try #require(SemanticVersion("1.4.3-rc.1"))))
        #expect(!patches.contains(try #require(SemanticVersion("1.5.0"))))
        #expect(minors.contains(try #require(SemanticVersion("1.5.0"))))
        #expect(!minors.contains(try #require(SemanticVersion("2.0.0"))))
        #expect(patches.largestBump == .patch)
        #expect(minors.largestBump == .minor)
    }
}
