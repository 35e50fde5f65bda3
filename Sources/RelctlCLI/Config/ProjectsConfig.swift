#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import RelctlCore
import RelctlJSON
import RelctlFiles

/// One app (or package) of a repository that holds several, from `projects` of `.relctl.json`:
///
/// ```json
/// "projects": [{"name": "consumer", "path": "apps/consumer", "tagFormat": "consumer-v{version}",
///               "files": [...], "changelog": {"path": "apps/consumer/CHANGELOG.md"}, "buildNumber": {...},
///               "gate": {...}, "dependsOn": ["ui"], "scopes": ["consumer"]}]
/// ```
///
/// Paths are relative to the repository root. The top-level keys are the defaults a project overrides: `config` is the
/// whole config as this project sees it (its own tag format, files, changelog, build numbers and gate), so every
/// command runs on one project exactly as it runs on a repository holding one app.
struct Project: Sendable {
    let name: String
    /// Root-relative folder, normalized (`apps/consumer`); "" for the repository root (every commit counts).
    let path: String
    let tagFormat: String
    var files: [FileEntry] { config.files }
    var changelogPath: String? { config.changelogPath }
    var buildNumber: BuildNumberSettings { config.buildNumber }
    var gate: GateSettings? { config.gate }
    /// Names of the projects whose changes count as this project's (a shared package), as written.
    let dependsOn: [String]
    /// Conventional-commit scopes that count a commit for this project wherever it changed files (lowercased).
    let scopes: [String]
    /// The line of the project's entry, for messages.
    let line: Int
    /// The config as this project sees it: top-level keys with the project's overrides, `projects` emptied.
    let config: Config

    /// The folders whose changes count for this project: its own and, transitively, those of the projects it
    /// depends on (`Config.projectPaths`).
    var watchedPaths: [String] = []

    /// The marker of a halted major release of this project, inside its folder (`apps/consumer/.major-release-pending`).
    var markerPath: String { path.isEmpty ? MajorReleaseMarker.fileName : path + "/" + MajorReleaseMarker.fileName }

    /// `path` for messages: `.` for the root.
    var displayPath: String { path.isEmpty ? "." : path }
}

extension Config {
    static let projectKeys = ["name", "path", "tagFormat", "files", "changelog", "buildNumber", "gate", "dependsOn", "scopes",
                              "initialVersion"]

    /// Reads `projects` once every top-level key is read (they are the defaults): each entry strictly, then the
    /// names, the paths, `dependsOn` (known names, no cycle) and the tag formats (one per project).
    mutating func parseProjects(_ object: StrictObject) throws(Problem) {
        guard let items = try object.array("projects") else { return }
        let node = object.node.member("projects")!
        guard !items.isEmpty else {
            throw object.error(node, "'projects' is empty; list each app as {\"name\": \"consumer\", \"path\": \"apps/consumer\"}, or remove the key for a repository holding one app")
        }
        let tagFormatGiven = object.node.member("tagFormat") != nil
        var projects: [Project] = []
        for (index, item) in items.enumerated() {
            let key = "projects[\(index)]"
            let entry = try StrictObject(item, path: object.path, prefix: key + ".")
            try entry.rejectUnknownKeys(Self.projectKeys)
            guard let (name, nameNode) = try entry.string("name") else {
                throw entry.error(item, "'\(key)' needs \"name\": a short name for the app, like \"consumer\" (used by --project and in outputs)")
            }
            guard !name.isEmpty, name.allSatisfy({ $0.isASCIILetterOrDigit || $0 == "-" || $0 == "_" || $0 == "." }),
                  name.first?.isASCIILetterOrDigit == true else {
                throw entry.error(nameNode, "'\(key).name' \"\(name)\" is not a project name; use letters, digits, '-', '_' or '.', starting with a letter or digit, like \"consumer\"")
            }
            if let first = projects.first(where: { $0.name == name }) {
                throw entry.error(nameNode, "'\(key).name' \"\(name)\" is used twice (also at line \(first.line)); give each project its own name")
            }
            guard let (rawPath, pathNode) = try entry.string("path") else {
                throw entry.error(item, "'\(key)' (\"\(name)\") needs \"path\": its folder relative to the repository root, like \"apps/\(name)\" (\".\" for the root)")
            }
            var path = ""
            if rawPath != "." && rawPath != "./" {
                path = try Config.repositoryPath(rawPath, key: "\(key).path", line: pathNode.line, configPath: object.path, example: "apps/\(name)")
            }
            var projectConfig = self
            projectConfig.projects = []
            projectConfig.paths = []
            if changelogPath == "CHANGELOG.md", object.node.member("changelog")?.member("path") == nil, !path.isEmpty {
                // Each app keeps its own changelog in its folder unless the config names one.
                projectConfig.changelogPath = path + "/CHANGELOG.md"
            }
            try projectConfig.parseVersionFileKeys(entry)
            try Config.parseReleaseKeys(entry, into: &projectConfig)
            try projectConfig.parseGate(entry)
            if let (text, node) = try entry.string("initialVersion") {
                guard let version = try? SemanticVersion.parse(text), version.isStable else {
                    throw entry.error(node, "'\(key).initialVersion' \"\(text)\" is not a stable version; use one like \"1.0.0\" or \"0.1.0\"")
                }
                projectConfig.initialVersion = version
            }
            var format = tagFormatGiven && items.count == 1 ? tagFormat : "\(name)-v{version}"
            if let (given, formatNode) = try entry.string("tagFormat") {
                let parsed: TagFormat
                do {
                    parsed = try TagFormat(given)
                } catch {
                    throw entry.error(formatNode, "'\(key).tagFormat' \(error); write it like \"\(name)-v{version}\"")
                }
                if parsed.carriesBuild, projectConfig.files.isEmpty {
                    throw entry.error(formatNode, "'\(key).tagFormat' \"\(given)\" puts the build number in the tag, but the project lists no version file to read it from; give it \"files\", or drop {build}")
                }
                format = given
            }
            projectConfig.tagFormat = format
            let dependsOn = try Self.names(entry, "dependsOn", key: key)
            let scopes = try Self.names(entry, "scopes", key: key).map { $0.lowercased() }
            paths += projectConfig.paths
            if !path.isEmpty { record(path, key: "\(key).path", line: pathNode.line) }
            projects.append(Project(name: name, path: path, tagFormat: format, dependsOn: dependsOn, scopes: scopes,
                                    line: item.line, config: projectConfig))
        }
        try Self.checkDependencies(projects, items: items, object: object)
        // One tag space per project: a shared format would count one project's tags as the other's releases.
        for (i, project) in projects.enumerated() {
            for other in projects[..<i] where other.tagFormat == project.tagFormat {
                throw object.error(items[i].member("tagFormat") ?? items[i],
                                   "projects \"\(other.name)\" and \"\(project.name)\" both tag releases as \"\(project.tagFormat)\", so each would count the other's tags as its own releases; give each its own tagFormat, like \"\(project.name)-v{version}\"")
            }
        }
        for i in projects.indices { projects[i].watchedPaths = Self.watchedPaths(of: i, in: projects) }
        self.projects = projects
    }

    /// A list of names (`dependsOn`, `scopes`): strings, not empty.
    private static func names(_ entry: StrictObject, _ name: String, key: String) throws(Problem) -> [String] {
        guard let values = try entry.array(name) else { return [] }
        var result: [String] = []
        for value in values {
            guard let text = value.stringValue, !text.isEmpty else {
                throw entry.error(value, "'\(key).\(name)' must list names (non-empty strings), like [\"ui\"]")
            }
            result.append(text)
        }
        return result
    }

    /// `dependsOn` names known projects, not the project itself, and has no cycle.
    private static func checkDependencies(_ projects: [Project], items: [JSONNode], object: StrictObject) throws(Problem) {
        let index = Dictionary(projects.enumerated().map { ($1.name, $0) }) { first, _ in first }
        for (i, project) in projects.enumerated() {
            let node = items[i].member("dependsOn") ?? items[i]
            for name in project.dependsOn where index[name] == nil || name == project.name {
                if name == project.name {
                    throw object.error(node, "'projects[\(i)].dependsOn' names \"\(name)\" itself; list only the projects it uses, like a shared package")
                }
                let close = projects.map(\.name).first { editDistance($0, name) <= 2 }
                throw object.error(node, "'projects[\(i)].dependsOn' names \"\(name)\", which is not a project" + (close.map { "; did you mean \"\($0)\"?" }
                    ?? "; the projects are \(projects.map { "\"\($0.name)\"" }.joined(separator: ", "))"))
            }
        }
        // A cycle: depth-first, reporting the loop as a path of names.
        var state = [Int](repeating: 0, count: projects.count)   // 0 new, 1 on the stack, 2 done
        var stack: [Int] = []
        func visit(_ i: Int) -> [Int]? {
            state[i] = 1
            stack.append(i)
            for name in projects[i].dependsOn {
                guard let j = index[name] else { continue }
                if state[j] == 1 { return Array(stack[stack.firstIndex(of: j)!...]) + [j] }
                if state[j] == 0, let loop = visit(j) { return loop }
            }
            stack.removeLast()
            state[i] = 2
            return nil
        }
        for i in projects.indices where state[i] == 0 {
            if let loop = visit(i) {
                let names = loop.map { projects[$0].name }.joined(separator: " -> ")
                throw object.error(items[loop[0]].member("dependsOn") ?? items[loop[0]],
                                   "'projects' dependsOn makes a cycle (\(names)); a project cannot depend on itself through others: remove one of these dependsOn entries")
            }
        }
    }

    /// Project `i`'s own path and those of every project it depends on, transitively; no duplicates, in order.
    private static func watchedPaths(of i: Int, in projects: [Project]) -> [String] {
        let index = Dictionary(projects.enumerated().map { ($1.name, $0) }) { first, _ in first }
        var seen: Set<Int> = [i]
        var queue = [i]
        var paths: [String] = []
        while !queue.isEmpty {
            let k = queue.removeFirst()
            if !paths.contains(projects[k].path) { paths.append(projects[k].path) }
            for name in projects[k].dependsOn {
                if let j = index[name], seen.insert(j).inserted { queue.append(j) }
            }
        }
        return paths
    }

    /// The project named `name`; nil when there is none.
    func project(named name: String) -> Project? { projects.first { $0.name == name } }
}

extension Config {
    /// Each project's folder exists in the work tree (a typo would count no commit for it, silently).
    func checkProjectFolders(root: String) throws(Problem) {
        for (i, project) in projects.enumerated() where !project.path.isEmpty {
            // With a trailing slash only a folder (or a link to one) exists.
            guard FileManager.default.fileExists(atPath: LexicalPath.join(root, project.path) + "/") else {
                throw Problem("'projects[\(i)].path' \"\(project.path)\" (project \"\(project.name)\") is not a folder of the repository; give the app's folder relative to the repository root, or \".\" for the root", at: DiagnosticLocation(path: path ?? Config.fileName, line: project.line))
            }
        }
    }
}
