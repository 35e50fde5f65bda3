import Foundation
import Testing
import RelctlTestSupport
@testable import RelctlCLI

/// `action.yml` at the repository root, run for real: `scripts/dist` (what `make dist` runs) packs the built relctl,
/// the archive is "downloaded" from a file:// URL (the `download-url` input), checked against its SHA-256 and run on
/// a clone of an app whose origin is a bare repository — the composite action's two steps, each under
/// `bash --noprofile --norc -eo pipefail` as the runner runs `shell: bash`, with `$GITHUB_PATH` and `$GITHUB_OUTPUT`.
@Suite("The GitHub Action and make dist's archive", .serialized)
struct ActionTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    static func action() throws -> MiniYAML {
        try MiniYAML.parse(String(contentsOfFile: root + "/action.yml", encoding: .utf8))
    }

    /// scripts/dist run on the built relctl: the folder holding the archive and its .sha256, and the archive's name.
    static func dist() throws -> (folder: String, name: String) {
        let folder = try makeTempDirectory(prefix: "relctl-dist")
        let result = try runProcess("/bin/sh", [root + "/scripts/dist", try relctlExecutable(), folder], in: root,
                                    environment: ["SOURCE_DATE_EPOCH": "1764460800"])
        #expect(result.status == 0, "\(result.stderr)")
        let name = "relctl-\(relctlVersion)-linux-x86_64"
        #expect(result.stdout == "\(folder)/\(name).tar.gz\n\(folder)/\(name).tar.gz.sha256\n")
        return (folder, name)
    }

    /// Runs one step of the action as the runner does: its `env:` with `${{ inputs.* }}` substituted, `run:` under bash.
    static func runStep(_ step: MiniYAML, inputs: [String: String], environment: [String: String],
                        in directory: String) throws -> ProcessResult {
        func expand(_ text: String) -> String {
            var out = text.replacingOccurrences(of: "${{ github.action_repository }}", with: "example/relctl")
            for (key, value) in inputs { out = out.replacingOccurrences(of: "${{ inputs.\(key) }}", with: value) }
            return out
        }
        var env = environment
        for (key, value) in step["env"]?.members ?? [] { env[key] = expand(value.string ?? "") }
        let script = try #require(step["run"]?.string)
        #expect(!script.contains("${{"), "an expression inside run: (use env:)")
        let workingDirectory = step["working-directory"]?.string.map(expand) ?? "."
        return try runProcess("/bin/bash", ["--noprofile", "--norc", "-eo", "pipefail", "-c", script],
                              in: directory + "/" + workingDirectory, environment: env)
    }

    /// The defaults of the action's inputs with `given` over them.
    static func inputs(_ given: [String: String]) throws -> [String: String] {
        var values: [String: String] = [:]
        for (key, input) in try action()["inputs"]?.members ?? [] { values[key] = input["default"]?.string ?? "" }
        return values.merging(given) { _, new in new }
    }

    @Test func distArchiveHoldsTheBinaryManPageAndCompletions() throws {
        let (folder, name) = try Self.dist()
        let list = try runProcess("/bin/tar", ["-tzf", "\(folder)/\(name).tar.gz"])
        let files = list.stdout.split(separator: "\n").filter { !$0.hasSuffix("/") }.map(String.init)
        #expect(files == [
            "\(name)/bin/relctl",
            "\(name)/share/bash-completion/completions/relctl",
            "\(name)/share/fish/vendor_completions.d/relctl.fish",
            "\(name)/share/man/man1/relctl.1",
            "\(name)/share/zsh/site-functions/_relctl",
        ])
        let check = try runProcess("/usr/bin/sha256sum", ["--check", "\(name).tar.gz.sha256"], in: folder)
        #expect(check.status == 0)
        #expect(check.stdout == "\(name).tar.gz: OK\n")
        // Reproducible: the same binary packed again gives the same bytes.
        let (again, _) = try Self.dist()
        #expect(FileManager.default.contents(atPath: "\(folder)/\(name).tar.gz") == FileManager.default.contents(atPath: "\(again)/\(name).tar.gz"))
        // The packed binary is stripped and runs.
        _ = try runProcess("/bin/tar", ["-xzf", "\(name).tar.gz"], in: folder)
        let version = try runProcess("\(folder)/\(name)/bin/relctl", ["--version"])
        #expect(version.stdout == "\(relctlVersion)\n")
        let symbols = try runProcess("/usr/bin/env", ["nm", "\(folder)/\(name)/bin/relctl"])
        #expect(symbols.stderr.contains("no symbols"), "\(symbols.stderr)")
    }

    @Test func actionDeclaresEveryOutputRelctlWrites() throws {
        let outputs = try Self.action()["outputs"]?.members ?? []
        let names = outputs.map(\.0)
        // The names relctl writes: the ciOutputs of ReleaseReport (version, bump, tag …, halted), read from its source.
        let source = try String(contentsOfFile: Self.root + "/Sources/RelctlCLI/Release/ReleaseReport.swift", encoding: .utf8)
        let block = try #require(source.components(separatedBy: "var ciOutputs").dropFirst().first?.components(separatedBy: "\n    }\n").first)
        let written = block.components(separatedBy: "(\"").dropFirst().compactMap { piece -> String? in
            let name = piece.prefix { $0.isLowercase || $0 == "_" }
            return !name.isEmpty && piece.dropFirst(name.count).hasPrefix("\", ") ? String(name) : nil
        }
        #expect(written.count >= 9, "\(written)")
        // publish-release writes release_url too; `projects` is release's with projects (ProjectReleases.swift);
        // pr_url and pr_number are release-pr's (issue 24, section 2).
        let publish = try String(contentsOfFile: Self.root + "/Sources/RelctlCLI/Commands/PublishReleaseCommand.swift", encoding: .utf8)
        #expect(publish.contains("publish(outputs: [(\"release_url\""))
        let projects = try String(contentsOfFile: Self.root + "/Sources/RelctlCLI/Release/ProjectReleases.swift", encoding: .utf8)
        #expect(projects.contains("[(\"projects\", list)]"))
        #expect(Set(names) == Set(written + ["projects", "pr_url", "pr_number"]))
        #expect(written.contains("release_url"))
        for (name, output) in outputs {
            #expect(output["value"]?.string == "${{ steps.run.outputs.\(name) }}", "\(name)")
        }
        #expect(try Self.action()["inputs"]?["version"]?["default"]?.string == relctlVersion)
    }

    @Test func theActionReleasesAndPushesWithTheDownloadedArchive() throws {
        let (folder, name) = try Self.dist()
        let origin = try CIRecipeTests.origin(commits: ["feat: offline sync", "fix: crash on launch"])
        let job = try CIRecipeTests.checkout(origin)
        try job.git(["config", "user.name", "CI"])
        try job.git(["config", "user.email", "ci@example.com"])
        let runner = try makeTempDirectory(prefix: "relctl-action-runner")
        let githubPath = runner + "/path", githubOutput = runner + "/output"
        _ = FileManager.default.createFile(atPath: githubPath, contents: nil)
        _ = FileManager.default.createFile(atPath: githubOutput, contents: nil)
        var environment = ["RUNNER_TEMP": runner, "GITHUB_PATH": githubPath, "GITHUB_OUTPUT": githubOutput,
                           "GITHUB_ACTIONS": "true", "NO_COLOR": "1", "PATH": "/usr/bin:/bin",
                           "HOME": TestRepository.isolatedHome, "GIT_CONFIG_NOSYSTEM": "1"]
        let inputs = try Self.inputs(["args": "--push", "download-url": "file://\(folder)"])
        let steps = try Self.action()["runs"]?["steps"]?.items ?? []
        #expect(steps.count == 2)

        let install = try Self.runStep(steps[0], inputs: inputs, environment: environment, in: job.path)
        #expect(install.status == 0, "\(install.stderr)")
        #expect(install.stdout == "\(relctlVersion)\n")
        let added = try String(contentsOfFile: githubPath, encoding: .utf8)
        #expect(added == "\(runner)/relctl-\(relctlVersion)/\(name)/bin\n")
        environment["PATH"] = added.trimmingCharacters(in: .newlines) + ":" + environment["PATH"]!

        let run = try Self.runStep(steps[1], inputs: inputs, environment: environment, in: job.path)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == "1.3.0\n")
        #expect(try origin.git(["tag", "--list", "v1.3.0"]) == "v1.3.0\n")
        let output = try String(contentsOfFile: githubOutput, encoding: .utf8)
        #expect(output.contains("version=1.3.0\n") && output.contains("tag=v1.3.0\n") && output.contains("bump=minor\n"), "\(output)")
    }

    @Test func aWrongChecksumInstallsNothing() throws {
        let (folder, name) = try Self.dist()
        let runner = try makeTempDirectory(prefix: "relctl-action-runner")
        let githubPath = runner + "/path"
        _ = FileManager.default.createFile(atPath: githubPath, contents: nil)
        let environment = ["RUNNER_TEMP": runner, "GITHUB_PATH": githubPath, "PATH": "/usr/bin:/bin"]
        let wrong = String(repeating: "0", count: 64)
        let inputs = try Self.inputs(["download-url": "file://\(folder)", "sha256": wrong])
        let step = try #require(try Self.action()["runs"]?["steps"]?.items.first)
        let result = try Self.runStep(step, inputs: inputs, environment: environment, in: runner)
        #expect(result.status == 1)
        #expect(result.stdout == "::error title=relctl::\(name).tar.gz from file://\(folder) does not match its SHA-256; nothing was installed (check the version, sha256 and download-url inputs)\n")
        #expect(try String(contentsOfFile: githubPath, encoding: .utf8) == "")
        #expect(!FileManager.default.fileExists(atPath: "\(runner)/relctl-\(relctlVersion)"))

        // Following the advice: the right sha256 pinned in the workflow installs it.
        let sum = try String(contentsOfFile: "\(folder)/\(name).tar.gz.sha256", encoding: .utf8).prefix(64)
        let pinned = try Self.runStep(step, inputs: try Self.inputs(["download-url": "file://\(folder)", "sha256": String(sum)]),
                                      environment: environment, in: runner)
        #expect(pinned.status == 0, "\(pinned.stderr)")
    }
}
