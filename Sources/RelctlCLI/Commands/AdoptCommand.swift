#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
import RelctlCore
import RelctlFiles
import RelctlGit

/// `relctl adopt`: for an app already in the stores, tag the version its files hold as the last release.
enum AdoptCommand {
    static let spec = CommandSpec(
        name: "adopt",
        summary: "Tag the version the app's files hold as the last release (an app already in the stores).",
        options: [.dryRun, .json, .repo, .config] + OptionSpec.projects,
        discussion: """
        An app that reaches relctl at 2.43.0 has no release tag yet, so relctl would start from initialVersion
        (1.0.0), below what the stores have; next warns and release refuses. adopt gives relctl the last release:
        when every version file agrees on one final version, it creates the annotated tag of that version
        (tagFormat, e.g. v2.43.0) on the commit that last set it, found from the history of the version files
        (the first-parent chain from HEAD). From then on, releases count only the commits after it.

        It prints what it does (the version, the tag, the commit and the commits after it) and, with --dry-run,
        stops there. It never asks for confirmation, so it runs the same in CI: the tag is local and undone with
        'git tag -d <tag>'. It never pushes: the next 'relctl release --push' pushes the tag with the release
        (or push it now: git push origin <tag>).

        Refused, with the fix, when the files disagree (each file is named), hold a prerelease or a version that
        is not of versionScheme, hold a version not yet committed, or when the tag exists elsewhere. Nothing to
        do (exit 0) when a release tag at or above the files' version is already reachable from HEAD.

        --json prints {"schemaVersion":1,"version","tag","commit","path","commitsAfter","next","bump","created",
        "dryRun"} instead of the plan ("tag" and "commit" null, "reason" added, when there is nothing to adopt).

        EXIT CODES: 0 tagged (or nothing to adopt), 1 failure, 64 usage error.
        """,
        run: run)

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        let dryRun = arguments.has("--dry-run")
        // The lock comes before anything is read (the config, the files, the tags), as in release; a dry run takes none.
        let opened = try Workspace.open(RepositoryLocation(arguments), context, locked: !dryRun, command: "adopt", config: .required)
        defer { opened.lock?.release() }
        let selection = try ProjectSelection.select(arguments, context, workspace: opened, usage: spec.usage, atRoot: .ask)
        try selection.each(context, json: arguments.has("--json")) { workspace, context in
            try adopt(workspace, arguments, context)
        }
    }

    /// One project's adoption (or the one app's).
    static func adopt(_ workspace: Workspace, _ arguments: ParsedArguments, _ context: CommandContext) throws {
        let dryRun = arguments.has("--dry-run")
        let repository = workspace.repository
        try InterruptedRelease.refuse(gitDir: repository.gitDir)

        let current = try workspace.readVersions()
        let floor = VersionFloor(current)
        guard let held = floor.held else {
            throw Problem("no version file in \(workspace.configDisplayPath) holds a literal marketing version, so there is no version to adopt; list the app's version files in 'files' (relctl init)")
        }
        guard floor.agreed else {
            var seen = Set<String>()
            let sites = floor.sites.filter { seen.insert("\($0.path) \($0.value)").inserted }
                .map { "\($0.path):\($0.line) \($0.value)" }.joined(separator: ", ")
            // Advice that works when followed: syncing below a file's version needs --allow-downgrade.
            throw Problem("the version files disagree (\(sites)), so relctl cannot tell which version the stores have; write the released one to every file (relctl sync \(held.value) if the stores have \(held.value), the highest; relctl sync <version> --allow-downgrade for a lower one), commit, and run relctl adopt again")
        }
        let text = held.value
        guard VersionParts(text).prerelease == nil else {
            throw Problem("\(held.path):\(held.line): the files hold the prerelease \(text), and a release base is a final version; adopt the last final release instead (write it with relctl sync <version> and commit), or release \(VersionParts(text).core) first")
        }
        let scheme = workspace.config.versionScheme
        guard let version = scheme.parse(text) else {
            throw Problem("\(held.path):\(held.line): \(text) is not a version of versionScheme \(scheme) (\(scheme.example)); \(schemeFix(text, scheme: scheme, configPath: workspace.configDisplayPath))")
        }
        let analysis = try workspace.analyze()
        let json = arguments.has("--json")
        if let base = analysis.baseTag, let last = analysis.current, !(last < version) {
            if json {
                context.output.result(JSONOutput.object([
                    ("schemaVersion", .int(1)), ("version", .string(text)), ("tag", .null), ("commit", .null), ("path", .null),
                    ("commitsAfter", .null), ("next", .null), ("bump", .null), ("created", .bool(false)), ("dryRun", .bool(dryRun)),
                    ("reason", .string("\(base) (\(last)) is already the last release reachable from HEAD")),
                ]).rendered())
            }
            context.output.message("nothing to adopt: \(base) (\(last)) is already the last release reachable from HEAD, and the files hold \(text)")
            return
        }
        let format = try TagFormat(workspace.config.tagFormat)
        let build = current.highestIOSBuild ?? current.highestAndroidBuild
        if format.carriesBuild && build == nil {
            throw Problem("tagFormat \"\(workspace.config.tagFormat)\" puts the build number in the tag, but no version file holds one; add the file holding it to 'files' in \(workspace.configDisplayPath), or drop {build} from tagFormat")
        }
        let tag = format.tagName(for: version, build: build)
        if let existing = try repository.tag(named: tag) {
            let commit = try repository.commit(of: existing)
            throw Problem("tag \(tag) already exists on \(commit.map { String($0.hex.prefix(12)) } ?? "an object that is not a commit"), which is not an ancestor of HEAD; merge that release back (git merge \(tag)) instead of adopting")
        }
        guard let head = try repository.headCommit() else {
            throw Problem("the repository has no commits yet; commit the app before adopting its version")
        }
        // Only the files holding the app's version: an extension's Info.plist may have changed at other commits.
        let appFiles = current.files.filter { file in floor.sites.contains { $0.path == file.entry.path } }
        let baseline = try AdoptionBaseline.find(files: appFiles, root: workspace.root, repository: repository, head: head)

        // What the next release will be, counting only the commits after the baseline.
        var walk = try workspace.config.releaseRules.commitStream(in: repository).range(from: head, hiding: baseline.commit)
        let after = walk.analysis()
        var nextText = "no releasable commit after it yet"
        var next: ReleaseVersion?
        if after.bump != .none {
            switch scheme {
            case .semver, .majorMinor:
                next = VersionPolicy.next(current: version.numbered, bump: scheme.effective(after.bump), initialVersion: workspace.config.initialVersion,
                                          majorOnZero: workspace.config.majorOnZero).flatMap { scheme.version($0) }
            case .calendar(let calendar):
                next = calendar.next(after: version.calendar, on: ReleaseClock.date(context.environment)).map(ReleaseVersion.calendar)
            }
            nextText = "the next release counts only those: \(next?.description ?? "none") (\(after.bump))"
        }

        let commits = walk.commits.count
        let why = analysis.baseTag.map { "the files were set past \($0) without a release tag" } ?? "no release tag is reachable from HEAD"
        var plan = "relctl adopt\(dryRun ? " --dry-run: nothing will be changed" : "")\n\n"
        plan += "version:  \(text) (every version file holds it; \(why))\n"
        plan += "tag:      \(tag) (annotated) on \(baseline.commit.hex.prefix(12)), the commit that set \(text) in \(baseline.path)\n"
        plan += "          \(CalendarDate(epochSeconds: baseline.summary.time)) \(baseline.summary.subject)\n"
        plan += "after it: \(commits) commit\(commits == 1 ? "" : "s"); \(nextText)\n"
        func printJSON(created: Bool) {
            context.output.result(JSONOutput.object([
                ("schemaVersion", .int(1)), ("version", .string(text)), ("tag", .string(tag)), ("commit", .string(baseline.commit.hex)),
                ("path", .string(baseline.path)), ("commitsAfter", .int(commits)), ("next", .optional(next?.description)),
                ("bump", .string(after.bump.description)), ("created", .bool(created)), ("dryRun", .bool(dryRun)),
            ]).rendered())
        }
        if json { context.output.message(String(plan.dropLast())) } else { context.output.resultText(plan) }

        let identities: Identities?
        do {
            identities = try repository.identities(environment: context.environment)
        } catch {
            throw Problem(error.message)
        }
        let noIdentity = "no identity for the tag: set git config user.name and user.email, or GIT_COMMITTER_NAME/GIT_COMMITTER_EMAIL"
        if dryRun {
            if identities == nil { context.output.warning(noIdentity) }
            if json { printJSON(created: false) }
            context.output.message("dry run: \(tag) would be created; nothing was changed")
            return
        }
        guard let identities else { throw Problem(noIdentity) }
        let message = "\(tag)\n\nBaseline set by relctl adopt: the version files held \(text) when relctl was adopted; releases continue from here.\n"
        // Through the one transaction: journaled, so a run killed while git's tag lock exists is finished by the next.
        var transaction = RepositoryTransaction(.init(kind: .adopt, subject: tag, failed: "cannot create \(tag)",
                                                      restored: "nothing was changed"),
                                                root: workspace.root, head: head, identities: identities)
        transaction.tags = [.init(name: tag, message: message, target: baseline.commit)]
        _ = try transaction.apply(repository: repository, faults: FaultInjection(context.environment))
        if json { printJSON(created: true) }
        context.output.message("created \(tag) on \(baseline.commit.hex.prefix(12)); it is local: the next 'relctl release --push' pushes it with the release (or: git push origin \(tag))")
    }

    /// How to make `text` adoptable under `scheme`.
    static func schemeFix(_ text: String, scheme: VersionScheme, configPath: String) -> String {
        let numbers = VersionOrder.numbers(text) ?? []
        if case .semver = scheme, let year = numbers.first, year >= 2000 && year <= 2200 || (numbers.count >= 2 && (20...99).contains(year) && (1...12).contains(numbers[1])) {
            let yearToken = year >= 2000 ? "YYYY" : "YY"
            let pattern = ([yearToken, "M"] + (numbers.count > 2 ? ["MICRO"] : [])).joined(separator: ".")
            return "if the app numbers versions by date, set \"versionScheme\": \"\(pattern)\" in \(configPath)"
        }
        if case .semver = scheme, numbers.count == 2 {
            return "if the app numbers versions in two parts, set \"versionScheme\": \"\(VersionScheme.majorMinorName)\" in \(configPath), commit it, and run relctl adopt again"
        }
        return "set \"versionScheme\" in \(configPath) to how the app numbers versions, or write a version of the scheme to every file (relctl sync <version>) and commit"
    }
}
