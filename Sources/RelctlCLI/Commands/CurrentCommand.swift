import RelctlCore
import RelctlFiles

/// `relctl current`: the version and build numbers in every configured file, and whether they agree.
enum CurrentCommand {
    static let spec = CommandSpec(
        name: "current",
        summary: "Show the version and build numbers in every version file listed in .relctl.json.",
        options: [.repo, .config, .json] + OptionSpec.projects,
        discussion: """
        For each entry of 'files' prints the marketing version, the iOS build number and the Android build
        number with the line they are on. A value that only refers to another place ($(MARKETING_VERSION) in an
        Info.plist, $(FLUTTER_BUILD_NAME) in a Flutter project, a Gradle property, a version catalog entry) is
        shown as written with where the real value lives; a literal fallback (System.getenv("BUILD") ?: 12) with
        what overrides it. Nothing is written.

        Drift: files that disagree about the marketing version (compared without the prerelease on iOS files,
        which carry 1.3.0 for 1.3.0-beta.1), the iOS build or the Android build. Each drift is reported on stderr
        and the exit code is 2; 'relctl sync <version>' writes one version everywhere.

        For a project.pbxproj, each app, extension and watch target is shown with where its version really lives:
        its own build settings, the project's, the .xcconfig its configuration is based on (through #include), a
        literal in its Info.plist (which wins), or pubspec.yaml for $(FLUTTER_BUILD_NAME). A target holding another
        version than the others (an extension left at 1.0) is drift, whether or not its file is in 'files'.

        --json prints {"schemaVersion":1,"files":[{"path","format","marketing","iosBuild","androidBuild"}],
        "drift":[{"field","values":[{"path","line","value"}]}]}, each value {"value","line","indirection"} or null;
        a pbxproj file also has "targets":[{"name","productType","configuration","marketing","iosBuild"}], one per
        target (its default configuration), each value {"value","path","line","setting","indirection"}.

        A listed file in which no version value is found is an error (exit 1): the entry points at the wrong place.

        EXIT CODES: 0 all files agree, 1 failure (no files configured, a file missing or unreadable, a file
        holding no version value),
        2 version drift, 64 usage error.
        """,
        run: run)

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        let opened = try Workspace.open(RepositoryLocation(arguments), context, config: .required)
        let selection = try ProjectSelection.select(arguments, context, workspace: opened, usage: spec.usage, atRoot: .every)
        // Each project's files are compared among themselves only: two apps' build numbers are never drift.
        var all: [(Workspace, CurrentVersions)] = []
        for workspace in selection.workspaces {
            if selection.workspaces.count > 1, workspace.config.files.isEmpty, let project = workspace.project {
                // A package with no version file of its own (a shared library tagged by its changelog alone).
                context.output.note("\(project.name) (\(project.displayPath)) lists no version files")
                continue
            }
            all.append((workspace, try workspace.readVersions()))
        }
        if arguments.has("--json") {
            let objects = all.map { json($0.1).withProject($0.0.project?.name) }
            context.output.result((selection.hasProjects ? JSONOutput.array(objects) : objects[0]).rendered())
        } else {
            context.output.resultText(all.map { workspace, current in
                workspace.project.map { "project \($0.name) (\($0.displayPath))\n" } .map { $0 + text(current) } ?? text(current)
            }.joined(separator: selection.hasProjects ? "\n" : ""))
        }
        let several = selection.workspaces.count > 1
        var drifted = false
        for (workspace, current) in all {
            let label = several ? "\(workspace.project?.name ?? ""): " : ""
            for drift in current.drift {
                context.output.error(label + "version drift: \(drift.description)")
            }
            drifted = drifted || !current.drift.isEmpty
        }
        if drifted {
            context.output.note("run 'relctl sync <version>\(several ? " --project NAME" : "")' to write one version and build number to every file\(several ? " of that project" : "")")
            throw ExitCode.drift
        }
        // A listed file in which nothing was found is not "all files agree": the config points at the wrong place.
        var failed = false
        for (_, current) in all {
            let empty = current.files.filter { $0.locations.isEmpty && $0.targets.isEmpty }
            for file in empty {
                let hint = file.entry.format == .expoJS
                    ? "write version:, ios.buildNumber and android.versionCode there (literals, or version: pkg.version with package.json listed too), or mark the line holding the literal with // relctl-version"
                    : "check its \"format\" and options, or remove the entry from 'files' (relctl init --dry-run shows what relctl detects)"
                context.output.error("\(file.entry.path): no version value found in this \(file.entry.format.rawValue) file; \(hint)")
            }
            failed = failed || !empty.isEmpty
        }
        if failed { throw ExitCode.failure }
    }

    /// One block per file: a row per distinct value of each field, with its lines.
    static func text(_ current: CurrentVersions) -> String {
        var out = ""
        for file in current.files {
            out += "\(file.entry.path) (\(file.entry.format.rawValue))\n"
            if file.locations.isEmpty && file.targets.isEmpty { out += "  (no version values found)\n" }
            for row in rows(file, among: current.files, project: current.project) {
                let lines = row.lines.count == 1 ? "line \(row.lines[0])" : "lines " + row.lines.sorted().map(String.init).joined(separator: ", ")
                var line = "  " + pad(VersionFileText.fieldName(row.field), 15) + pad(row.value, 12) + " " + lines
                if let whereItLives = row.whereItLives { line += " → " + whereItLives }
                out += line + "\n"
            }
            for line in XcodeTargetText.lines(file, among: current.files) { out += "  " + line + "\n" }
        }
        return out
    }

    struct Row {
        var field: VersionField
        var value: String
        var lines: [Int]
        var whereItLives: String?
        /// A pbxproj setting no target reads (`FileVersions.isUnusedSetting`).
        var unused = false
    }

    static func rows(_ file: FileVersions, among files: [FileVersions], project: ProjectFiles) -> [Row] {
        var rows: [Row] = []
        for location in file.locations {
            let unused = file.isUnusedSetting(location)
            if let i = rows.firstIndex(where: { $0.field == location.field && $0.value == location.value && $0.unused == unused }) {
                if !rows[i].lines.contains(location.line) { rows[i].lines.append(location.line) }
            } else {
                let whereItLives = unused ? "not used: the targets read their version elsewhere (below); sync keeps it in step"
                    : VersionFileText.whereItLives(location, in: file, among: files, project: project)
                rows.append(Row(field: location.field, value: location.value, lines: [location.line],
                                whereItLives: whereItLives, unused: unused))
            }
        }
        let order: [VersionField] = [.marketing, .build, .iosBuild, .androidBuild]
        return rows.enumerated().sorted {
            (order.firstIndex(of: $0.element.field)!, $0.offset) < (order.firstIndex(of: $1.element.field)!, $1.offset)
        }.map(\.element)
    }

    static func pad(_ s: String, _ width: Int) -> String {
        s.count >= width ? s : s + String(repeating: " ", count: width - s.count)
    }

    static func json(_ current: CurrentVersions) -> JSONOutput {
        func value(_ file: FileVersions, _ fields: [VersionField]) -> JSONOutput {
            let candidates = file.usedLocations.filter { fields.contains($0.field) }
            guard let location = candidates.first(where: { $0.indirection == nil }) ?? candidates.first else { return .null }
            return .object([
                ("value", .string(location.value)),
                ("line", .int(location.line)),
                ("indirection", .optional(VersionFileText.whereItLives(location, in: file, among: current.files, project: current.project))),
            ])
        }
        return .object([
            ("schemaVersion", .int(1)),
            ("files", .array(current.files.map { file in
                var members: [(String, JSONOutput)] = [
                    ("path", .string(file.entry.path)),
                    ("format", .string(file.entry.format.rawValue)),
                    ("marketing", value(file, [.marketing])),
                    ("iosBuild", value(file, [.iosBuild, .build])),
                    ("androidBuild", value(file, [.androidBuild, .build])),
                ]
                if file.entry.format == .pbxproj { members.append(("targets", XcodeTargetText.json(file, among: current.files))) }
                return .object(members)
            })),
            ("drift", .array(current.drift.map { drift in
                .object([
                    ("field", .string(drift.field.rawValue)),
                    ("values", .array(drift.values.map {
                        .object([("path", .string($0.path)), ("line", .int($0.line)), ("value", .string($0.value))])
                    })),
                ])
            })),
        ])
    }
}
