import Foundation
import Testing
import RelctlTestSupport
import RelctlCore
@testable import RelctlCLI

/// `tagFormat` is checked at config load with git's ref-name rules, so a release never fails late with libgit2's
/// message after the files are written.
@Suite("tagFormat: git's ref-name rules at config load")
struct TagFormatConfigTests {
    static let refused = ["v.lock/{version}", "{version}.lock", "v{version}^", "release {version}", "v..{version}",
                          "v{version}~1", "v{version}:x", "v{version}?", "v{version}*", "v[{version}", "v\\{version}",
                          "/v{version}", "v{version}/", "v{version}.", ".v{version}", "rel/.x/{version}", "v@{{version}",
                          "v//{version}", "-v{version}", "v\t{version}", "a.lock/b/{version}"]
    static let accepted = ["v{version}", "{version}", "app-v{version}", "ios/v{version}", "v{version}-bwpm", "release-{version}_x",
                           "été-{version}", "v{version}@build", "lock.v/{version}"]

    @Test(arguments: refused)
    func refusedFormatNamesTheKeyAndTheLine(format: String) throws {
        let repo = try TestRepository.released("1.2.3", then: ["feat: a"])
        let escaped = String(JSONOutput.string(format).rendered())
        try repo.write(".relctl.json", "{\n  \"branches\": [\"main\"],\n  \"tagFormat\": \(escaped)\n}\n")
        let before = try repo.snapshot()
        let result = relctl(["next"], in: repo.path)
        #expect(result.code == 1)
        #expect(result.stderr.hasPrefix("error: .relctl.json:3: 'tagFormat' "), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(try repo.snapshot() == before)
    }

    @Test(arguments: accepted)
    func acceptedFormatLoads(format: String) throws {
        let repo = try TestRepository.released("1.2.3", then: ["feat: a"])
        try repo.write(".relctl.json", "{\"tagFormat\": \(JSONOutput.string(format).rendered())}\n")
        let result = relctl(["next"], in: repo.path)
        #expect(result.code == 0, "\(result.stderr)")
    }

    /// git allows the C1 controls in a ref name; relctl does not, since U+009B starts a terminal sequence.
    @Test func c1ControlsAreRefusedThoughGitAllowsThem() throws {
        #expect(throws: Problem.self) { try TagFormat("v{version}\u{9B}2J") }
        #expect(throws: Problem.self) { try TagFormat("\u{85}v{version}") }
        #expect((try? TagFormat("v{version}-\u{A0}")) != nil)
    }

    /// relctl agrees with `git check-ref-format` on every format above (with a version in place of `{version}`), but
    /// for a leading `-`, which git allows under refs/tags/ and relctl refuses (such a tag reads as an option).
    @Test func agreesWithGit() throws {
        for (format, expected) in Self.refused.map({ ($0, false) }) + Self.accepted.map({ ($0, true) }) where format != "-v{version}" {
            let name = format.replacingOccurrences(of: "{version}", with: "1.2.3")
            let git = try runProcess(TestRepository.gitPath, ["check-ref-format", "refs/tags/" + name])
            #expect((git.status == 0) == expected, "git check-ref-format on \(name.debugDescription)")
            #expect(((try? TagFormat(format)) != nil) == expected, "\(format.debugDescription)")
        }
    }
}
