import RelctlCore

extension Config {
    /// The keys of `relctl release`: branches, changelog, commitMessage, onMajor.
    static func parseReleaseKeys(_ object: StrictObject, into config: inout Config) throws(Problem) {
        if let items = try object.array("branches") {
            var rules: [BranchRule] = []
            for item in items { rules.append(try BranchRule.parse(item, in: object)) }
            guard !rules.isEmpty else { throw object.error(object.node.member("branches") ?? object.node, "'branches' is empty; list at least one release branch") }
            config.branchRules = rules
        }
        if let (message, node) = try object.string("commitMessage") {
            guard message.contains("{version}") || message.contains("{tag}"), !message.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
                throw object.error(node, "'commitMessage' must contain {version} or {tag}, like \"chore(release): {version}\"")
            }
            config.commitMessage = message
        }
        if let (text, node) = try object.string("onMajor") {
            guard let mode = OnMajor(rawValue: text) else {
                throw object.error(node, "'onMajor' must be \"halt\" (stop until --confirm-major, the default) or \"warn\" (release and warn)")
            }
            config.onMajor = mode
        }
        if let node = object.node.member("changelog") {
            if node.boolValue == false {
                config.changelogPath = nil
            } else {
                guard node.objectMembers != nil else {
                    throw object.wrongType("changelog", node, expected: "an object or false")
                }
                let settings = try StrictObject(node, path: object.path, prefix: "changelog.")
                try settings.rejectUnknownKeys(["path", "groups", "breakingTitle", "revertsTitle", "prereleases", "template", "authors"])
                try config.parseTemplateKey(settings, key: "changelog.template")
                if let (path, pathNode) = try settings.string("path") {
                    _ = try Config.repositoryPath(path, key: "changelog.path", line: pathNode.line, configPath: object.path, example: "CHANGELOG.md")
                    config.changelogPath = path
                    config.record(path, key: "changelog.path", line: pathNode.line)
                }
                if let flag = try settings.bool("prereleases") { config.changelogPrereleases = flag }
                if let flag = try settings.bool("authors") { config.changelog.authors = flag }
                if let (title, _) = try settings.string("breakingTitle") { config.changelog.breakingChangesTitle = title }
                if let value = settings.node.member("revertsTitle") {
                    if value.isNull { config.changelog.revertsTitle = nil }
                    else if let title = value.stringValue { config.changelog.revertsTitle = title }
                    else { throw settings.wrongType("revertsTitle", value, expected: "a string or null") }
                }
                if let groups = try settings.array("groups") {
                    var result: [ChangelogGroup] = []
                    for group in groups {
                        let g = try StrictObject(group, path: object.path, prefix: "changelog.groups[].")
                        try g.rejectUnknownKeys(["title", "types"])
                        guard let (title, _) = try g.string("title") else {
                            throw g.error(group, "each 'changelog.groups' entry needs a \"title\"")
                        }
                        let types = try g.array("types") ?? []
                        let names = types.compactMap(\.stringValue)
                        guard !names.isEmpty, names.count == types.count else {
                            throw g.error(group, "'changelog.groups' entry \"\(title)\" needs \"types\": a non-empty list of commit types")
                        }
                        result.append(ChangelogGroup(title: title, types: names.map { $0.lowercased() }))
                    }
                    config.changelog.groups = result
                }
            }
        }
    }
}

extension Config {
    /// Whether `relctl release` may release from `branch`: one of `branches`, where a trailing `*` matches any rest
    /// (`release/*`).
    func isReleaseBranch(_ branch: String) -> Bool {
        branchRule(for: branch) != nil
    }

    /// The first `branches` entry matching `branch`; nil when it is not a release branch.
    func branchRule(for branch: String) -> BranchRule? {
        branchRules.first { $0.matches(branch) }
    }

    static func matches(_ branch: String, pattern: String) -> Bool {
        pattern.hasSuffix("*") ? branch.hasPrefix(String(pattern.dropLast())) : branch == pattern
    }
}
