import Foundation
import RelctlCore
import RelctlTestSupport

// The apps the `relctl gate` tests run on: "Tidewater", a tide-table app whose gate document is either a Firebase
// Remote Config template (`Golden/Inputs/gate/remoteconfig.template.json`: `firebase remoteconfig:get -o` output,
// a `version_gate` parameter group, an `ios` condition with its own minimum, no final newline) or a plain JSON
// document its API serves (`Golden/Inputs/gate/gate.json`: tabs, `configVersion`, per-platform values). Released
// as v2.3.0, v2.3.1, v2.4.0, v2.5.0 and the major v3.0.0, whose `.major-release-pending` is committed with it.

enum GateApp {
    static let inputs = GoldenApp.inputs.appendingPathComponent("gate")

    static let templatePath = "remoteconfig.template.json"
    static let plainPath = "config/gate.json"

    /// The bytes of an input document.
    static func input(_ name: String) throws -> String {
        String(decoding: try Data(contentsOf: inputs.appendingPathComponent(name)), as: UTF8.self)
    }

    static let firebaseGate = #"{"document": "remoteconfig.template.json", "format": "firebase"}"#
    static let plainGate = #"{"document": "config/gate.json", "format": "json"}"#

    /// Tidewater with the Firebase template; `gate` is the value of `"gate"` in `.relctl.json`, `template` replaces
    /// the input's text.
    static func firebase(gate: String = firebaseGate, template: String? = nil, majorPending: Bool = true) throws -> TestRepository {
        try app(document: templatePath, text: template ?? input("remoteconfig.template.json"), gate: gate, majorPending: majorPending)
    }

    /// Tidewater with the plain JSON document under `config/`.
    static func plain(gate: String = plainGate, document: String? = nil, majorPending: Bool = true) throws -> TestRepository {
        try app(document: plainPath, text: document ?? input("gate.json"), gate: gate, majorPending: majorPending)
    }

    static let releases = ["2.3.0", "2.3.1", "2.4.0", "2.5.0"]

    static func app(document: String, text: String, gate: String, majorPending: Bool) throws -> TestRepository {
        let repo = try TestRepository()
        try repo.write(document, text)
        try repo.write(".relctl.json", "{\n  \"gate\": \(gate)\n}\n")
        try repo.commitAll("chore: Tidewater with its version gate")
        for version in releases {
            try repo.commit("feat: tides for \(version)")
            try repo.tag("v\(version)")
        }
        try repo.commit("feat!: harbour API v2\n\nBREAKING CHANGE: the app talks to the v2 harbour API only")
        if majorPending {
            try repo.write(".major-release-pending", majorNotice.json())
            try repo.commitAll("chore(release): 3.0.0")
        }
        try repo.tag("v3.0.0")
        return repo
    }

    static let majorNotice = MajorReleaseNotice(
        version: "3.0.0", previousVersion: "2.5.0", tag: "v3.0.0", date: "2026-09-21T00:00:00Z",
        breakingChanges: [.init(sha: "0123456789abcdef0123456789abcdef01234567", summary: "feat!: harbour API v2")])
}

extension TestRepository {
    /// The commits on the current branch, newest first: subject lines.
    func subjects(_ count: Int = 1) throws -> [String] {
        try git(["log", "-\(count)", "--format=%s"]).split(separator: "\n").map(String.init)
    }

    /// Whether `path` exists in the work tree.
    func exists(_ relativePath: String) -> Bool {
        FileManager.default.fileExists(atPath: path + "/" + relativePath)
    }
}
