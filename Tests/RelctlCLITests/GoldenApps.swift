import Foundation
import RelctlTestSupport

// The apps the golden output tests run on. Their files are under `Golden/Inputs/` (a bare-workflow Expo app,
// "Harbor": app.json, package.json, an Xcode project with an app, a widget extension and a test target, the
// Android app module, a changelog); the histories are made here with fixed identities and dates, so every
// commit SHA, every date and every line of output is the same on every run.

/// The release date of every golden run: 2026-09-21 (SOURCE_DATE_EPOCH).
let goldenReleaseDate = "1790000000"

enum GoldenApp {
    static let inputs = Golden.root.appendingPathComponent("Inputs")

    /// Copies `Inputs/<name>` into the repository's work tree (dot files included), optionally without some files.
    static func copyInputs(_ name: String, into repo: TestRepository, except excluded: Set<String> = []) throws {
        let source = inputs.appendingPathComponent(name)
        guard let enumerator = FileManager.default.enumerator(atPath: source.path) else {
            throw CommandFailed(description: "no golden inputs at \(source.path)")
        }
        while let relative = enumerator.nextObject() as? String {
            var isDirectory: ObjCBool = false
            let full = source.appendingPathComponent(relative).path
            guard FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory), !isDirectory.boolValue,
                  !excluded.contains(relative) else { continue }
            let data = try Data(contentsOf: URL(fileURLWithPath: full))
            try repo.write(relative, "")
            try data.write(to: URL(fileURLWithPath: repo.path).appendingPathComponent(relative))
        }
    }

    /// Harbor with a GitHub `origin` (never contacted: nothing here pushes), created at 2.4.1 / build 37.
    /// `tagged`: the first commit is the release v2.4.1. `config`: `.relctl.json` is committed with the app.
    static func harborBase(tagged: Bool = true, config: Bool = true) throws -> TestRepository {
        let repo = try TestRepository()
        try copyInputs("harbor", into: repo, except: config ? [] : [".relctl.json"])
        try repo.git(["remote", "add", "origin", "https://github.com/example/harbor.git"])
        try repo.commitAll("chore: create the Harbor app")
        if tagged { try repo.tag("v2.4.1") }
        return repo
    }

    /// Harbor released as v2.4.1, then a feature, a fix and a docs commit: the next release is 2.5.0 (minor).
    static func harbor(config: Bool = true) throws -> TestRepository {
        let repo = try harborBase(config: config)
        try addWork(to: repo)
        return repo
    }

    /// Harbor in the stores at 2.4.1 with no release tag yet (what `adopt` is for), then the same work.
    static func harborUntagged() throws -> TestRepository {
        let repo = try harborBase(tagged: false)
        try addWork(to: repo)
        return repo
    }

    /// Harbor after v2.4.1 with a breaking change among the work: the next release is 3.0.0 (major).
    static func harborMajor(config: String? = nil) throws -> TestRepository {
        let repo = try harborBase()
        if let config {
            try repo.write(".relctl.json", config)
            try repo.commitAll("chore: halt before a major release")
        }
        try addWork(to: repo)
        try repo.commit("""
            feat(api)!: drop the v1 berth endpoints

            The app now reads berths from /v2/berths only.

            BREAKING CHANGE: builds before 2.5 can no longer load berths.
            """, file: "src/api.js")
        return repo
    }

    private static func addWork(to repo: TestRepository) throws {
        try repo.commit("feat(map): show berth prices", file: "src/map.js")
        try repo.commit("fix(ios): keep the map centred after rotation", file: "src/rotation.js")
        try repo.commit("docs: explain the berth colours", file: "docs/berths.md")
    }
}

extension TestRepository {
    /// The environment of a golden run: the repository's fixed git identities and dates, the release date.
    func goldenEnvironment(_ extra: [String: String] = [:]) -> [String: String] {
        gitEnvironment().merging(["SOURCE_DATE_EPOCH": goldenReleaseDate]) { $1 }.merging(extra) { $1 }
    }
}
