import Foundation
import Testing
import RelctlTestSupport
@testable import RelctlCLI

/// The Expo app (app.json at 1.2.0, build 12, tagged v1.2.0) with `storeNotes` set to `storeNotes` (JSON text),
/// then `messages` committed.
private func notesApp(_ storeNotes: String, then messages: [String]) throws -> TestRepository {
    let repo = try ReleaseApp.expo.make()
    let config = initStyleConfig([("app.json", "expo"), ("package.json", "json")])
    try repo.write(".relctl.json", String(config.dropLast(2)) + ",\n  \"storeNotes\": \(storeNotes)\n}\n")
    try repo.commitAll("chore: store notes")
    for message in messages { try repo.commit(message) }
    return repo
}

private let messages = [
    "fix(cart): prix erroné dans le panier",
    "feat: Größere Schrift für Überschriften",
    "refactor: split the view model",
    "feat(sync): offline sync",
    "docs: readme",
    "perf: faster start-up",
]

private let expectedNotes = """
    • Größere Schrift für Überschriften
    • Offline sync
    • Prix erroné dans le panier
    • Faster start-up

    """

@Suite("Store release notes")
struct StoreNotesCommandTests {
    @Test func releaseWritesEveryLocaleOfBothStoresInTheReleaseCommit() throws {
        let repo = try notesApp(#"{"locales": ["en-US", "de-DE"], "android": {"default": true}}"#, then: messages)
        let result = relctl(["release"], in: repo.path)
        #expect(result.code == 0, "\(result.stderr)")
        let files = try repo.git(["show", "--name-only", "--format=", "HEAD"]).split(separator: "\n").map(String.init)
        #expect(files.sorted() == [
            "CHANGELOG.md", "app.json",
            "fastlane/metadata/android/de-DE/changelogs/13.txt", "fastlane/metadata/android/de-DE/changelogs/default.txt",
            "fastlane/metadata/android/en-US/changelogs/13.txt", "fastlane/metadata/android/en-US/changelogs/default.txt",
            "fastlane/metadata/de-DE/release_notes.txt", "fastlane/metadata/en-US/release_notes.txt",
            "package.json",
        ])
        for path in files where path.hasPrefix("fastlane/") {
            #expect(try repo.read(path) == expectedNotes, "\(path)")
        }
        #expect(try repo.git(["status", "--porcelain"]) == "")
        #expect(try repo.git(["describe", "--tags", "--exact-match", "HEAD"]) == "v1.3.0\n")
    }

    @Test func notesPrintsEveryFileAndWritesNothing() throws {
        let repo = try notesApp(#"{"locales": ["en-US", "fr-FR"]}"#, then: messages)
        let before = try repo.snapshot()
        let result = relctl(["notes"], in: repo.path)
        #expect(result.code == 0, "\(result.stderr)")
        #expect(result.stderr == "")
        #expect(result.stdout == """
            ==> fastlane/metadata/android/en-US/changelogs/13.txt (Google Play, en-US, 98/500 characters) <==
            \(expectedNotes)
            ==> fastlane/metadata/android/fr-FR/changelogs/13.txt (Google Play, fr-FR, 98/500 characters) <==
            \(expectedNotes)
            ==> fastlane/metadata/en-US/release_notes.txt (App Store, en-US, 98/4000 characters) <==
            \(expectedNotes)
            ==> fastlane/metadata/fr-FR/release_notes.txt (App Store, fr-FR, 98/4000 characters) <==
            \(expectedNotes)
            """)
        #expect(try repo.snapshot() == before)

        let ios = relctl(["notes", "--store", "ios"], in: repo.path)
        #expect(ios.code == 0)
        #expect(ios.stdout == """
            ==> fastlane/metadata/en-US/release_notes.txt (App Store, en-US, 98/4000 characters) <==
            \(expectedNotes)
            ==> fastlane/metadata/fr-FR/release_notes.txt (App Store, fr-FR, 98/4000 characters) <==
            \(expectedNotes)
            """)

        let json = relctl(["notes", "--store", "android", "--json"], in: repo.path)
        #expect(json.code == 0)
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        #expect(object?["version"] as? String == "1.3.0")
        let list = object?["files"] as? [[String: Any]] ?? []
        #expect(list.map { $0["path"] as? String } == ["fastlane/metadata/android/en-US/changelogs/13.txt",
                                                       "fastlane/metadata/android/fr-FR/changelogs/13.txt"])
        #expect(list.first?["text"] as? String == expectedNotes)
        #expect(list.first?["characters"] as? Int == 98)
        #expect(list.first?["limit"] as? Int == 500)

        let bad = relctl(["notes", "--store", "huawei"], in: repo.path)
        #expect(bad.code == 64)
        #expect(bad.stderr.hasPrefix("error: --store \"huawei\" is not a store; use android (Google Play) or ios (App Store)\n"), "\(bad.stderr)")
    }

    @Test func dryRunShowsTheFilesAndWritesNothing() throws {
        let repo = try notesApp(#"{"ios": false}"#, then: messages)
        let before = try repo.snapshot()
        let result = relctl(["release", "--dry-run"], in: repo.path)
        #expect(result.code == 0, "\(result.stderr)")
        #expect(result.stdout.contains("""
            files:
              app.json
              package.json
              CHANGELOG.md (new)
              fastlane/metadata/android/en-US/changelogs/13.txt (new)

            """), "\(result.stdout)")
        #expect(result.stdout.contains("""
            --- /dev/null
            +++ b/fastlane/metadata/android/en-US/changelogs/13.txt
            @@ -0,0 +1,4 @@
            +• Größere Schrift für Überschriften
            +• Offline sync
            +• Prix erroné dans le panier
            +• Faster start-up

            """), "\(result.stdout)")
        #expect(try repo.snapshot() == before)
    }

    @Test func overTheLimitGooglePlayIsCutAndTheAppStoreIsNot() throws {
        // 40 fixes of 20 characters: 800 characters, over Google Play's 500, far under the App Store's 4,000.
        let fixes = (10..<50).map { "fix: corrige le bogue n°\($0)" }
        let repo = try notesApp("true", then: fixes)
        #expect(relctl(["release"], in: repo.path).code == 0)
        let android = try repo.read("fastlane/metadata/android/en-US/changelogs/13.txt")
        let ios = try repo.read("fastlane/metadata/en-US/release_notes.txt")
        let all = (10..<50).map { "• Corrige le bogue n°\($0)\n" }
        #expect(all[0].count == 24)
        #expect(ios == all.joined())
        // 20 lines (480) + "…and 20 more fixes\n" (19) = 499.
        #expect(android == all[0..<20].joined() + "…and 20 more fixes\n")
        #expect(android.utf16.count == 499)
    }

    @Test func androidNotesNeedAVersionCode() throws {
        let repo = try TestRepository.released("1.0.0", then: ["feat: dark mode"])
        try repo.git(["config", "user.name", "Release Bot"])
        try repo.git(["config", "user.email", "bot@example.com"])
        try repo.write(".relctl.json", "{\n  \"storeNotes\": true\n}\n")
        try repo.commitAll("chore: store notes")
        let before = try repo.snapshot()
        let result = relctl(["release"], in: repo.path)
        #expect(result.code == 1)
        #expect(result.stderr == "error: .relctl.json: 'storeNotes.android.path' names Google Play's notes by {versionCode}, but no version file in \"files\" holds a versionCode; list the app's build.gradle (or build.gradle.kts) in \"files\", or set \"storeNotes\": {\"android\": false}\nnothing was changed (1 preflight problem)\n")
        #expect(try repo.snapshot() == before)

        // Following the advice: the App Store notes alone.
        try repo.write(".relctl.json", "{\n  \"storeNotes\": {\"android\": false}\n}\n")
        try repo.commitAll("chore: App Store notes only")
        let fixed = relctl(["release"], in: repo.path)
        #expect(fixed.code == 0, "\(fixed.stderr)")
        #expect(try repo.read("fastlane/metadata/en-US/release_notes.txt") == "• Dark mode\n")
    }

    @Test func customPathsForTeamsWithoutFastlane() throws {
        let repo = try notesApp(#"{"locales": ["en"], "types": ["feat"], "android": {"path": "store/play/{locale}/{versionCode}.txt"}, "ios": {"path": "store/apple/{locale}-{version}.txt"}}"#, then: messages)
        #expect(relctl(["release"], in: repo.path).code == 0)
        #expect(try repo.read("store/play/en/13.txt") == "• Größere Schrift für Überschriften\n• Offline sync\n")
        #expect(try repo.read("store/apple/en-1.3.0.txt") == "• Größere Schrift für Überschriften\n• Offline sync\n")
    }

    @Test func configErrorsSayWhereAndHow() throws {
        let cases: [(String, String)] = [
            (#"{"locales": ["en US"]}"#, "'storeNotes.locales' entry \"en US\" is not a locale folder name; use letters, digits and '-' or '_' only, like \"en-US\""),
            (#"{"android": {"path": "notes/{locale}/{build}.txt"}}"#, "'storeNotes.android.path' has an unknown placeholder {build}; use {locale}, {version}, {versionCode}"),
            (#"{"locales": ["en-US", "de-DE"], "ios": {"path": "notes.txt"}}"#, "'storeNotes.ios.path' has no {locale}, so the 2 locales would write one file; put {locale} in the path, like \"fastlane/metadata/{locale}/release_notes.txt\""),
            (#"{"android": {"path": "notes/{locale}.txt"}}"#, "'storeNotes.android.path' has no {versionCode}; Google Play's notes are one file per versionCode, like \"fastlane/metadata/android/{locale}/changelogs/{versionCode}.txt\""),
            (#"{"ios": {"path": "../notes/{locale}.txt"}}"#, "'storeNotes.ios.path' \"../notes/{locale}.txt\" is outside the repository; give it relative to the repository root, like \"fastlane/metadata/{locale}/release_notes.txt\""),
            (#"{"ios": {"default": true}}"#, "unknown key 'storeNotes.ios.default'; known keys: storeNotes.ios.path"),
            (#"{"android": false, "ios": false}"#, "'storeNotes' turns off both stores (\"android\": false and \"ios\": false); remove \"storeNotes\" instead, or keep one store"),
            (#"{"types": []}"#, "'storeNotes.types' must be a non-empty list of commit types, like [\"feat\", \"fix\", \"perf\"]"),
            (#""yes""#, "'storeNotes' must be an object, true or false, not a string"),
        ]
        for (value, message) in cases {
            let repo = try TestRepository.released("1.0.0", then: ["feat: dark mode"])
            try repo.write(".relctl.json", "{\n  \"storeNotes\": \(value)\n}\n")
            let result = relctl(["notes"], in: repo.path)
            #expect(result.code == 1, "\(value)")
            #expect(result.stderr == "error: .relctl.json:2: \(message)\n", "\(value)")
        }
    }

    @Test func withoutStoreNotesTheDefaultsAreShownAndNothingIsWritten() throws {
        let repo = try TestRepository.released("1.0.0", then: ["feat: dark mode", "chore: tidy"])
        let result = relctl(["notes"], in: repo.path)
        #expect(result.code == 0)
        #expect(result.stdout == """
            ==> fastlane/metadata/android/en-US/changelogs/{versionCode}.txt (Google Play, en-US, 12/500 characters) <==
            • Dark mode

            ==> fastlane/metadata/en-US/release_notes.txt (App Store, en-US, 12/4000 characters) <==
            • Dark mode

            """)
        #expect(result.stderr == "note: no \"storeNotes\" in .relctl.json: showing the defaults; 'relctl release' writes them once \"storeNotes\": true (or an object) is set\n")
        // A release without "storeNotes" writes no notes.
        try repo.git(["config", "user.name", "Release Bot"])
        try repo.git(["config", "user.email", "bot@example.com"])
        #expect(relctl(["release"], in: repo.path).code == 0)
        #expect(try repo.git(["show", "--name-only", "--format=", "HEAD"]) == "CHANGELOG.md\n")
    }

    @Test func nothingDuePrintsNothing() throws {
        let repo = try TestRepository.released("1.0.0", then: ["docs: readme"])
        try repo.write(".relctl.json", "{\"storeNotes\": true}\n")
        try repo.commitAll("chore: notes")
        let result = relctl(["notes"], in: repo.path)
        #expect(result.code == 0)
        #expect(result.stdout == "")
        #expect(!result.stderr.isEmpty)
        let json = relctl(["notes", "--json"], in: repo.path)
        #expect(json.code == 0)
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        #expect(object?["version"] is NSNull)
        #expect((object?["files"] as? [Any])?.isEmpty == true)
    }

    @Test func aPrereleaseWritesItsNotesToo() throws {
        let repo = try notesApp(#"{"ios": false}"#, then: ["feat: dark mode"])
        let result = relctl(["release", "--prerelease", "beta"], in: repo.path)
        #expect(result.code == 0, "\(result.stderr)")
        #expect(try repo.read("fastlane/metadata/android/en-US/changelogs/13.txt") == "• Dark mode\n")
    }
}
