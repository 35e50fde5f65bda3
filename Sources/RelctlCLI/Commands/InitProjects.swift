#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import RelctlCore
import RelctlFiles
import RelctlGit

/// `relctl init` in a repository of several apps (`ProjectDetection`): a `projects` list, one project per app,
/// each with its own folder, tagFormat, files and changelog; what was left out, one line each.
extension InitCommand {
    static func runProjects(_ detected: ProjectDetection.Result, _ arguments: ParsedArguments, _ context: CommandContext,
                            repository: OpenedRepository, configPath: String, configExists: Bool) throws {
        let root = repository.root
        let dryRun = arguments.has("--dry-run")
        let json = arguments.has("--json")
        let files = ProjectFiles(root: root)
        var detected = detected
        for i in detected.projects.indices where detected.projects[i].keepsRepositoryTags {
            let guess = guessTagFormat(tagNames: repository.tagNames)
            detected.projects[i].tagFormat = guess.pattern
            detected.projects[i].tagNote = guess.note
        }
        var members: [JSONOutput] = []
        var rows: [JSONOutput] = []
        var lines: [String] = []
        var notes: [String] = detected.notes
        let currents = detected.projects.map { try? CurrentVersions.read($0.entries, from: files) }
        // Build numbers derived from each project's version (fromVersion): one strategy for all of them.
        let apps = currents.flatMap(singleApp)
        let derived = apps.count == detected.projects.count ? derivedBuildNumbers(apps) : nil
        if let derived { notes.append(derived.note) }
        for (index, project) in detected.projects.enumerated() {
            let current = currents[index]
            let shared = derived == nil ? sharedBuildCounter(current) : (shared: true, reason: nil)
            members.append(projectJSON(project, sharedBuildNumber: shared.shared))
            if let reason = shared.reason { notes.append("\(project.name): " + reason) }
            if let note = project.tagNote { notes.append("\(project.name): " + note) }
            if let drift = current?.applicationDrift, !drift.isEmpty {
                notes.append("\(project.name): its files disagree (\(drift.map { VersionFileText.fieldName($0.field) }.joined(separator: ", "))); 'relctl sync' aligns them")
            }
            var header = "project \(project.name) (\(project.kind)) in \(project.path.isEmpty ? "." : project.path), tagFormat \(project.tagFormat)"
            if !project.dependsOn.isEmpty { header += ", dependsOn \(project.dependsOn.joined(separator: ", "))" }
            lines.append(header)
            for entry in project.entries { lines.append("  " + fileLine(entry, entries: project.entries, current: current)) }
            rows.append(.object([
                ("name", .string(project.name)), ("path", .string(project.path.isEmpty ? "." : project.path)),
                ("tagFormat", .string(project.tagFormat)), ("dependsOn", .array(project.dependsOn.map { .string($0) })),
                ("files", .array(project.entries.map { entry in
                    let file = current?.files.first(where: { $0.entry == entry })
                    return .object([
                        ("path", .string(entry.path)), ("format", .string(entry.format.rawValue)),
                        ("marketing", .optional(file?.marketing)),
                        ("iosBuild", .optional(file?.value(.build) ?? file?.iosBuild)),
                        ("androidBuild", .optional(file?.value(.build) ?? file?.androidBuild)),
                    ])
                })),
            ]))
        }
        let branches = releaseBranches(repository.git)
        var config: [(String, JSONOutput)] = []
        if let names = branches.names { config.append(("branches", .array(names.map { .string($0) }))) }
        config.append(("projects", .array(members)))
        config.append(("buildNumber", buildNumberJSON(strategy: derived == nil ? "increment" : "fromVersion", shared: true, digits: derived?.digits)))
        let text = JSONOutput.object(config).prettyRendered()
        if !dryRun { try writeConfig(text, to: configPath) }

        let leftOut = detected.leftOut.map { "left out " + $0 }
        if json {
            var object: [(String, JSONOutput)] = [
                ("schemaVersion", .int(1)), ("config", .string(Config.fileName)), ("projects", .array(rows)),
                ("leftOut", .array(detected.leftOut.map { .string($0) })),
            ]
            if dryRun { object += [("dryRun", .bool(true)), ("configExists", .bool(configExists)), ("configText", .string(text))] }
            context.output.result(JSONOutput.object(object).rendered())
        } else {
            for line in lines { context.output.result(line) }
        }
        if let note = branches.note { context.output.note(note) }
        context.output.note("found \(detected.projects.count) project\(detected.projects.count == 1 ? "" : "s") (\(detected.source)): each with its own version, tags, build numbers and changelog")
        if dryRun {
            printDryRun(text, context: context, json: json, configExists: configExists, notes: leftOut + notes, warnings: [])
            return
        }
        for note in leftOut + notes { context.output.note(note) }
        context.output.message("wrote \(Config.fileName) with \(detected.projects.count) project\(detected.projects.count == 1 ? "" : "s") (\(detected.projects.map(\.name).joined(separator: ", "))); check it, then run 'relctl current'")
        let adopt = projectsToAdopt(arguments, context)
        if !adopt.isEmpty {
            context.output.message("\(adopt.map(\.text).joined(separator: "; ")), and no release tag of theirs is reachable from HEAD: if those versions are in the stores, run 'relctl adopt\(adopt.map { " --project \($0.name)" }.joined())' to tag them as the last releases, so the next releases follow them")
        }
        var steps = ["commit it: git add \(Config.fileName) && git commit -m \"chore: add relctl config\""]
        if !adopt.isEmpty {
            steps.append("relctl adopt\(adopt.map { " --project \($0.name)" }.joined()) (tags the version each app's files hold as its last release, so the next one follows it)")
        }
        steps += ["relctl status (each project: what is released, what comes next)", "relctl release --all --dry-run (the releases due, changing nothing)"]
        context.output.message("next steps:\n" + steps.enumerated().map { "  \($0.offset + 1). \($0.element)" }.joined(separator: "\n"))
    }

    /// The projects whose files hold a stable version with no release tag of the project reachable from HEAD (as
    /// `offerAdoption` for one app): their first release would otherwise start over at the initial version.
    static func projectsToAdopt(_ arguments: ParsedArguments, _ context: CommandContext) -> [(name: String, text: String)] {
        guard let workspace = try? Workspace.open(RepositoryLocation(arguments), context) else { return [] }
        var found: [(name: String, text: String)] = []
        for project in workspace.config.projects where !project.files.isEmpty {
            let scoped = workspace.forProject(project)
            guard let current = try? scoped.readVersions(), case let floor = VersionFloor(current),
                  let held = floor.held, floor.agreed, VersionParts(held.value).prerelease == nil,
                  let analysis = try? scoped.analyze(), analysis.baseTag == nil else { continue }
            found.append((project.name, "\(project.name)'s files hold \(held.value)"))
        }
        return found
    }

    /// One `projects` item: name, path, tagFormat, files, changelog (in the project's folder), dependsOn.
    static func projectJSON(_ project: ProjectDetection.Project, sharedBuildNumber: Bool) -> JSONOutput {
        let folder = project.path.isEmpty ? "." : project.path
        var members: [(String, JSONOutput)] = [
            ("name", .string(project.name)), ("path", .string(folder)), ("tagFormat", .string(project.tagFormat)),
            ("files", .array(project.entries.map(entryJSON))),
            ("changelog", .object([("path", .string(project.keepsRepositoryTags ? "CHANGELOG.md"
                : project.path.isEmpty ? "CHANGELOG-\(project.name).md" : project.path + "/CHANGELOG.md"))])),
        ]
        if !project.dependsOn.isEmpty { members.append(("dependsOn", .array(project.dependsOn.map { .string($0) }))) }
        if !sharedBuildNumber {
            members.append(("buildNumber", .object([("strategy", .string("increment")), ("shared", .bool(false))])))
        }
        return .object(members)
    }
}
