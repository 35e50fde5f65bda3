import Foundation
import Testing
import RelctlTestSupport
@testable import RelctlCLI

// A new user's first steps in a repository holding several apps: `relctl init`, then exactly the next steps it
// prints (each read from its output and run as written), then `relctl release --all`. Every piece of advice printed
// on the way must work when followed.

/// The steps `init` printed after "next steps:": each line's command (the text after "N. ", without the
/// explanation in parentheses and without the "commit it: " label).
func printedSteps(_ stderr: String) -> [String] {
    guard let range = stderr.range(of: "next steps:\n") else { return [] }
    var steps: [String] = []
    for line in stderr[range.upperBound...].split(separator: "\n") {
        let trimmed = line.drop { $0 == " " }
        guard let dot = trimmed.firstIndex(of: "."), trimmed[..<dot].allSatisfy(\.isNumber) else { break }
        var step = String(trimmed[trimmed.index(dot, offsetBy: 2)...])
        if step.hasPrefix("commit it: ") { step = String(step.dropFirst("commit it: ".count)) }
        if let paren = step.range(of: " (") { step = String(step[..<paren.lowerBound]) }
        steps.append(step)
    }
    return steps
}

/// Runs one printed step as written: `relctl ...` in-process, anything else through the shell (a git command).
func follow(_ step: String, in repo: TestRepository) throws -> CLIResult {
    if step.hasPrefix("relctl ") {
        return relctl(step.dropFirst("relctl ".count).split(separator: " ").map(String.init), in: repo.path,
                      environment: repo.gitEnvironment())
    }
    let result = try runProcess("/bin/sh", ["-c", step], in: repo.path, environment: repo.gitEnvironment())
    return CLIResult(code: result.status, stdout: result.stdout, stderr: result.stderr)
}

/// Every `relctl ...` command quoted in `text` ('relctl current', `relctl release --all`).
func quotedCommands(_ text: String) -> [String] {
    var commands: [String] = []
    for quote in ["'", "`"] {
        let parts = text.components(separatedBy: quote)
        for (i, part) in parts.enumerated() where i % 2 == 1 && part.hasPrefix("relctl ") { commands.append(part) }
    }
    return commands
}

@Suite("projects: a new user follows init's advice")
struct ProjectsAdviceTests {
    /// Runs init, then each printed step, checking each succeeds; returns the steps run.
    func followInit(_ repo: TestRepository, adopting: [String]) throws -> [String] {
        let initRun = relctl(["init"], in: repo.path)
        #expect(initRun.code == 0, "\(initRun.stderr)")
        let steps = printedSteps(initRun.stderr)
        #expect(steps == ["git add .relctl.json && git commit -m \"chore: add relctl config\"",
                          "relctl adopt" + adopting.map { " --project \($0)" }.joined(),
                          "relctl status", "relctl release --all --dry-run"], "\(initRun.stderr)")
        // "check it, then run 'relctl current'" (and 'relctl adopt …', once the config is committed: a step below)
        for command in quotedCommands(initRun.stderr) where !command.hasPrefix("relctl adopt") {
            let run = try follow(command, in: repo)
            #expect(run.code == 0, "\(command): \(run.stderr)")
        }
        for step in steps {
            let run = try follow(step, in: repo)
            #expect(run.code == 0, "\(step): \(run.stderr)")
            for command in quotedCommands(run.stderr) where !command.contains("--push") {
                let advice = try follow(command, in: repo)
                #expect(advice.code == 0, "advice of \(step): \(command): \(advice.stderr)")
            }
        }
        #expect(try repo.git(["status", "--porcelain"]) == "", "the steps leave the work tree clean")
        return steps
    }

    @Test func pnpmWorkspaceWithTwoExpoAppsAndASharedPackage() throws {
        let repo = try TestRepository()
        try repo.write("package.json", "{\n  \"name\": \"acme\",\n  \"version\": \"0.0.0\",\n  \"private\": true\n}\n")
        try repo.write("pnpm-workspace.yaml", "packages:\n  - 'apps/*'\n  - 'packages/*'\n")
        for (name, version) in [("consumer", "1.4.0"), ("driver", "2.1.0")] {
            try repo.write("apps/\(name)/package.json", "{\n  \"name\": \"@acme/\(name)\",\n  \"version\": \"\(version)\",\n  \"dependencies\": { \"expo\": \"~51.0.8\", \"@acme/ui\": \"workspace:*\" }\n}\n")
            try repo.write("apps/\(name)/app.json", "{\n  \"expo\": {\n    \"name\": \"\(name)\",\n    \"slug\": \"\(name)\",\n    \"version\": \"\(version)\",\n    \"ios\": { \"bundleIdentifier\": \"com.acme.\(name)\", \"buildNumber\": \"7\" },\n    \"android\": { \"package\": \"com.acme.\(name)\", \"versionCode\": 7 }\n  }\n}\n")
        }
        try repo.write("packages/ui/package.json", "{\n  \"name\": \"@acme/ui\",\n  \"version\": \"0.3.2\"\n}\n")
        try repo.commitAll("chore: the workspace")
        _ = try followInit(repo, adopting: ["consumer", "driver", "ui"])
        #expect(try repo.git(["tag", "--list"]) == "consumer-v1.4.0\ndriver-v2.1.0\nui-v0.3.2\n")

        // Work on the apps, then the release the steps led to.
        try repo.write("apps/consumer/screen.ts", "export const a = 1\n")
        try repo.commitAll("feat(consumer): a new screen")
        try repo.write("packages/ui/button.ts", "export const b = 2\n")
        try repo.commitAll("fix(ui): the button's colour")
        let dry = relctl(["release", "--all", "--dry-run"], in: repo.path, environment: repo.gitEnvironment())
        #expect(dry.code == 0, "\(dry.stderr)")
        let release = relctl(["release", "--all"], in: repo.path, environment: repo.gitEnvironment())
        #expect(release.code == 0, "\(release.stderr)")
        let tags = try repo.git(["tag", "--points-at", "HEAD"]).split(separator: "\n").map(String.init).sorted()
        #expect(tags == ["consumer-v1.5.0", "driver-v2.1.1", "ui-v0.3.3"], "\(release.stdout)\(release.stderr)")
        #expect(try repo.read("apps/consumer/app.json").contains("\"version\": \"1.5.0\""))
        #expect(try repo.read("apps/driver/package.json").contains("\"version\": \"2.1.1\""))
        for command in quotedCommands(release.stderr) where !command.contains("--push") {
            let advice = try follow(command, in: repo)
            #expect(advice.code == 0, "advice of release --all: \(command): \(advice.stderr)")
        }
        // Nothing due afterwards: a second run releases nothing and succeeds.
        let again = relctl(["release", "--all"], in: repo.path, environment: repo.gitEnvironment())
        #expect(again.code == 0, "\(again.stderr)")
        #expect(try repo.git(["tag", "--points-at", "HEAD"]).split(separator: "\n").count == 3)
    }

    @Test func twoAndroidApplicationModulesInOneGradleBuild() throws {
        let repo = try TestRepository()
        try repo.write("settings.gradle.kts", "rootProject.name = \"Shop\"\ninclude(\":appa\")\ninclude(\":appb\")\n")
        for (module, id, code) in [("appa", "com.shop.a", 220_004), ("appb", "com.shop.b", 310)] {
            try repo.write("\(module)/build.gradle.kts", """
            plugins {
                id("com.android.application")
            }

            android {
                namespace = "\(id)"
                defaultConfig {
                    applicationId = "\(id)"
                    versionCode = \(code)
                    versionName = "3.1.0"
                }
            }

            """)
        }
        try repo.commitAll("chore: two apps")
        _ = try followInit(repo, adopting: ["appa", "appb"])

        try repo.write("appa/src/Main.kt", "fun main() {}\n")
        try repo.commitAll("feat: appa's main screen")
        let release = relctl(["release", "--all"], in: repo.path, environment: repo.gitEnvironment())
        #expect(release.code == 0, "\(release.stderr)")
        let tags = try repo.git(["tag", "--points-at", "HEAD"]).split(separator: "\n").map(String.init).sorted()
        #expect(tags.count >= 1 && tags.allSatisfy { $0.hasPrefix("appa") || $0.hasPrefix("appb") }, "\(tags) \(release.stderr)")
        #expect(try repo.read("appa/build.gradle.kts").contains("versionName = \"3.2.0\""), "\(release.stderr)")
        for command in quotedCommands(release.stderr) where !command.contains("--push") {
            let advice = try follow(command, in: repo)
            #expect(advice.code == 0, "advice of release --all: \(command): \(advice.stderr)")
        }
    }
}
