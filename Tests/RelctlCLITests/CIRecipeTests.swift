import Foundation
import Testing
import RelctlTestSupport
@testable import RelctlCLI

/// The CI recipes of the README, run for real: each job's shell steps, read from the README's YAML, run in a clone
/// of a temporary app whose `origin` is a bare repository, with the variables the CI would set: the GitHub jobs'
/// `uses: …/relctl@…` steps run the Action's steps (action.yml) on the dist archive of the built relctl, the GitLab
/// jobs the built relctl on PATH. Only the `Install git and libgit2` steps (apt, root) and other `uses:` actions are
/// left out.
@Suite("CI recipes in the README")
struct CIRecipeTests {
    static let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("README.md")

    /// The fenced ```yaml block of the README whose first line is `# <name>`.
    static func recipe(_ name: String) throws -> MiniYAML {
        let text = try String(contentsOf: readme, encoding: .utf8)
        let blocks = text.components(separatedBy: "```yaml\n").dropFirst().map { $0.components(separatedBy: "\n```")[0] }
        let block = try #require(blocks.first { $0.hasPrefix("# \(name)\n") }, "no ```yaml block starting with '# \(name)' in README.md")
        return try MiniYAML.parse(block)
    }

    // MARK: The app and its origin

    /// A bare `origin` holding an app released as v1.2.0 (package.json) and then `commits` on main.
    static func origin(commits: [String]) throws -> TestRepository {
        let seed = try TestRepository()
        try seed.write(".relctl.json", #"{ "files": [{ "path": "package.json", "format": "json" }] }"# + "\n")
        try seed.write("package.json", "{\n  \"name\": \"harbor\",\n  \"version\": \"1.2.0\"\n}\n")
        try seed.commitAll("chore: initial commit")
        try seed.tag("v1.2.0")
        for message in commits { try seed.commit(message, file: "src/app.ts") }
        let origin = try TestRepository(bare: true)
        try seed.git(["push", "-q", "--follow-tags", origin.path, "main"])
        try seed.git(["push", "-q", "--tags", origin.path])
        return origin
    }

    /// What actions/checkout with fetch-depth 0 leaves (or GitLab's clone): a full clone of origin.
    static func checkout(_ origin: TestRepository) throws -> TestRepository {
        let path = try makeTempDirectory(prefix: "relctl-ci-job")
        try FileManager.default.removeItem(atPath: path)
        try origin.clone(to: path)
        return try TestRepository(existing: path)
    }

    /// The environment every step starts from: the built relctl first on PATH, no git identity but the recipe's.
    static func baseEnvironment() throws -> [String: String] {
        let bin = URL(fileURLWithPath: try relctlExecutable()).deletingLastPathComponent().path
        return ["PATH": bin + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"), "CI": "true", "NO_COLOR": "1",
                "HOME": TestRepository.isolatedHome, "GIT_CONFIG_NOSYSTEM": "1",
                "GIT_AUTHOR_NAME": "", "GIT_AUTHOR_EMAIL": "", "GIT_COMMITTER_NAME": "", "GIT_COMMITTER_EMAIL": "", "EMAIL": ""]
    }

    // MARK: GitHub Actions

    struct JobRun {
        var failed = false
        var log = ""
        var stepsRun: [String] = []
        var context: [String: String]
    }

    /// The archive `scripts/dist` packs from the built relctl (what `make dist` publishes), once per test run: the
    /// folder the recipe's Action downloads it from (`download-url: file://…`).
    static let distFolder: Result<String, any Error> = Result {
        let folder = try makeTempDirectory(prefix: "relctl-recipe-dist")
        let result = try runProcess("/bin/sh", [ActionTests.root + "/scripts/dist", try relctlExecutable(), folder], in: ActionTests.root,
                                    environment: ["SOURCE_DATE_EPOCH": "1764460800"])
        guard result.status == 0 else { throw CommandFailed(description: "scripts/dist: \(result.stderr)") }
        return folder
    }

    /// The PATH of the GitHub jobs' steps: the system's, without the built relctl (the Action installs it).
    static func systemPath() -> String {
        let built = (try? relctlExecutable()).map { URL(fileURLWithPath: $0).deletingLastPathComponent().path }
        return (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
            .filter { String($0) != built }.joined(separator: ":")
    }

    /// Runs a GitHub Actions job's steps as the runner does: `if:` (default `success()`), `env:` (the workflow's,
    /// the job's, the step's) with `${{ }}` expressions, `run:` under `bash -eo pipefail`, step outputs from
    /// `$GITHUB_OUTPUT`, `$GITHUB_PATH` prepended to the next steps' PATH. A `uses: …/relctl@…` step runs the Action's
    /// steps (action.yml) with its `with:` inputs and the dist archive; its outputs are the Action's `outputs`.
    static func runGitHubJob(_ name: String, in repo: TestRepository, context: [String: String],
                             extraEnvironment: [String: String] = [:]) throws -> JobRun {
        let workflow = try recipe(".github/workflows/release.yml")
        let job = try #require(workflow["jobs"]?[name], "no job \(name)")
        var run = JobRun(context: context)
        let scratch = try makeTempDirectory(prefix: "relctl-ci-runner")
        let summary = scratch + "/summary.md"
        let githubPath = scratch + "/path"
        _ = FileManager.default.createFile(atPath: summary, contents: nil)
        _ = FileManager.default.createFile(atPath: githubPath, contents: nil)
        let action = try ActionTests.action()
        for (index, step) in (job["steps"]?.items ?? []).enumerated() {
            let title = step["name"]?.string ?? step["uses"]?.string ?? "step \(index)"
            let uses = step["uses"]?.string
            let isRelctl = uses?.contains("/relctl@") == true
            if uses != nil && !isRelctl { continue }
            if !isRelctl && (step["run"]?.string == nil || title.hasPrefix("Install git")) { continue }
            let condition = step["if"]?.string ?? "success()"
            guard try Expression.truthy(condition, run.context, failed: run.failed) else { continue }
            var environment = try baseEnvironment()
            let added = try String(contentsOfFile: githubPath, encoding: .utf8).split(separator: "\n").reversed()
            environment["PATH"] = (added.map(String.init) + [systemPath()]).joined(separator: ":")
            environment["GITHUB_ACTIONS"] = "true"
            environment["GITHUB_STEP_SUMMARY"] = summary
            environment["GITHUB_PATH"] = githubPath
            environment["RUNNER_TEMP"] = scratch
            for (key, value) in (workflow["env"]?.members ?? []) + (job["env"]?.members ?? []) + (step["env"]?.members ?? []) {
                environment[key] = try Expression.substitute(value.string ?? "", run.context)
            }
            environment.merge(extraEnvironment) { $1 }
            run.stepsRun.append(title)
            var outputs: [String: String] = [:]
            func readOutputs(_ file: String) throws -> [String: String] {
                var values: [String: String] = [:]
                for line in try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n") {
                    guard let eq = line.firstIndex(of: "=") else { continue }
                    values[String(line[..<eq])] = String(line[line.index(after: eq)...])
                }
                return values
            }
            if isRelctl {
                // The Action: its steps in order, each with its own $GITHUB_OUTPUT; the `run` step's are the outputs.
                var given: [String: String] = [:]
                for (key, value) in step["with"]?.members ?? [] { given[key] = try Expression.substitute(value.string ?? "", run.context) }
                given["download-url"] = "file://" + (try distFolder.get())
                let inputs = try ActionTests.inputs(given)
                var actionOutputs: [String: String] = [:]
                for (inner, actionStep) in (action["runs"]?["steps"]?.items ?? []).enumerated() {
                    let outputFile = scratch + "/output-\(index)-\(inner)"
                    _ = FileManager.default.createFile(atPath: outputFile, contents: nil)
                    environment["GITHUB_OUTPUT"] = outputFile
                    let added = try String(contentsOfFile: githubPath, encoding: .utf8).split(separator: "\n").reversed()
                    environment["PATH"] = (added.map(String.init) + [systemPath()]).joined(separator: ":")
                    let result = try ActionTests.runStep(actionStep, inputs: inputs, environment: environment, in: repo.path)
                    run.log += "## \(title): \(actionStep["name"]?.string ?? "") (exit \(result.status))\n\(result.stdout)\(result.stderr)"
                    if let id = actionStep["id"]?.string {
                        for (key, value) in try readOutputs(outputFile) { actionOutputs["steps.\(id).outputs.\(key)"] = value }
                    }
                    if result.status != 0 { run.failed = true; break }
                }
                for (key, output) in action["outputs"]?.members ?? [] {
                    outputs[key] = try Expression.substitute(output["value"]?.string ?? "", actionOutputs)
                }
            } else {
                let outputFile = scratch + "/output-\(index)"
                _ = FileManager.default.createFile(atPath: outputFile, contents: nil)
                environment["GITHUB_OUTPUT"] = outputFile
                let script = try #require(step["run"]?.string)
                #expect(!script.contains("${{"), "\(title): an expression inside run: (use env:)")
                let result = try runProcess("/bin/bash", ["--noprofile", "--norc", "-eo", "pipefail", "-c", script], in: repo.path,
                                            environment: environment)
                run.log += "## \(title) (exit \(result.status))\n\(result.stdout)\(result.stderr)"
                if result.status != 0 { run.failed = true }
                outputs = try readOutputs(outputFile)
            }
            if let id = step["id"]?.string {
                for (key, value) in outputs { run.context["steps.\(id).outputs.\(key)"] = value }
            }
        }
        return run
    }

    static func gitHubContext(event: String, title: String = "", confirmMajor: Bool = false) -> [String: String] {
        ["github.event_name": event, "github.base_ref": event == "pull_request" ? "main" : "", "github.ref": "refs/heads/main",
         "github.event.pull_request.title": title, "secrets.GITHUB_TOKEN": "test-token", "github.token": "test-token",
         "inputs.confirm_major": confirmMajor ? "true" : "false", "env.RELCTL_VERSION": "v0.1.0"]
    }

    @Test func gitHubJobsRunOnTheEventTheyAreFor() throws {
        let jobs = try #require(try Self.recipe(".github/workflows/release.yml")["jobs"])
        let pr = Self.gitHubContext(event: "pull_request"), push = Self.gitHubContext(event: "push")
        #expect(try Expression.truthy(try #require(jobs["pull-request"]?["if"]?.string), pr, failed: false))
        #expect(try !Expression.truthy(try #require(jobs["pull-request"]?["if"]?.string), push, failed: false))
        #expect(try Expression.truthy(try #require(jobs["release"]?["if"]?.string), push, failed: false))
        #expect(try !Expression.truthy(try #require(jobs["release"]?["if"]?.string), pr, failed: false))
        let workflow = try Self.recipe(".github/workflows/release.yml")
        #expect(workflow["concurrency"]?["group"]?.string == "relctl-${{ github.ref }}")
        for job in ["pull-request", "release"] {
            let checkout = jobs[job]?["steps"]?.items.first { $0["uses"]?.string?.hasPrefix("actions/checkout@") == true }
            #expect(checkout?["with"]?["fetch-depth"]?.string == "0", "\(job): fetch-depth 0")
        }
    }

    @Test func gitHubPullRequestLintsAndShowsWhatMergingWouldRelease() throws {
        let origin = try Self.origin(commits: [])
        let before = try origin.git(["for-each-ref"])
        let pr = try Self.checkout(origin)
        try pr.git(["checkout", "-q", "--detach"])   // the pull request's merge commit, detached
        try pr.commit("feat(ui): dark mode", file: "src/theme.ts")
        let good = try Self.runGitHubJob("pull-request", in: pr, context: Self.gitHubContext(event: "pull_request", title: "feat(ui): dark mode"))
        #expect(!good.failed, "\(good.log)")
        #expect(good.stepsRun == ["Install relctl", "Lint the commits and the title", "What merging would release (dry run)"])
        // The Action's install step printed the archive's version; the later steps ran the relctl it put on PATH.
        #expect(good.log.contains("## Install relctl: Install relctl (exit 0)\n\(relctlVersion)\n"), "\(good.log)")
        #expect(good.log.contains("1.3.0"), "\(good.log)")
        #expect(good.log.contains("+  \"version\": \"1.3.0\""), "\(good.log)")
        #expect(try origin.git(["for-each-ref"]) == before)

        // A title that would become a non-conventional squash commit fails the job before the dry run.
        let bad = try Self.checkout(origin)
        try bad.git(["checkout", "-q", "--detach"])
        try bad.commit("feat(ui): dark mode", file: "src/theme.ts")
        let refused = try Self.runGitHubJob("pull-request", in: bad, context: Self.gitHubContext(event: "pull_request", title: "Dark mode"))
        #expect(refused.failed)
        #expect(refused.stepsRun == ["Install relctl", "Lint the commits and the title"])
        #expect(refused.log.contains("title: error:"), "\(refused.log)")
    }

    @Test func gitHubReleaseOnMainPushesTheReleaseAndItsOutputsReachTheNextSteps() throws {
        let origin = try Self.origin(commits: ["feat: offline maps", "fix: crash on launch"])
        let job = try Self.checkout(origin)
        let run = try Self.runGitHubJob("release", in: job, context: Self.gitHubContext(event: "push"))
        #expect(!run.failed, "\(run.log)")
        #expect(run.stepsRun == ["Release", "Build the store binaries"])
        #expect(run.context["steps.release.outputs.version"] == "1.3.0")
        #expect(run.log.contains("released 1.3.0 as v1.3.0"), "\(run.log)")
        // The release reached origin: the tag, and main with the version file and the release commit.
        #expect(try origin.git(["rev-parse", "v1.3.0^{commit}"]) == (try origin.git(["rev-parse", "main"])))
        #expect(try origin.git(["show", "main:package.json"]) == "{\n  \"name\": \"harbor\",\n  \"version\": \"1.3.0\"\n}\n")
        #expect(try origin.git(["log", "-1", "--format=%an <%ae>", "main"]) == "github-actions[bot] <41898282+github-actions[bot]@users.noreply.github.com>\n")
    }

    @Test func gitHubMajorReleaseHaltsThenIsMadeWithConfirmMajor() throws {
        let origin = try Self.origin(commits: ["feat!: a new sync API"])
        let halted = try Self.runGitHubJob("release", in: try Self.checkout(origin), context: Self.gitHubContext(event: "push"))
        #expect(halted.failed)
        #expect(halted.stepsRun == ["Release", "Major release halted"])
        #expect(halted.log.contains("::error title=Major release 2.0.0 halted::review the breaking changes"), "\(halted.log)")
        #expect((try? origin.git(["rev-parse", "-q", "--verify", "refs/tags/v2.0.0"])) == nil)

        // Run again with confirm_major: the release is made, and the step about the floor runs.
        let made = try Self.runGitHubJob("release", in: try Self.checkout(origin), context: Self.gitHubContext(event: "push", confirmMajor: true))
        #expect(!made.failed, "\(made.log)")
        #expect(made.stepsRun == ["Release", "Decide on min_supported_version", "Build the store binaries"])
        #expect(made.log.contains("::warning title=Major release 2.0.0::once it is live in both stores, run relctl gate raise-min 2.0.0 --confirm-live"))
        #expect(try origin.git(["show", "main:.major-release-pending"]).contains("\"version\": \"2.0.0\""))
    }

    /// Pasted as it is, the workflow runs the pinned relctl through its Action (nothing compiled), in the Debian 12
    /// container its archive is built for, asks for the least permissions, lints a retitled pull request again and
    /// hands the build numbers and the release's URL to the store build.
    @Test func gitHubRecipeUsesThePinnedActionAndIsLeastPrivileged() throws {
        let workflow = try Self.recipe(".github/workflows/release.yml")
        #expect(workflow["permissions"]?["contents"]?.string == "read")
        let types = try #require(workflow["on"]?["pull_request"]?["types"]?.string)
        #expect(types == "[opened, edited, synchronize, reopened]")
        let jobs = try #require(workflow["jobs"])
        #expect(jobs["pull-request"]?["permissions"] == nil, "the pull-request job keeps contents: read")
        #expect(jobs["release"]?["permissions"]?["contents"]?.string == "write")
        let version = try #require(try ActionTests.action()["inputs"]?["version"]?["default"]?.string)
        for job in ["pull-request", "release"] {
            #expect(jobs[job]?["container"]?.string == "debian:12", "\(job): the archive's libgit2 1.5")
            let steps = jobs[job]?["steps"]?.items ?? []
            let relctl = steps.filter { $0["uses"]?.string?.contains("/relctl@") == true }
            #expect(relctl.count == 1, "\(job): one relctl Action step")
            #expect(relctl.first?["uses"]?.string == "<owner>/relctl@v\(version)", "\(job): pinned to the Action's own release")
            for step in steps {
                let script = step["run"]?.string ?? ""
                #expect(!script.contains("make ") && !script.contains("git clone") && !script.contains("swift build"),
                        "\(job): nothing is built from source")
            }
        }
        let release = try #require(jobs["release"]?["steps"]?.items.first { $0["id"]?.string == "release" })
        #expect(release["with"]?["args"]?.string == "${{ inputs.confirm_major && '--push --confirm-major' || '--push' }}")
        #expect(try Expression.substitute(release["with"]?["args"]?.string ?? "", ["inputs.confirm_major": "true"]) == "--push --confirm-major")
        #expect(try Expression.substitute(release["with"]?["args"]?.string ?? "", ["inputs.confirm_major": "false"]) == "--push")
        #expect(try Expression.substitute(release["with"]?["args"]?.string ?? "", [:]) == "--push")
        let build = try #require(jobs["release"]?["steps"]?.items.first { $0["name"]?.string == "Build the store binaries" })
        #expect(build["env"]?["IOS_BUILD"]?.string == "${{ steps.release.outputs.ios_build }}")
        #expect(build["env"]?["ANDROID_BUILD"]?.string == "${{ steps.release.outputs.android_build }}")
        #expect(build["env"]?["RELEASE_URL"]?.string == "${{ steps.release.outputs.release_url }}")
        // Every output the recipe reads is one the Action declares.
        let declared = Set((try ActionTests.action()["outputs"]?.members ?? []).map(\.0))
        for step in jobs["release"]?["steps"]?.items ?? [] {
            for (_, value) in (step["env"]?.members ?? []) + [("if", step["if"] ?? .scalar(""))] {
                var text = Substring(value.string ?? "")
                while let range = text.range(of: "steps.release.outputs.") {
                    text = text[range.upperBound...]
                    let name = String(text.prefix { $0.isLetter || $0 == "_" })
                    #expect(declared.contains(name), "\(name)")
                }
            }
        }
    }

    /// A protected main: the remote's pre-receive hook refuses the push of main (as GitHub refuses GITHUB_TOKEN).
    /// The job fails, relctl says the push was refused and that nothing was published, and origin is untouched.
    /// With a token the protection lets through (here: the hook gone, as for the app on the bypass list), the
    /// next run releases.
    @Test func gitHubReleaseOnAProtectedMainFailsCleanlyThenReleasesWithABypassToken() throws {
        let origin = try Self.origin(commits: ["feat: offline maps"])
        let hook = origin.path + "/hooks/pre-receive"
        try writeExecutable("""
        #!/bin/sh
        while read old new ref; do
          if [ "$ref" = refs/heads/main ]; then
            echo "error: GH006: Protected branch update failed for refs/heads/main." >&2
            exit 1
          fi
        done
        """, to: hook)
        let daemon = try GitDaemon(serving: origin.path)
        defer { daemon.stop() }
        let before = try origin.git(["for-each-ref"])

        let job = try Self.checkout(origin)
        try job.git(["remote", "set-url", "origin", daemon.url])
        let refused = try Self.runGitHubJob("release", in: job, context: Self.gitHubContext(event: "push"))
        #expect(refused.failed)
        #expect(refused.stepsRun == ["Release"])
        #expect(refused.log.contains("push of main to 'origin' failed (pre-receive hook declined); nothing was published"), "\(refused.log)")
        #expect(refused.log.contains("branch protection"), "\(refused.log)")
        #expect(try origin.git(["for-each-ref"]) == before)

        try FileManager.default.removeItem(atPath: hook)
        let next = try Self.checkout(origin)
        try next.git(["remote", "set-url", "origin", daemon.url])
        var context = Self.gitHubContext(event: "push")
        context["steps.app-token.outputs.token"] = "app-token"
        let made = try Self.runGitHubJob("release", in: next, context: context)
        #expect(!made.failed, "\(made.log)")
        #expect(made.stepsRun == ["Release", "Build the store binaries"])
        #expect(try origin.git(["rev-parse", "v1.3.0^{commit}"]) == (try origin.git(["rev-parse", "main"])))
    }

    // MARK: GitLab CI

    /// Runs a GitLab job's `script:` lines in one shell, as the runner does, with the file's `variables:`.
    static func runGitLabJob(_ name: String, in repo: TestRepository, variables: [String: String]) throws -> (status: Int32, log: String) {
        let pipeline = try recipe(".gitlab-ci.yml")
        let job = try #require(pipeline[name], "no job \(name)")
        var environment = try baseEnvironment()
        for (key, value) in pipeline["variables"]?.members ?? [] { environment[key] = value.string }
        for (key, value) in variables { environment[key] = value }
        let lines = (job["script"]?.items ?? []).compactMap { $0.string }
        #expect(!lines.isEmpty)
        let result = try runProcess("/bin/bash", ["--noprofile", "--norc", "-eo", "pipefail", "-c", lines.joined(separator: "\n")],
                                    in: repo.path, environment: environment)
        return (result.status, result.stdout + result.stderr)
    }

    @Test func gitLabMergeRequestLintsAndDryRuns() throws {
        let origin = try Self.origin(commits: [])
        let before = try origin.git(["for-each-ref"])
        let mr = try Self.checkout(origin)
        try mr.git(["checkout", "-q", "--detach"])
        try mr.commit("fix(sync): retry on timeout", file: "src/sync.ts")
        let variables = ["CI_PIPELINE_SOURCE": "merge_request_event", "CI_MERGE_REQUEST_TARGET_BRANCH_NAME": "main",
                         "CI_MERGE_REQUEST_TITLE": "fix(sync): retry on timeout", "GITLAB_CI": "true"]
        let run = try Self.runGitLabJob("merge-request", in: mr, variables: variables)
        #expect(run.status == 0, "\(run.log)")
        #expect(run.log.contains("+  \"version\": \"1.2.1\""), "\(run.log)")
        #expect(try origin.git(["for-each-ref"]) == before)
        let rules = try Self.recipe(".gitlab-ci.yml")["merge-request"]?["rules"]?.items.first?["if"]?.string
        #expect(rules == "$CI_PIPELINE_SOURCE == \"merge_request_event\"")

        var badTitle = variables
        badTitle["CI_MERGE_REQUEST_TITLE"] = "Retry on timeout"
        let mr2 = try Self.checkout(origin)
        let refused = try Self.runGitLabJob("merge-request", in: mr2, variables: badTitle)
        #expect(refused.status == 2, "\(refused.log)")
        #expect(refused.log.contains("title: error:"))
    }

    @Test func gitLabReleasePushesFromTheDetachedCheckout() throws {
        let origin = try Self.origin(commits: ["feat: offline maps"])
        let job = try Self.checkout(origin)
        let sha = try job.head()
        try job.git(["checkout", "-q", "--detach", sha])   // GitLab checks out the commit, not the branch
        let variables = ["CI_PIPELINE_SOURCE": "push", "CI_COMMIT_BRANCH": "main", "CI_DEFAULT_BRANCH": "main",
                         "CI_COMMIT_SHA": sha, "CI_JOB_TOKEN": "test-job-token", "GITLAB_CI": "true"]
        let run = try Self.runGitLabJob("release", in: job, variables: variables)
        #expect(run.status == 0, "\(run.log)")
        #expect(try origin.git(["rev-parse", "v1.3.0^{commit}"]) == (try origin.git(["rev-parse", "main"])))
        #expect(try origin.git(["log", "-1", "--format=%cn", "main"]) == "relctl\n")
        #expect(try Self.recipe(".gitlab-ci.yml")["variables"]?["GIT_DEPTH"]?.string == "0")

        // A major release halts the job (exit 3) until CONFIRM_MAJOR=true.
        let majorOrigin = try Self.origin(commits: ["feat!: a new sync API"])
        let halted = try Self.runGitLabJob("release", in: try Self.checkout(majorOrigin), variables: variables.merging(["CI_COMMIT_SHA": "HEAD"]) { $1 })
        #expect(halted.status == 3, "\(halted.log)")
        let made = try Self.runGitLabJob("release", in: try Self.checkout(majorOrigin),
                                         variables: variables.merging(["CI_COMMIT_SHA": "HEAD", "CONFIRM_MAJOR": "true"]) { $1 })
        #expect(made.status == 0, "\(made.log)")
        #expect(try majorOrigin.git(["tag", "--list", "v2.0.0"]) == "v2.0.0\n")
    }
}

/// GitHub Actions expressions as the recipes use them: context lookups, 'strings', ==, !=, && and the status
/// functions in conditions, `a || b` and `a && b || c` in values. Anything else is an error, so a recipe cannot use what this runner
/// would misread.
enum Expression {
    struct Unsupported: Error, CustomStringConvertible { let description: String }

    static func truthy(_ expression: String, _ context: [String: String], failed: Bool) throws -> Bool {
        var text = expression.trimmingCharacters(in: .whitespaces)
        if text.hasPrefix("${{") && text.hasSuffix("}}") { text = String(text.dropFirst(3).dropLast(2)) }
        guard !text.contains("||") else { throw Unsupported(description: "|| in \(expression)") }
        let terms = text.components(separatedBy: "&&").map { $0.trimmingCharacters(in: .whitespaces) }
        // A condition without a status function runs only while the job succeeds (GitHub adds success()).
        var result = terms.contains { $0.hasSuffix("()") } ? true : !failed
        for term in terms {
            switch term {
            case "success()": result = result && !failed
            case "failure()": result = result && failed
            case "always()": break
            default:
                if let range = term.range(of: "!=") ?? term.range(of: "==") {
                    let left = try operand(String(term[..<range.lowerBound]), context)
                    let right = try operand(String(term[range.upperBound...]), context)
                    result = result && ((left == right) == (term[range] == "=="))
                } else {
                    let value = try operand(term, context)
                    result = result && !(value.isEmpty || value == "false" || value == "0")
                }
            }
        }
        return result
    }

    /// A value with `${{ x }}` expressions replaced by their values.
    static func substitute(_ value: String, _ context: [String: String]) throws -> String {
        var out = ""
        var rest = Substring(value)
        while let open = rest.range(of: "${{") {
            out += rest[..<open.lowerBound]
            guard let close = rest[open.upperBound...].range(of: "}}") else { throw Unsupported(description: value) }
            out += try operand(String(rest[open.upperBound..<close.lowerBound]), context)
            rest = rest[close.upperBound...]
        }
        return out + rest
    }

    static func operand(_ text: String, _ context: [String: String]) throws -> String {
        let text = text.trimmingCharacters(in: .whitespaces)
        if text.contains("||") {
            // `a || b`: the first value that is not empty (nor false nor 0), else the last.
            let values = try text.components(separatedBy: "||").map { try operand($0, context) }
            return values.first { !($0.isEmpty || $0 == "false" || $0 == "0") } ?? values.last ?? ""
        }
        if text.contains("&&") {
            // `a && b` (GitHub's `cond && 'x' || 'y'`): the first falsey value, else the last.
            let values = try text.components(separatedBy: "&&").map { try operand($0, context) }
            return values.first { $0.isEmpty || $0 == "false" || $0 == "0" } ?? values.last ?? ""
        }
        if text.hasPrefix("'") && text.hasSuffix("'") && text.count >= 2 { return String(text.dropFirst().dropLast()) }
        if text == "true" || text == "false" { return text }
        guard text.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "." || $0 == "_" || $0 == "-" }) else {
            throw Unsupported(description: text)
        }
        return context[text] ?? ""
    }
}

/// `git daemon` serving one bare repository on a loopback port, pushes allowed (its hooks run, as on a server).
/// Started detached (it writes its pid), stopped by that pid.
final class GitDaemon {
    let url: String
    private let pid: pid_t

    init(serving repository: String) throws {
        let base = URL(fileURLWithPath: repository).deletingLastPathComponent().path
        let name = URL(fileURLWithPath: repository).lastPathComponent
        let pidFile = base + "/git-daemon-\(name).pid"
        var started: (pid_t, Int)?
        for _ in 0..<20 where started == nil {
            let port = Int.random(in: 20_000..<60_000)
            try? FileManager.default.removeItem(atPath: pidFile)
            // Through a shell that closes every descriptor but /dev/null on 0-2: the daemon would otherwise hold the
            // pipes runProcess reads to their end (and any the test process left open) for as long as it lives.
            let closing = "for fd in $(ls /proc/$$/fd); do [ \"$fd\" -gt 2 ] && eval \"exec $fd>&-\"; done; exec \"$0\" \"$@\" </dev/null >/dev/null 2>&1"
            let launch = try runProcess("/bin/bash", ["-c", closing, TestRepository.gitPath,
                "daemon", "--detach", "--pid-file=\(pidFile)", "--reuseaddr", "--listen=127.0.0.1", "--port=\(port)",
                "--base-path=\(base)", "--export-all", "--enable=receive-pack", "--informative-errors", base])
            guard launch.status == 0 else { continue }
            var pid: pid_t = 0
            for _ in 0..<100 {
                if pid == 0, let text = try? String(contentsOfFile: pidFile, encoding: .utf8),
                   let read = pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)) { pid = read }
                if pid != 0, kill(pid, 0) != 0 { break }   // it exited: the port was taken
                if pid != 0, try runProcess(TestRepository.gitPath, ["ls-remote", "git://127.0.0.1:\(port)/\(name)"]).status == 0 {
                    started = (pid, port)
                    break
                }
                usleep(50_000)
            }
            if started == nil, pid != 0 { kill(pid, SIGTERM) }
        }
        guard let (pid, port) = started else { throw CommandFailed(description: "git daemon did not start") }
        self.pid = pid
        url = "git://127.0.0.1:\(port)/\(name)"
    }

    func stop() { kill(pid, SIGTERM) }
}
