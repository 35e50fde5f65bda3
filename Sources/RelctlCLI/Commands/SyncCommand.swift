import RelctlCore
import RelctlFiles
import RelctlGit

/// `relctl sync <version>`: write one version (and the next build numbers) to every configured file.
enum SyncCommand {
    static let spec = CommandSpec(
        name: "sync",
        summary: "Write a version and the next build numbers to every version file, all or nothing.",
        options: [.value("--build", "N", "Use build number N for iOS and Android instead of the buildNumber strategy."),
                  .flag("--allow-downgrade", "Write a version lower than the files hold (to undo a mistaken sync)."),
                  .dryRun, .offline, .json, .repo, .config] + OptionSpec.projects,
        positionals: [PositionalSpec(name: "version", optional: false, help: "The version to write, e.g. 1.3.0 or 1.3.0-beta.1 (in versionScheme, e.g. 2024.12.1).")],
        discussion: """
        Every entry of 'files' in .relctl.json gets <version>. iOS files (expo, expo-js, pbxproj, plist, xcconfig,
        pubspec) get the store-safe version: App Store Connect accepts only MAJOR.MINOR.PATCH, so 1.3.0-beta.1 is
        written as 1.3.0 there and the prerelease is told apart by its higher build number; Android versionName
        and package.json keep the full version (a regex entry too, unless its pattern admits only X.Y.Z: then it gets
        the core). A project.pbxproj entry checks every target: a version living in an .xcconfig or an Info.plist is
        written by that file's entry, and the sync stops naming the file when no entry covers it. Build numbers come from 'buildNumber' (increment by default: the
        highest current build + 1, one counter for both stores, and above the highest any release tag holds, as in
        release) or from --build, and are written only where a file already has one. With increment, a sync that
        changes no version keeps the build numbers, so running the
        same sync twice changes nothing. Where every file keeps only the core (pubspec only; Xcode files only; an
        Expo app.json without package.json) each sync of a prerelease moves the build numbers, since the stores
        tell betas apart by build number only; the final version after its betas moves them too (known from the
        record of the last sync in .git/relctl-last-sync, or from a prerelease tag of that version).

        Before anything is written every file is read, edited in memory and checked against the store rules
        (iOS build: up to three integers; Android versionCode: a positive integer up to 2100000000; both greater
        than before). Any problem stops the sync with 'error: path:line: …' and leaves every file as it was; the
        files are then replaced all or nothing, keeping their formatting, comments and line endings.

        Never backwards: a version lower than a file holds is refused (the stores refuse a version below the last
        one they approved; iOS files are compared by the core, so 1.3.0 after 1.3.0-beta.2 is not lower), unless
        --allow-downgrade says it is meant (undoing a mistaken sync). Build numbers never go down either.

        --dry-run prints a unified diff per changed file on stdout and writes nothing. Text output lists each
        updated file on stderr. --json prints {"schemaVersion":1,"version","iosBuild","androidBuild","dryRun",
        "files":[{"path","changed"}]}.

        A real sync takes the repository lock (.git/relctl.lock) before it reads anything; while another relctl
        command holds it, the sync stops and writes nothing. --dry-run takes no lock.

        EXIT CODES: 0 synced (or nothing to change), 1 failure (nothing was written), 64 usage error.
        """,
        run: run)

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        let context = context.offline(arguments)
        let build = try arguments.value("--build").map(parseBuild)
        // A real sync holds the repository lock from before it reads anything to its end, so no release, sync or
        // gate decision writes the files between its reading and its writing; a dry run takes none.
        let opened = try Workspace.open(RepositoryLocation(arguments), context, locked: !arguments.has("--dry-run"), command: "sync", config: .required)
        defer { opened.lock?.release() }
        let selection = try ProjectSelection.select(arguments, context, workspace: opened, usage: spec.usage, atRoot: .ask)
        try selection.each(context, json: arguments.has("--json")) { workspace, context in
            try sync(workspace, build: build, arguments, context)
        }
    }

    /// One project's sync (or the one app's).
    static func sync(_ workspace: Workspace, build: String?, _ arguments: ParsedArguments, _ context: CommandContext) throws {
        if !arguments.has("--dry-run"), let interrupted = try InterruptedRelease.find(gitDir: workspace.repository.gitDir, holdingLock: true) {
            // The files hold half a release: writing over them would leave it neither finished nor undoable.
            throw Problem("release \(interrupted.journal.version) \(interrupted.running ? "is being made" : "was interrupted") (\(ReleaseJournal.path(gitDir: workspace.repository.gitDir))); \(interrupted.advice) before syncing; nothing was written")
        }
        let version = try parseVersion(arguments.positionals[0], scheme: workspace.config.versionScheme)
        // The one plan `release` makes too: build numbers are one space for every branch (Play never takes a
        // versionCode back, whichever track had it), so increment counts from the highest any release tag holds, and a
        // versionCode from --build, fromVersion or env at or below a release tag's is said (release refuses it).
        let sync = try VersionFilePlan.make(workspace, version: version, build: build, environment: context.environment)
        let counts = sync.counts
        let dryRun = arguments.has("--dry-run")
        let output = context.output
        let changed = sync.changed
        if let (_, site) = VersionFloor(sync.current).problem(writing: version, refuseEqual: false, lastSyncedTo: { _ in false }) {
            guard arguments.has("--allow-downgrade") else {
                throw Problem("\(site.path):\(site.line): \(version) is lower than \(site.value), the version this file holds, and the stores refuse a version below the last one; nothing was written (pass --allow-downgrade to write it anyway, e.g. to undo a mistaken sync)")
            }
            output.warning("\(version) is lower than \(site.value) in \(site.path):\(site.line); \(dryRun ? "it would be" : "it was") written anyway (--allow-downgrade)")
        }

        if dryRun {
            if !arguments.has("--json") {
                for change in changed {
                    output.resultText(UnifiedDiff.render(old: change.oldText, new: change.newText, path: change.path))
                }
            }
        } else if !changed.isEmpty {
            do {
                try sync.plan.write()
            } catch {
                throw error.failure(root: workspace.root)
            }
        }

        // What the files hold now, parsed from the texts just written (the disk is not read again).
        if !dryRun, let written = try? sync.current.afterWriting(sync.plan) {
            SyncRecord(version: version, fingerprint: SyncRecord.fingerprint(written)).write(gitDir: workspace.repository.gitDir)
        }

        let verb = dryRun ? "would update" : "updated"
        for change in changed {
            output.message("\(verb) \(change.path): \(VersionFileText.changes(change))")
        }
        if let note = sync.note { output.note(note) }
        if let warning = StoreBuildNumbers.offlineWarning(workspace.config, environment: context.environment), counts {
            output.warning(warning)
        }
        for line in sync.buildSources { output.note(line) }
        if sync.iosBuild != nil || sync.androidBuild != nil, let note = sync.releasedNote {
            output.note(note)
        }
        if !changed.isEmpty, let problem = sync.versionCodeProblem {
            output.warning("\(problem); \(dryRun ? "it would be" : "it was") written anyway (relctl release refuses it)")
        }
        var builds: [String] = []
        if let ios = sync.iosBuild { builds.append("iOS build \(ios)") }
        if let android = sync.androidBuild { builds.append("Android build \(android)") }
        // Files that wrote another marketing value than the version (a store-safe core, a four-part value) are named
        // with it: a summary never names a value that was not written.
        var otherValues: [String] = []
        for change in changed {
            for value in VersionFileText.writtenMarketingValues(change) where value != version {
                let site = "\(value) in \(change.path)"
                if !otherValues.contains(site) { otherValues.append(site) }
            }
        }
        let what = ([version + (otherValues.isEmpty ? "" : " (" + otherValues.joined(separator: ", ") + ")")] + builds).joined(separator: ", ")
        let total = sync.plan.changes.count
        if changed.isEmpty {
            output.message("\(total == 1 ? "the 1 file already holds" : "all \(total) files already hold") \(what); nothing to write")
        } else if dryRun {
            output.message("dry run: \(changed.count) of \(total) \(total == 1 ? "file" : "files") would change to \(what); nothing was written")
        } else {
            output.message("synced \(what): \(changed.count) of \(total) \(total == 1 ? "file" : "files") updated")
        }

        if arguments.has("--json") {
            output.result(JSONOutput.object([
                ("schemaVersion", .int(1)),
                ("version", .string(version)),
                ("iosBuild", .optional(sync.iosBuild)),
                ("androidBuild", .optional(sync.androidBuild)),
                ("dryRun", .bool(dryRun)),
                ("files", .array(sync.plan.changes.map {
                    .object([("path", .string($0.path)), ("changed", .bool($0.isChanged))])
                })),
            ]).rendered())
        }
        return
    }

    /// A version of the configured scheme, as given (so `1.3.0-beta.1` stays as typed): strict SemVer 2.0.0, or
    /// the calendar scheme's form.
    static func parseVersion(_ text: String, scheme: VersionScheme = .semver) throws -> String {
        let bare = text.hasPrefix("v") || text.hasPrefix("V") ? String(text.dropFirst()) : nil
        if let bare, scheme.parse(bare) != nil {
            throw Problem("'\(text)' is a tag name, not a version; drop the leading 'v': relctl sync \(bare)")
        }
        switch scheme {
        case .semver:
            if let reason = SemanticVersion.reason(notVersion: text) {
                throw Problem("'\(text)' is not a semantic version (\(reason)); pass MAJOR.MINOR.PATCH such as 1.3.0, or a prerelease such as 1.3.0-beta.1")
            }
        case .majorMinor:
            guard TwoPartVersion(text) != nil else {
                throw Problem("'\(text)' is not a version of versionScheme \"\(scheme)\"; pass MAJOR.MINOR such as \(scheme.sample), or a prerelease such as \(scheme.sample)-rc.1")
            }
        case .calendar(let calendar):
            guard calendar.parse(text) != nil else {
                throw Problem("'\(text)' is not a version of versionScheme \"\(calendar.pattern)\"; pass one such as \(scheme.sample)")
            }
        }
        return text
    }

    /// `--build N`: a whole number, or (for iOS-only apps) one to three dot-separated ones such as 1.7.1 (the store
    /// rules are checked per file later: Android takes only a positive whole number, iOS takes 0 for a version's
    /// first build under buildNumber strategy perVersion).
    static func parseBuild(_ text: String) throws -> String {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count), parts.allSatisfy({ !$0.isEmpty && $0.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } }),
              let numbers = Optional(parts.compactMap { Int($0) }), numbers.count == parts.count else {
            throw Problem("--build '\(text)' is not a positive whole number; pass a build number such as 42 (or, for iOS only, up to three parts such as 1.7.1)")
        }
        return numbers.map(String.init).joined(separator: ".")
    }
}
