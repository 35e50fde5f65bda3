import RelctlCore
import RelctlFiles
import RelctlGit

/// `relctl sync <version>`: write one version (and the next build numbers) to every configured file.
enum SyncCommand {
    static let spec = CommandSpec(
        name: "sync",
        summary: "Write a version and the next build numbers to every version file, all or nothing.",
        options: [.value("--build", "N", "Use build number N for iOS and Android instead of the buildNumber strategy."),
                  .dryRun, .json, .repo, .config],
        positionals: [PositionalSpec(name: "version", optional: false, help: "The semantic version to write, e.g. 1.3.0 or 1.3.0-beta.1.")],
        discussion: """
        Every entry of 'files' in .relctl.json gets <version>. iOS files (expo, expo-js, pbxproj, plist, xcconfig,
        pubspec) get the store-safe version: App Store Connect accepts only MAJOR.MINOR.PATCH, so 1.3.0-beta.1 is
        written as 1.3.0 there and the prerelease is told apart by its higher build number; Android versionName
        and package.json keep the full version (a regex entry too, unless its pattern admits only X.Y.Z: then it gets
        the core). A project.pbxproj entry checks every target: a version living in an .xcconfig or an Info.plist is
        written by that file's entry, and the sync stops naming the file when no entry covers it. Build numbers come from 'buildNumber' (increment by default: the
        highest current build + 1, one counter for both stores) or from --build, and are written only where a file
        already has one. With increment, a sync that changes no version keeps the build numbers, so running the
        same sync twice changes nothing. Where every file keeps only the core (pubspec only; Xcode files only; an
        Expo app.json without package.json) each sync of a prerelease moves the build numbers, since the stores
        tell betas apart by build number only; the final version after its betas moves them too (known from the
        record of the last sync in .git/relctl-last-sync, or from a prerelease tag of that version).

        Before anything is written every file is read, edited in memory and checked against the store rules
        (iOS build: up to three integers; Android versionCode: a positive integer up to 2100000000; both greater
        than before). Any problem stops the sync with 'error: path:line: …' and leaves every file as it was; the
        files are then replaced all or nothing, keeping their formatting, comments and line endings.

        --dry-run prints a unified diff per changed file on stdout and writes nothing. Text output lists each
        updated file on stderr. --json prints {"schemaVersion":1,"version","iosBuild","androidBuild","dryRun",
        "files":[{"path","changed"}]}.

        EXIT CODES: 0 synced (or nothing to change), 1 failure (nothing was written), 64 usage error.
        """,
        run: run)

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws -> Int32 {
        let version = try parseVersion(arguments.positionals[0])
        let build = try arguments.value("--build").map(parseBuild)
        let workspace = try Workspace.open(arguments, context)
        let sync = try workspace.planVersionSync(version: version, build: build, environment: context.environment)
        let dryRun = arguments.has("--dry-run")
        let output = context.output
        let changed = sync.changed

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

        if !dryRun, let written = try? workspace.readVersions() {
            SyncRecord(version: version, fingerprint: SyncRecord.fingerprint(written)).write(gitDir: workspace.repository.gitDir)
        }

        if let lower = downgrade(to: version, from: sync.current) {
            output.warning("\(version) is lower than \(lower.value) in \(lower.path):\(lower.line); \(dryRun ? "it would be" : "it was") written anyway")
        }
        let verb = dryRun ? "would update" : "updated"
        for change in changed {
            output.message("\(verb) \(change.path): \(VersionFileText.changes(change))")
        }
        if let note = sync.note { output.note(note) }
        var builds: [String] = []
        if let ios = sync.iosBuild { builds.append("iOS build \(ios)") }
        if let android = sync.androidBuild { builds.append("Android build \(android)") }
        let what = ([version] + builds).joined(separator: ", ")
        let total = sync.plan.changes.count
        if changed.isEmpty {
            output.message("all \(total) file\(total == 1 ? "" : "s") already hold \(what); nothing to write")
        } else if dryRun {
            output.message("dry run: \(changed.count) of \(total) files would change to \(what); nothing was written")
        } else {
            output.message("synced \(what): \(changed.count) of \(total) files updated")
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
        return ExitCode.success
    }

    /// The first file holding a higher version than `version` (iOS files compared with its store-safe core).
    static func downgrade(to version: String, from current: CurrentVersions) -> (path: String, line: Int, value: String)? {
        guard let new = SemanticVersion(version) else { return nil }
        for file in current.files {
            for location in file.locations where location.field == .marketing && location.indirection == nil {
                guard let old = SemanticVersion(location.value) else { continue }
                let compared = !file.keepsPrerelease
                    ? SemanticVersion(major: new.major, minor: new.minor, patch: new.patch) : new
                if old > compared { return (file.entry.path, location.line, location.value) }
            }
        }
        return nil
    }

    /// A strict SemVer 2.0.0 version, as given (so `1.3.0-beta.1` stays as typed).
    static func parseVersion(_ text: String) throws -> String {
        if text.hasPrefix("v") || text.hasPrefix("V"), SemanticVersion(String(text.dropFirst())) != nil {
            throw CLIFailure(message: "'\(text)' is a tag name, not a version; drop the leading 'v': relctl sync \(text.dropFirst())")
        }
        do {
            _ = try SemanticVersion.parse(text)
        } catch {
            throw CLIFailure(message: "'\(text)' is not a semantic version (\(error.reason)); pass MAJOR.MINOR.PATCH such as 1.3.0, or a prerelease such as 1.3.0-beta.1")
        }
        return text
    }

    /// `--build N`: a positive whole number (the store rules are checked per file later).
    static func parseBuild(_ text: String) throws -> String {
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let n = Int(text), n > 0 else {
            throw CLIFailure(message: "--build '\(text)' is not a positive whole number; pass a build number such as 42")
        }
        return String(n)
    }
}
