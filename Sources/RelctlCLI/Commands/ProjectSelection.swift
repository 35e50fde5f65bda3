#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import RelctlCore

/// Which projects a command acts on, in a repository whose config lists `projects`: `--project NAME` (repeatable),
/// `--all`, else the project whose folder holds the current folder (or `--repo`'s), else at the root every project
/// (`next`, `status`, `current`, …) or none (`release`, which asks). Without `projects`, the repository is one app.
struct ProjectSelection {
    /// The workspaces to act on, one per project, in the config's order; `[workspace]` itself without projects.
    let workspaces: [Workspace]
    /// Whether the config lists projects: `--json` is then an array of per-project objects.
    let hasProjects: Bool

    /// What a command does at the root of a repository with several projects, with neither option.
    enum AtRoot {
        /// Every project (`next`, `status`, `current`, `changelog`, `lint`).
        case every
        /// Refuse with the list, exit 64, nothing written (`release`, `sync`, `adopt`).
        case ask
    }

    static func select(_ arguments: ParsedArguments, _ context: CommandContext, workspace: Workspace,
                       usage: String, atRoot: AtRoot) throws -> ProjectSelection {
        let projects = workspace.config.projects
        let names = arguments.values("--project")
        let all = arguments.has("--all")
        if !names.isEmpty && all {
            throw UsageError(message: "--project and --all do not go together; give one of them", usage: usage)
        }
        guard !projects.isEmpty else {
            if !names.isEmpty {
                throw UsageError(message: "--project \(names[0]): \(workspace.configDisplayPath) lists no projects (the repository is one app); drop --project, or list the apps under \"projects\"", usage: usage)
            }
            return ProjectSelection(workspaces: [workspace], hasProjects: false)
        }
        var chosen: [Project] = []
        if all {
            chosen = projects
        } else if !names.isEmpty {
            for name in names {
                guard let project = workspace.config.project(named: name) else {
                    let close = projects.map(\.name).first { editDistance($0, name) <= 2 }
                    throw UsageError(message: "no project \"\(name)\" in \(workspace.configDisplayPath)" + (close.map { "; did you mean \"\($0)\"?" } ?? "") + "; the projects are \(list(projects))", usage: usage)
                }
                if !chosen.contains(where: { $0.name == name }) { chosen.append(project) }
            }
        } else if let here = inferred(arguments, context, workspace: workspace) {
            chosen = [here]
        } else if projects.count == 1 {
            chosen = projects
        } else if atRoot == .every {
            chosen = projects
        } else {
            throw UsageError(message: "\(workspace.configDisplayPath) lists \(projects.count) projects (\(list(projects))); name the ones to act on with --project NAME (repeatable), or --all, or run it inside a project's folder", usage: usage)
        }
        return ProjectSelection(workspaces: chosen.map { workspace.forProject($0) }, hasProjects: true)
    }

    static func list(_ projects: [Project]) -> String {
        projects.map { "\($0.name) (\($0.displayPath))" }.joined(separator: ", ")
    }

    /// The project whose folder holds the folder the command runs in (`--repo`'s, else the current one): the deepest
    /// one, when folders nest; nil at the root, outside every project, or where two projects share the folder.
    static func inferred(_ arguments: ParsedArguments, _ context: CommandContext, workspace: Workspace) -> Project? {
        let start = arguments.value("--repo").map { LexicalPath.join(context.currentDirectory, $0) } ?? context.currentDirectory
        let real = { (path: String) -> String in
            URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        }
        let folder = LexicalPath.normalize(real(start)) ?? start
        let root = LexicalPath.normalize(real(workspace.root)) ?? workspace.root
        guard folder.hasPrefix(root + "/") else { return nil }
        let relative = String(folder.dropFirst(root.count + 1))
        let holding = workspace.config.projects.filter { !$0.path.isEmpty && (relative == $0.path || relative.hasPrefix($0.path + "/")) }
        guard let deepest = holding.max(by: { $0.path.count < $1.path.count }) else { return nil }
        guard holding.filter({ $0.path == deepest.path }).count == 1 else { return nil }
        return deepest
    }
}

extension JSONOutput {
    /// A command's object for one project: `project` first, then today's members.
    func withProject(_ name: String?) -> JSONOutput {
        guard let name, case .object(let members) = self else { return self }
        return .object([("project", .string(name))] + members)
    }
}

extension ProjectSelection {
    /// Runs `body` once per selected workspace, in order (`sync`, `adopt`, `lint`): without projects, as the command
    /// always ran. With projects and `--json`, each run's object is gathered (with `project` first) into one array;
    /// in text, each project's output follows a `name (path):` line on stderr when there are several. The first
    /// failure stops the run, after what the earlier projects did.
    func each(_ context: CommandContext, json: Bool, _ body: (Workspace, CommandContext) throws -> Void) throws {
        guard hasProjects else { return try body(workspaces[0], context) }
        var objects: [String] = []
        defer {
            if json { context.output.resultText("[" + objects.joined(separator: ",") + "]\n") }
        }
        for workspace in workspaces {
            let project = workspace.project!
            if !json {
                if workspaces.count > 1 { context.output.message("\(project.name) (\(project.displayPath)):") }
                try body(workspace, context)
                continue
            }
            var captured = ""
            let output = Output(stdout: { captured += $0 }, stderr: { text in
                context.output.message(text.hasSuffix("\n") ? String(text.dropLast()) : text)
            })
            let inner = CommandContext(environment: context.environment, output: output, currentDirectory: context.currentDirectory)
            defer {
                let text = captured.trimmingCharacters(in: .whitespacesAndNewlines)
                if text.hasPrefix("{") {
                    var name = ""
                    JSONOutput.escape(project.name, into: &name)
                    objects.append("{\"project\":" + name + (text == "{}" ? "}" : "," + text.dropFirst()))
                }
            }
            try body(workspace, inner)
        }
    }
}
