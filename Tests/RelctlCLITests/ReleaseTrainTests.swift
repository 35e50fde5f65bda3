import Foundation
import Testing
import RelctlTestSupport
@testable import RelctlCLI

// A release train of prerelease tags only (`v3.38.0-rc.1` … `rc.18`, no `v3.38.0` yet), with a versionName that
// holds the train's build as a fourth number (`3.38.0.18`): the train is the base, `--prerelease rc` continues it at
// rc.19, the final release is 3.38.0, and `3.38.0.18` is not read as a version above the train.

/// An Android app whose rc train reached `v3.38.0-rc.<rcs>` (versionName `3.38.0.<n>`), on top of `stable` when given.
func trainApp(rcs: Int, stable: String? = nil) throws -> TestRepository {
    let repo = try appRepository(["app/build.gradle": twoPartGradle(stable ?? "3.37.0", code: 100)], entries: [])
    try writeConfig(repo, files: [("app/build.gradle", "gradle")], extra: "\"changelog\": false")
    try repo.commitAll("chore: relctl")
    if let stable { try repo.tag("v\(stable)") }
    try repo.commit("fix: store crash", file: "src/a.kt")
    for n in 1...rcs {
        try repo.write("app/build.gradle", twoPartGradle("3.38.0.\(n)", code: 100 + n))
        try repo.commitAll("fix: train build \(n)")
        try repo.tag("v3.38.0-rc.\(n)")
    }
    return repo
}

@Suite("release trains of prerelease tags")
struct ReleaseTrainTests {
    @Test func anRCOnlyTrainContinuesAtTheNextRC() throws {
        let repo = try trainApp(rcs: 18)
        // HEAD is the last rc: nothing new.
        let same = relctl(["next", "--prerelease", "rc"], in: repo.path)
        #expect(same.stdout.isEmpty)
        #expect(same.stderr == "note: channel: rc\nHEAD is already released as v3.38.0-rc.18\n", "\(same.stderr)")

        try repo.commit("fix: login", file: "src/b.kt")
        let next = relctl(["next", "--prerelease", "rc"], in: repo.path)
        #expect(next.stdout == "3.38.0-rc.19\n")
        #expect(next.stderr == "note: channel: rc (prerelease 19)\nnote: v3.38.0-rc.18 is the last prerelease of 3.38.0, which has no final tag yet: the release train is the base, so the next version is 3.38.0-rc.19\n", "\(next.stderr)")
        let released = relctl(["release", "--prerelease", "rc"], in: repo.path, environment: fixedDate)
        #expect(released.code == 0, "\(released.stderr)")
        #expect(released.stdout == "3.38.0-rc.19\n")
        #expect(try repo.read("app/build.gradle") == twoPartGradle("3.38.0-rc.19", code: 119))
        #expect(try repo.git(["tag", "--points-at", "HEAD"]) == "v3.38.0-rc.19\n")

        // The final release of the train.
        try repo.commit("fix: last polish", file: "src/c.kt")
        #expect(relctl(["next"], in: repo.path).stdout == "3.38.0\n")
        let final = relctl(["release"], in: repo.path, environment: fixedDate)
        #expect(final.code == 0, "\(final.stderr)")
        #expect(final.stdout == "3.38.0\n")
    }

    /// Above a final release, fix commits alone would make 3.37.1-rc.1: the train goes on at its own core.
    @Test func aTrainAboveTheLastFinalGoesOn() throws {
        let repo = try trainApp(rcs: 3, stable: "3.37.0")
        try repo.commit("fix: login", file: "src/b.kt")
        let rc = relctl(["release", "--prerelease", "rc"], in: repo.path, environment: fixedDate)
        #expect(rc.code == 0, "\(rc.stderr)")
        #expect(rc.stdout == "3.38.0-rc.4\n")
        #expect(try repo.read("app/build.gradle") == twoPartGradle("3.38.0-rc.4", code: 104))
    }

    /// A train on a branch HEAD does not reach is no base for main.
    @Test func aTrainHEADDoesNotReachIsNoBase() throws {
        let repo = try trainApp(rcs: 2, stable: "3.37.0")
        try repo.git(["checkout", "-q", "-b", "hotfix", "v3.37.0"])
        try repo.commit("fix: hotfix", file: "src/hotfix.kt")
        #expect(relctl(["next"], in: repo.path).stdout == "3.37.1\n")
    }
}
