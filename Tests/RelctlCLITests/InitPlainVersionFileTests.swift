import Foundation
import Testing
import RelctlTestSupport

// `relctl init` and a root file holding the version alone (`version.txt`, `VERSION`): release-please's "simple"
// strategy, where the app's own files hold a placeholder the build replaces (a Flutter app at `0.0.0+734`). Each
// case runs init, then the release or sync the config leads to, and reads the files back.

private let plainPattern = #"^(?<version>[0-9]+(?:\.[0-9]+)+(?:-[0-9A-Za-z.]+)?)[ \t]*$"#

private func filePaths(_ config: String) throws -> [String] {
    let object = try JSONSerialization.jsonObject(with: Data(config.utf8)) as? [String: Any]
    return (object?["files"] as? [[String: Any]] ?? []).compactMap { $0["path"] as? String }
}

@Suite("init: a plain version file")
struct InitPlainVersionFileTests {
    let pubspec = "name: scanner\nversion: 0.0.0+734\n\nenvironment:\n  sdk: '>=3.0.0 <4.0.0'\n\ndependencies:\n  flutter:\n    sdk: flutter\n\nflutter:\n  uses-material-design: true\n"

    @Test func theVersionFileIsTheEntryWhenTheAppsFilesHoldAPlaceholder() throws {
        let repo = try TestRepository()
        try repo.write("packages/scanner/pubspec.yaml", pubspec)
        try repo.write("packages/scanner/lib/main.dart", "void main() {}\n")
        try repo.write("packages/scanner/android/app/build.gradle", "android {\n    defaultConfig {\n        versionCode flutterVersionCode.toInteger()\n        versionName flutterVersionName\n    }\n}\n")
        try repo.write("version.txt", "4.16.0\n")
        try repo.commitAll("chore: the app")
        try repo.tag("v4.16.0")
        let initRun = relctl(["init"], in: repo.path)
        #expect(initRun.code == 0, "\(initRun.stderr)")
        #expect(initRun.stdout.hasPrefix("version.txt                                  regex      version 4.16.0\n"))
        #expect(initRun.stderr.split(separator: "\n").contains(
            "note: packages/scanner/pubspec.yaml holds 0.0.0, a placeholder the build replaces, and version.txt holds 4.16.0: version.txt is the version file; add that file to files if relctl should write it too"))
        let config = try repo.read(".relctl.json")
        #expect(try filePaths(config) == ["version.txt"])
        #expect(config.contains("\"pattern\": " + JSONQuote.quote(plainPattern)))

        _ = try repo.commitAll("chore: add relctl config")
        _ = try repo.emptyCommit("fix: the scanner reads EAN-8 codes")
        let release = relctl(["release"], in: repo.path, environment: repo.gitEnvironment())
        #expect(release.code == 0, "\(release.stderr)")
        #expect(try repo.read("version.txt") == "4.16.1\n")
        #expect(try repo.read("packages/scanner/pubspec.yaml") == pubspec)
        #expect(try repo.git(["tag", "--points-at", "HEAD"]) == "v4.16.1\n")
    }

    @Test func aVersionFileHoldingTheAppsVersionIsKeptInStep() throws {
        let repo = try TestRepository()
        try repo.write("settings.gradle", "include ':app'\n")
        try repo.write("app/build.gradle", "android {\n    defaultConfig {\n        versionCode 12\n        versionName \"1.4.0\"\n    }\n}\n")
        try repo.write("VERSION", "1.4.0")
        try repo.commitAll("chore: the app")
        try repo.tag("v1.4.0")
        let initRun = relctl(["init"], in: repo.path)
        #expect(initRun.code == 0, "\(initRun.stderr)")
        #expect(try filePaths(try repo.read(".relctl.json")) == ["app/build.gradle", "VERSION"])
        _ = try repo.commitAll("chore: add relctl config")
        _ = try repo.emptyCommit("feat: dark mode")
        let release = relctl(["release"], in: repo.path, environment: repo.gitEnvironment())
        #expect(release.code == 0, "\(release.stderr)")
        #expect(try repo.read("VERSION") == "1.5.0")
        #expect(try repo.read("app/build.gradle").contains("versionName \"1.5.0\""))
    }

    @Test func aVersionFileAloneIsTheEntry() throws {
        let repo = try TestRepository()
        try repo.write("version.txt", "2.3\n")
        try repo.commitAll("chore: the app")
        let initRun = relctl(["init", "--dry-run", "--json"], in: repo.path)
        #expect(initRun.code == 0, "\(initRun.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(initRun.stdout.utf8)) as? [String: Any]
        let files = object?["files"] as? [[String: Any]] ?? []
        #expect(files.map { $0["path"] as? String } == ["version.txt"])
        #expect(files.map { $0["marketing"] as? String } == ["2.3"])
    }

    /// Another version than the app's: left out, and the entry the note offers works when pasted.
    @Test func aVersionFileOfAnotherVersionIsLeftOutAndTheNotesEntryWorks() throws {
        let repo = try TestRepository()
        try repo.write("settings.gradle", "include ':app'\n")
        try repo.write("app/build.gradle", "android {\n    defaultConfig {\n        versionCode 12\n        versionName \"1.4.0\"\n    }\n}\n")
        try repo.write("version.txt", "0.9.0\n")
        try repo.commitAll("chore: the app")
        let initRun = relctl(["init"], in: repo.path)
        #expect(initRun.code == 0, "\(initRun.stderr)")
        let note = try #require(initRun.stderr.split(separator: "\n").first { $0.hasPrefix("note: version.txt holds 0.9.0") })
        #expect(note == "note: version.txt holds 0.9.0, the app's files 1.4.0: left out; add {\"path\": \"version.txt\", \"format\": \"regex\", \"pattern\": \(JSONQuote.quote(plainPattern))} to files if it should follow the app")
        #expect(try filePaths(try repo.read(".relctl.json")) == ["app/build.gradle"])
        // Following the note: the entry pasted into files, then sync brings the file to the app's version.
        let entry = String(note[note.range(of: "add ")!.upperBound..<note.range(of: " to files")!.upperBound].dropLast(" to files".count))
        let config = try repo.read(".relctl.json").replacingOccurrences(of: "\"format\": \"gradle\"\n    }", with: "\"format\": \"gradle\"\n    },\n    \(entry)")
        try repo.write(".relctl.json", config)
        let sync = relctl(["sync", "1.4.0"], in: repo.path)
        #expect(sync.code == 0, "\(sync.stderr)")
        #expect(try repo.read("version.txt") == "1.4.0\n")
    }

    @Test func aFileOfSeveralLinesIsNotAVersionFile() throws {
        let repo = try TestRepository()
        try repo.write("settings.gradle", "include ':app'\n")
        try repo.write("app/build.gradle", "android {\n    defaultConfig {\n        versionCode 12\n        versionName \"1.4.0\"\n    }\n}\n")
        try repo.write("VERSION", "1.4.0\nbuilt by ci\n")
        try repo.commitAll("chore: the app")
        let initRun = relctl(["init"], in: repo.path)
        #expect(initRun.code == 0, "\(initRun.stderr)")
        #expect(try filePaths(try repo.read(".relctl.json")) == ["app/build.gradle"])
    }
}

/// A JSON string literal, as relctl writes one.
private enum JSONQuote {
    static func quote(_ text: String) -> String {
        var out = "\""
        for c in text {
            switch c {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\t": out += "\\t"
            default: out.append(c)
            }
        }
        return out + "\""
    }
}
