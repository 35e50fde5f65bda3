import RelctlCore
import RelctlJSON

/// One entry of `branches`: a branch (or `prefix*`) `relctl release` may run on, and what it releases there. A plain
/// string is a branch of stable releases; an object may make every release on it a prerelease of a channel
/// (`{"name": "beta", "prerelease": "beta"}`) or a maintenance branch (`{"name": "release/*", "maintenance": true}`,
/// with an optional `"range": "1.4.x"`). A branch named like `release/1.4.x` or `1.x` is a maintenance branch of
/// that range whatever its entry says.
struct BranchRule: Equatable {
    var name: String
    var prerelease: ReleaseChannel?
    var maintenance = false
    var range: MaintenanceRange?

    static let keys = ["name", "prerelease", "maintenance", "range"]

    func matches(_ branch: String) -> Bool { Config.matches(branch, pattern: name) }

    /// The range `branch` (matching this entry) releases in: the entry's `range`, else the one its name spells
    /// (`release/1.4.x`; with `"maintenance": true` also `release/1.4`); nil: not a maintenance branch, or one whose
    /// range comes from its last release tag.
    func range(on branch: String) -> MaintenanceRange? {
        if let range { return range }
        if maintenance { return MaintenanceRange(maintenanceBranchName: branch) }
        return MaintenanceRange(branchName: branch)
    }

    /// Whether `branch` (matching this entry) is a maintenance branch.
    func isMaintenance(_ branch: String) -> Bool { maintenance || range(on: branch) != nil }

    static func parse(_ item: JSONNode, in object: StrictObject) throws(Problem) -> BranchRule {
        if let name = item.stringValue {
            guard !name.isEmpty else {
                throw object.error(item, "'branches' must list branch names as strings or objects, like [\"main\", {\"name\": \"beta\", \"prerelease\": \"beta\"}]")
            }
            return BranchRule(name: name)
        }
        guard item.objectMembers != nil else {
            throw object.error(item, "'branches' must list branch names as strings or objects, like [\"main\", {\"name\": \"beta\", \"prerelease\": \"beta\"}]")
        }
        let entry = try StrictObject(item, path: object.path, prefix: "branches[].")
        try entry.rejectUnknownKeys(keys)
        guard let (name, nameNode) = try entry.string("name") else {
            throw entry.error(item, "each 'branches' object needs a \"name\", like {\"name\": \"beta\", \"prerelease\": \"beta\"}")
        }
        guard !name.isEmpty else { throw entry.error(nameNode, "'branches[].name' is empty; name a branch, like \"beta\" or \"release/*\"") }
        var rule = BranchRule(name: name)
        if let (text, node) = try entry.string("prerelease") {
            guard let channel = ReleaseChannel(text) else {
                throw entry.error(node, "'branches[].prerelease' \"\(text)\" is not a prerelease channel; use letters, digits and '-' with at least one letter, like \"beta\", \"alpha\" or \"rc\"")
            }
            rule.prerelease = channel
        }
        if let flag = try entry.bool("maintenance") { rule.maintenance = flag }
        if let (text, node) = try entry.string("range") {
            guard let range = MaintenanceRange(text) else {
                throw entry.error(node, "'branches[].range' \"\(text)\" is not a maintenance range; write the versions the branch releases, like \"1.4.x\" (patches of 1.4) or \"1.x\" (minors and patches of 1)")
            }
            guard rule.maintenance else {
                throw entry.error(node, "'branches[].range' is set on \"\(name)\", which is not a maintenance branch; add \"maintenance\": true to the entry")
            }
            rule.range = range
        }
        return rule
    }
}
