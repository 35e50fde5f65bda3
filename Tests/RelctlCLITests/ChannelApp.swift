import Foundation
import Testing
import RelctlTestSupport
@testable import RelctlCLI

/// A store app for the channel tests: package.json (the whole version), an Xcode project (the core and the iOS
/// build) and an Android module (versionName with its suffix, versionCode), one shared build counter.
struct ChannelApp {
    let repo: TestRepository

    static let files = [("package.json", "json"), ("ios/App.xcodeproj/project.pbxproj", "pbxproj"),
                        ("android/app/build.gradle", "gradle")]

    /// The app at `version` with build `build`, committed and tagged `v<version>` on `branch`. `extra`: more config keys.
    init(version: String = "1.2.0", build: Int = 12, extra: String = "", branch: String = "main") throws {
        repo = try TestRepository(branch: branch)
        try repo.git(["config", "user.name", "Release Bot"])
        try repo.git(["config", "user.email", "bot@example.com"])
        try writeConfig(repo, files: Self.files, extra: extra)
        try setVersion(version, build: build)
        try repo.commitAll("chore: initial commit")
        try repo.tag("v\(version)")
    }

    /// The app's helpers on a repository made by the caller.
    init(existing repo: TestRepository) {
        self.repo = repo
    }

    /// Writes the version files by hand (what an older release left), without committing.
    func setVersion(_ version: String, build: Int) throws {
        try repo.write("package.json", packageJSON(version))
        try repo.write("ios/App.xcodeproj/project.pbxproj", pbxproj(marketing: version, build: "\(build)"))
        try repo.write("android/app/build.gradle", reactNativeGradle
            .replacingOccurrences(of: "versionCode 12", with: "versionCode \(build)")
            .replacingOccurrences(of: "versionName \"1.2.0\"", with: "versionName \"\(version)\""))
    }

    /// What every file holds at `revision` (HEAD: the work tree), read back from the bytes.
    struct Held: Equatable, CustomStringConvertible {
        var packageVersion: String
        var iosMarketing: String
        var iosBuild: String
        var versionName: String
        var versionCode: String

        var description: String { "package \(packageVersion), iOS \(iosMarketing) (\(iosBuild)), Android \(versionName) (\(versionCode))" }
    }

    func held(at revision: String? = nil) throws -> Held {
        func text(_ path: String) throws -> String {
            if let revision { return try repo.git(["show", "\(revision):\(path)"]) }
            return try repo.read(path)
        }
        func value(_ text: String, after key: String, excluding: [String] = []) -> [String] {
            text.split(separator: "\n").compactMap { line -> String? in
                let line = line.trimmingCharacters(in: .whitespaces)
                guard line.hasPrefix(key) else { return nil }
                let value = line.dropFirst(key.count).trimmingCharacters(in: CharacterSet(charactersIn: " =\";,"))
                return excluding.contains(value) ? nil : value
            }
        }
        let package = try text("package.json")
        let pbx = try text("ios/App.xcodeproj/project.pbxproj")
        let gradle = try text("android/app/build.gradle")
        // The unit-test target stays at 1.0 (1): left out.
        let marketing = Set(value(pbx, after: "MARKETING_VERSION", excluding: ["1.0"]))
        let builds = Set(value(pbx, after: "CURRENT_PROJECT_VERSION", excluding: ["1"]))
        #expect(marketing.count == 1 && builds.count == 1, "every app configuration holds one version: \(marketing) \(builds)")
        return Held(packageVersion: value(package, after: "\"version\":").first ?? "",
                    iosMarketing: marketing.first ?? "", iosBuild: builds.first ?? "",
                    versionName: value(gradle, after: "versionName").first ?? "",
                    versionCode: value(gradle, after: "versionCode ").first ?? "")
    }

    /// The files as a release of `version` with `build` leaves them: iOS gets the core, Android keeps the suffix.
    static func expected(_ version: String, build: Int) -> Held {
        let core = String(version.prefix { $0 != "-" })
        return Held(packageVersion: version, iosMarketing: core, iosBuild: "\(build)", versionName: version, versionCode: "\(build)")
    }

    /// Runs `relctl release` with `arguments`, expecting it to release `version`: exit 0, the version on stdout.
    @discardableResult
    func release(_ arguments: [String] = [], expecting version: String, environment: [String: String] = [:],
                 sourceLocation: SourceLocation = #_sourceLocation) throws -> CLIResult {
        var env = repo.goldenEnvironment()
        env.merge(environment) { $1 }
        let result = relctl(["release"] + arguments, in: repo.path, environment: env)
        #expect(result.code == 0, "\(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stdout == version + "\n", "\(result.stderr)", sourceLocation: sourceLocation)
        #expect(try repo.git(["tag", "--points-at", "HEAD"]).split(separator: "\n").contains { $0 == "v\(version)" },
                sourceLocation: sourceLocation)
        return result
    }
}
