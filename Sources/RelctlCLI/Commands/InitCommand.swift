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

/// `relctl init`: detect the app's version files and write a starter `.relctl.json`.
enum InitCommand {
    static let spec = CommandSpec(
        name: "init",
        summary: "Detect the app's version files and write a starter .relctl.json.",
        options: [.dryRun, .json, .repo],
        discussion: """
        Looks at the repository root for app.json / app.config.json (Expo), app.config.ts/js with literal
        versions, package.json, pubspec.yaml (padBuildNumber when its build number is zero-padded), Xcode projects
        (*.xcodeproj at the root, under ios/, iosApp/ or ios/App/: up to two folders deep), the build.gradle(.kts)
        of every Android app module (android/app, app/ at the root, Kotlin Multiplatform composeApp/ and
        androidApp/, …) with the gradle.properties keys, version catalog entries (gradle/libs.versions.toml) and
        version.properties keys they read. For each app, extension and watch target of a project it follows where
        the version really lives and adds that file: the pbxproj, the .xcconfig the target is based on (through
        #include), or the Info.plist holding a literal. Without a project, ios/*/Info.plist and .xcconfig files with
        literal values are proposed. Files and targets of another product (a separately released Mac app, a
        JavaScript workspace root at 0.0.1) hold another version than the app: they are left out, each with a note.
        buildNumber.shared is true only when the iOS and Android build numbers already agree. A file is added only
        when sync can write every version value in it: literals,
        or references another detected file covers (a Gradle property only when gradle.properties holds that key;
        in a Flutter app pubspec.yaml feeds the Gradle and Xcode files). Files with only references, or with any
        computed value (version: process.env.APP_VERSION, a script variable), are skipped.

        Then git's tracked text files (at most 256 KB each; dependencies, build output, lockfiles and changelogs
        skipped) are read for the app's version: a file of a known format holding it there is added (a key of a
        .properties file such as fdroid.properties or app/version/version.properties, a JSON version key, an
        Info.plist, an .xcconfig); any other (values/version.xml, a Settings bundle's Root.plist, desktop packaging)
        is named with a regex entry to paste into 'files' ("otherPlaces" in --json: path, line, otherLines, entry).
        Expo JS configs reading package.json's version (version: pkg.version, import { version } from
        "./package.json") are kept with package.json; eas.json with cli.appVersionSource "remote" gives the
        buildNumber strategy keep, and a local source with autoIncrement a warning. XcodeGen's project.yml (no
        .xcodeproj committed) becomes a regex entry; a root package.json of JavaScript tooling (dependencies, but
        no react-native, expo or Capacitor) beside a native project is left out. A version.txt or VERSION at the
        root holding the version alone (release-please's simple strategy) becomes a regex entry: beside app files
        of the same version, or alone when they hold a placeholder the build replaces (0.0.0), with a note.

        Writes .relctl.json (tagFormat, files, buildNumber) at the repository root and prints the files found on
        stdout. When the files agree on a version and no release tag is reachable from HEAD (an app already in the
        stores), it offers 'relctl adopt', which tags that version as the last release. An existing .relctl.json is never overwritten: edit it, or delete it and run init again. When no
        version file is found, nothing is written. --json prints {"schemaVersion":1,"config":".relctl.json",
        "tagFormat","sharedBuildNumber","files":[{"path","format","marketing","iosBuild","androidBuild"}]} instead of
        the list (values null when the file holds none); the notes stay on stderr.

        --dry-run prints the same file list, then the .relctl.json init would write, and writes nothing (--json
        adds "dryRun":true, "configExists" and "configText", the file's text). With a .relctl.json already there,
        --dry-run still shows what init detects now, with a note, and exits 0; init itself keeps refusing.

        Several apps, in a JavaScript workspace (pnpm-workspace.yaml, package.json workspaces, lerna.json, nx.json,
        turbo.json), a Dart workspace (melos.yaml, a root pubspec.yaml with workspace:), several Android application
        modules with distinct applicationIds in settings.gradle(.kts), an Xcode project whose application targets
        are for different platforms or versions, or Android flavours with their own versionCode/versionName: init
        writes "projects" (name, path, tagFormat <name>-v{version} unless the tags show another, files, changelog,
        dependsOn), one per app, and names what it left out (the workspace root, tooling packages), one line each.

        branches is written only when origin's default branch (refs/remotes/origin/HEAD) is neither main nor
        master (develop, dev): releases are made from it.

        EXIT CODES: 0 config written (or shown, with --dry-run), 1 failure (config exists, no version file found),
        64 usage error.
        """,
        run: run)

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        let repository = try openRepository(arguments, context)
        let root = repository.root
        let configPath = root + "/" + Config.fileName
        let dryRun = arguments.has("--dry-run")
        let configExists = FileManager.default.fileExists(atPath: configPath)
        if configExists && !dryRun {
            throw Problem("\(Config.fileName) already exists in \(root); relctl init never overwrites it (edit it, or delete it and run relctl init again; relctl init --dry-run shows what it would write)")
        }
        let tracked = (try? repository.git.indexedFiles())?.map { (path: $0.path, size: $0.size) }
        let detected = ProjectDetection.run(root: root, tagNames: repository.tagNames)
        if let detected, detected.projects.count > 1 {
            return try runProjects(detected, arguments, context, repository: repository, configPath: configPath, configExists: configExists)
        }
        var found = VersionFileDetection.run(root: root, tracked: tracked)
        if let detected, detected.projects.count == 1, detected.workspaceRootIsNoApp,
           found.entries.allSatisfy({ $0.path == "package.json" }) {
            // One app inside a workspace that single-app detection does not reach (it finds nothing, or only the
            // workspace root's package.json): the repository is that app, so the single-app config names its
            // files, and every commit counts for it (the workspace's packages are part of the app it ships).
            let app = detected.projects[0]
            found.entries = app.entries
            found.eas = nil
            found.otherPlaces = []
            found.notes = ["one app in the workspace (\(detected.source)): \(app.path) (\(app.kind)); every commit of the repository counts for it, the workspace's packages included (with several apps, 'projects' gives each its own version)"]
        }
        if let detected, detected.projects.isEmpty, detected.workspaceRootIsNoApp,
           found.entries.allSatisfy({ $0.path == "package.json" }) {
            for line in detected.leftOut { context.output.note("left out " + line) }
            throw Problem("no app found in the workspace (\(detected.source)) of \(root): none of its packages is an app (an app.json/app.config, an android/app module, an ios/*.xcodeproj, a Flutter app), and the workspace root's package.json is not an app; nothing was written (add 'projects' to \(Config.fileName) by hand, see README)")
        }
        let (entries, notes) = (found.entries, found.notes)
        guard !entries.isEmpty else {
            for note in notes { context.output.note(note) }
            throw Problem("no version files found in \(root) (looked for app.json, app.config.*, package.json, pubspec.yaml, ios/*.xcodeproj, ios/*/Info.plist, */build.gradle(.kts) of an Android app module, gradle.properties, gradle/libs.versions.toml, version.properties, *.xcconfig); nothing was written, add 'files' entries to \(Config.fileName) by hand")
        }
        // Read through the texts detection read: each file is opened once.
        let current = found.currentVersions()
        // EAS keeps the build numbers (strategy keep): there is no counter to share.
        let shared = found.eas?.remote == true ? (shared: true, reason: nil) : sharedBuildCounter(current)
        let scheme = SchemeGuess.guess(tagNames: repository.tagNames, current: current)
        let tagFormat = scheme.tagFormat ?? guessTagFormat(tagNames: repository.tagNames)
        let branches = releaseBranches(repository.git)
        let derived = found.eas == nil ? derivedBuildNumbers(singleApp(current)) : nil
        let strategy = found.eas?.strategy ?? (derived == nil ? "increment" : "fromVersion")
        let text = scheme.adding(to: configText(entries, sharedBuildNumber: shared.shared, tagFormat: tagFormat.pattern,
                                                branches: branches.names, buildStrategy: strategy, digits: derived?.digits))
        if !dryRun { try writeConfig(text, to: configPath) }

        var rows: [JSONOutput] = []
        for entry in entries {
            let file = current?.files.first(where: { $0.entry == entry })
            rows.append(.object([
                ("path", .string(entry.path)), ("format", .string(entry.format.rawValue)),
                ("marketing", .optional(file?.marketing)),
                ("iosBuild", .optional(file?.value(.build) ?? file?.iosBuild)),
                ("androidBuild", .optional(file?.value(.build) ?? file?.androidBuild)),
            ]))
            if arguments.has("--json") { continue }
            let line = fileLine(entry, entries: entries, current: current)
            context.output.result(line.trimmingTrailingSpaces())
        }
        if arguments.has("--json") {
            var members: [(String, JSONOutput)] = [
                ("schemaVersion", .int(1)), ("config", .string(Config.fileName)), ("tagFormat", .string(tagFormat.pattern)),
                ("sharedBuildNumber", .bool(shared.shared)), ("files", .array(rows)),
            ]
            if !found.otherPlaces.isEmpty {
                members.append(("otherPlaces", .array(found.otherPlaces.map { place in
                    .object([("path", .string(place.path)), ("line", .int(place.line)),
                             ("otherLines", .array(place.otherLines.map { .int($0) })), ("entry", .optional(place.suggestion))])
                })))
            }
            if dryRun {
                members += [("dryRun", .bool(true)), ("configExists", .bool(configExists)), ("configText", .string(text))]
            }
            context.output.result(JSONOutput.object(members).rendered())
        }
        if let note = branches.note { context.output.note(note) }
        printOtherPlaces(found, context: context)
        if let note = found.eas?.note { context.output.note(note) }
        if let warning = found.eas?.warning { context.output.warning(warning) }
        if dryRun {
            var warnings: [String] = []
            if let drift = current?.applicationDrift, !drift.isEmpty {
                warnings.append("the files disagree (\(drift.map { VersionFileText.fieldName($0.field) }.joined(separator: ", "))); 'relctl current' shows where once the config is written, 'relctl sync <version>' aligns them")
            }
            printDryRun(text, context: context, json: arguments.has("--json"), configExists: configExists,
                        notes: notes + [scheme.note, tagFormat.note, derived?.note ?? shared.reason, extensionNote(current)].compactMap { $0 },
                        warnings: warnings)
            return
        }
        for note in notes { context.output.note(note) }
        if let note = scheme.note { context.output.note(note) }
        if let note = tagFormat.note { context.output.note(note) }
        context.output.message("wrote \(Config.fileName) with \(entries.count) version file\(entries.count == 1 ? "" : "s") and buildNumber strategy \(strategy); check it, then run 'relctl current'")
        if let note = derived?.note ?? shared.reason { context.output.note(note) }
        if let drift = current?.applicationDrift, !drift.isEmpty {
            context.output.warning("the files disagree (\(drift.map { VersionFileText.fieldName($0.field) }.joined(separator: ", "))); 'relctl current' shows where, 'relctl sync <version>' aligns them")
        } else if let note = extensionNote(current) { context.output.note(note) }
        let adopt = offerAdoption(arguments, context, current: current, tagNames: repository.tagNames)
        context.output.message(nextSteps(adopt: adopt))
    }

    /// One found file as init lists it: path, format and the values it holds.
    static func fileLine(_ entry: FileEntry, entries: [FileEntry], current: CurrentVersions?) -> String {
        var line = CurrentCommand.pad(entry.path, 44) + " " + CurrentCommand.pad(entry.format.rawValue, 10)
        if let file = current?.files.first(where: { $0.entry == entry }) {
            var values: [String] = []
            if let v = file.marketing { values.append("version \(v)") }
            if let v = file.iosBuild, file.value(.build) == nil { values.append("iOS build \(v)") }
            if let v = file.androidBuild, file.value(.build) == nil { values.append("Android build \(v)") }
            if let v = file.value(.build) { values.append("build \(v)") }
            if file.marketing == nil, let location = file.locations.first(where: { $0.field == .marketing }),
               case .packageJSON(let path)? = location.indirection {
                values.insert("version from \(path)", at: 0)
            }
            // Values that live in another detected file (a Gradle property, a version catalog entry).
            let elsewhere = entries.filter { other in
                other != entry && file.locations.contains { $0.indirection.map { other.covers($0, inFileAt: entry.path) } ?? false }
            }
            if !elsewhere.isEmpty && entry.format == .gradle {
                values.append("values in " + elsewhere.map(\.path).joined(separator: ", "))
            }
            line += " " + values.joined(separator: ", ")
        }
        return line.trimmingTrailingSpaces()
    }

    /// What to do after init, in order: commit the config (a release refuses an uncommitted one), adopt the
    /// version already in the stores when there is one, then look before releasing.
    static func nextSteps(adopt: Bool) -> String {
        var steps = ["commit it: git add \(Config.fileName) && git commit -m \"chore: add relctl config\""]
        if adopt { steps.append("relctl adopt (tags the version the files hold as the last release, so the next one follows it)") }
        steps += ["relctl status (what is released, what comes next)", "relctl release --dry-run (the release, changing nothing)"]
        return "next steps:\n" + steps.enumerated().map { "  \($0.offset + 1). \($0.element)" }.joined(separator: "\n")
    }

    /// The other tracked files holding the app's version in no format relctl edits: each named, with the regex entry
    /// to paste into `files` when sync should write it too.
    static func printOtherPlaces(_ found: VersionFileDetection.Found, context: CommandContext) {
        guard !found.otherPlaces.isEmpty, let version = found.appVersion else { return }
        context.output.note("\(found.otherPlaces.count == 1 ? "another file holds" : "other files hold") \(version) and \(found.otherPlaces.count == 1 ? "is" : "are") not in 'files'; if sync should write \(found.otherPlaces.count == 1 ? "it" : "them"), add the entry shown to 'files' in \(Config.fileName):")
        for place in found.otherPlaces {
            var line = "  \(place.path):\(place.line)  " + (place.suggestion ?? "(no pattern matches this line alone: write a regex entry for it by hand)")
            if !place.otherLines.isEmpty {
                let one = place.otherLines.count == 1
                line += " (line\(one ? "" : "s") \(place.otherLines.map(String.init).joined(separator: ", ")) hold\(one ? "s" : "") it too; this entry leaves \(one ? "it as it is" : "them as they are"))"
            }
            context.output.message(line)
        }
    }

    /// When the application target agrees with the other files and only extensions (or values no target reads)
    /// differ: what `current` will show, without calling it a disagreement of the app's files.
    static func extensionNote(_ current: CurrentVersions?) -> String? {
        guard let current, current.applicationDrift.isEmpty, !current.drift.isEmpty else { return nil }
        let fields = current.drift.map { VersionFileText.fieldName($0.field) }.joined(separator: ", ")
        return "the app's files agree; extension targets (or values no target reads) differ (\(fields)): 'relctl current' shows them as drift, and 'relctl sync <version>' or the next release aligns them with the app"
    }

    /// `--dry-run`: the config init would write, after the file list, and nothing written. With a `.relctl.json`
    /// already there it still shows what init detects, with a note (the real init refuses).
    static func printDryRun(_ text: String, context: CommandContext, json: Bool, configExists: Bool, notes: [String], warnings: [String]) {
        if !json {
            context.output.resultText("\n" + text)
        }
        for note in notes { context.output.note(note) }
        for warning in warnings { context.output.warning(warning) }
        if configExists {
            context.output.note("\(Config.fileName) already exists and was left as it is: this is what relctl init detects now; relctl init (without --dry-run) refuses to overwrite it")
        }
        context.output.message("dry run: \(Config.fileName) was not written; run relctl init to write it")
    }

    /// Creates `path` with `text`; never overwrites, even if the file appeared since the check in `run`.
    static func writeConfig(_ text: String, to configPath: String) throws {
        let fd = open(configPath, O_WRONLY | O_CREAT | O_EXCL, 0o644)
        guard fd >= 0 else {
            throw Problem("cannot create \(configPath): \(String(cString: strerror(errno)))")
        }
        let bytes = Array(text.utf8)
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        guard written == bytes.count else {
            unlink(configPath)
            throw Problem("cannot write \(configPath); nothing was written")
        }
    }

    /// `branches` for the starter config: nil (the default, main and master) unless the remote's default branch,
    /// as `refs/remotes/origin/HEAD` records it, is another one (`develop`, `dev`), which releases are then made from.
    static func releaseBranches(_ repository: Repository) -> (names: [String]?, note: String?) {
        guard let branch = try? repository.remoteDefaultBranch(), !Config().branches.contains(branch) else { return (nil, nil) }
        return ([branch], "branches is [\"\(branch)\"]: origin's default branch (refs/remotes/origin/HEAD) is \(branch); add the other branches you release from")
    }

    /// An app already in the stores has a version but no release tag yet: offer `relctl adopt`, so the first
    /// release follows the version the files hold instead of starting again at initialVersion.
    @discardableResult
    static func offerAdoption(_ arguments: ParsedArguments, _ context: CommandContext, current: CurrentVersions?,
                              tagNames: [String]) -> Bool {
        guard var workspace = try? Workspace.open(RepositoryLocation(arguments), context), let current, !workspace.config.files.isEmpty,
              case let floor = VersionFloor(current),
              let held = floor.held, floor.agreed, VersionParts(held.value).prerelease == nil else { return false }
        workspace.tagListing = TagListing(names: tagNames)
        guard let analysis = try? workspace.analyze(), analysis.baseTag == nil else { return false }
        context.output.message("the files hold \(held.value) and no release tag is reachable from HEAD: if \(held.value) is in the stores, run 'relctl adopt' to tag it as the last release (relctl adopt --dry-run shows the commit), so the next release follows it")
        return true
    }

    /// The repository init reads, opened once: its work tree root and its tag names, listed once for every guess
    /// (projects, scheme, tagFormat, the adoption offer).
    struct OpenedRepository {
        let git: Repository
        let root: String
        let tagNames: [String]
    }

    /// The repository above `--repo` (or the current folder), without reading any config.
    static func openRepository(_ arguments: ParsedArguments, _ context: CommandContext) throws -> OpenedRepository {
        let given = arguments.value("--repo")
        let start = given.map { $0.hasPrefix("/") ? $0 : context.currentDirectory + "/" + $0 } ?? context.currentDirectory
        guard FileManager.default.fileExists(atPath: start) else {
            throw Problem("'\(given ?? start)' does not exist; pass --repo the path of a git repository")
        }
        let opened = Result { () throws(GitError) -> Repository in try Repository(discoveringFrom: start) }
        if case .failure(let error) = opened, error.kind == .notARepository {
            throw Problem("'\(given ?? start)' is not inside a git repository; run relctl init in the app's repository or pass --repo PATH")
        }
        let repository = try opened.get()
        guard let root = repository.workdir else {
            throw Problem("'\(start)' is a bare repository; relctl needs a work tree (clone it first)")
        }
        return OpenedRepository(git: repository, root: root, tagNames: (try? repository.tagNames()) ?? [])
    }

    /// The starter config: pretty JSON, 2-space indent, a trailing newline.
    /// The tagFormat the repository's release tags follow when it is not the default (`{version}` for tags such as
    /// `2.1.3`), with a note; the default, with a note naming the formats, when several tie.
    static func guessTagFormat(tagNames names: [String]) -> (pattern: String, note: String?) {
        let standard = Config().tagFormat
        guard let format = try? TagFormat(standard) else { return (standard, nil) }
        let highest = names.compactMap { format.version(fromTag: $0, scheme: .semver) }.filter(\.isStable).max { $0 < $1 }
        let others = OtherTagFormats.find(tagNames: names, tagFormat: standard, scheme: .semver, base: highest)
        guard let first = others.guesses.first else { return (standard, nil) }
        if others.guesses.count > 1 {
            return (standard, "kept tagFormat \"\(standard)\": " + (others.fix(configPath: Config.fileName) ?? ""))
        }
        return (first.pattern, "tagFormat \"\(first.pattern)\" follows the release tags \(BaseCheck.tagList(first.tags))")
    }

    static func configText(_ entries: [FileEntry], sharedBuildNumber: Bool = true, tagFormat: String = Config().tagFormat,
                           branches: [String]? = nil, buildStrategy: String = "increment", digits: [Int]? = nil) -> String {
        var members: [(String, JSONOutput)] = [("tagFormat", .string(tagFormat))]
        if let branches { members.append(("branches", .array(branches.map { .string($0) }))) }
        members += [
            ("files", .array(entries.map(entryJSON))),
            // `shared` applies only to increment.
            ("buildNumber", buildNumberJSON(strategy: buildStrategy, shared: sharedBuildNumber, digits: digits)),
        ]
        return JSONOutput.object(members).prettyRendered()
    }

    /// One counter for both stores only when the files' iOS and Android build numbers already agree: a shared
    /// counter moves both to the highest + 1, and an Android versionCode of 12 must not jump to an iOS build such
    /// as 1703280000 (irreversible once uploaded). Without one of the platforms there is nothing to share.
    static func sharedBuildCounter(_ current: CurrentVersions?) -> (shared: Bool, reason: String?) {
        guard let current, let ios = current.highestIOSBuild, let android = current.highestAndroidBuild else { return (true, nil) }
        if ios == android || (Int(ios) != nil && Int(ios) == Int(android)) { return (true, nil) }
        return (false, "buildNumber.shared is false: the iOS build (\(ios)) and the Android versionCode (\(android)) differ, so each store keeps its own counter; set it to true once they agree if you want one counter")
    }

    static func entryJSON(_ entry: FileEntry) -> JSONOutput {
        var members: [(String, JSONOutput)] = [("path", .string(entry.path)), ("format", .string(entry.format.rawValue))]
        let o = entry.options
        if let keyPath = o.keyPath {
            members.append(("keyPath", keyPath.contains { $0.contains(".") } ? .array(keyPath.map { .string($0) })
                                                                            : .string(keyPath.joined(separator: "."))))
        }
        if let field = o.field { members.append(("field", .string(field.rawValue))) }
        if let targets = o.targets { members.append(("targets", .array(targets.map { .string($0) }))) }
        if let pattern = o.pattern { members.append(("pattern", .string(pattern))) }
        if let key = o.versionNameKey { members.append(("versionNameKey", .string(key))) }
        if let key = o.versionCodeKey { members.append(("versionCodeKey", .string(key))) }
        if o.padBuildNumber { members.append(("padBuildNumber", .bool(true))) }
        if let only = o.only { members.append(("only", .string(only.rawValue))) }
        if let flavor = o.flavor { members.append(("flavor", .string(flavor))) }
        return .object(members)
    }
}

private extension String {
    func trimmingTrailingSpaces() -> String {
        var s = Substring(self)
        while s.last == " " { s = s.dropLast() }
        return String(s)
    }
}
