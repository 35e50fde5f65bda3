import RelctlCore

/// `"forge"` in .relctl.json: which forge holds the repository and whether `relctl release --push` makes the release
/// object there. `{"provider": "github" | "gitlab", "releases": true | false, "repository": "owner/name"}`, every key
/// optional: without it the forge is read from the remote's URL (github.com, GitHub Enterprise, gitlab.com, a host
/// naming gitlab); `"releases": false` turns the releases off; `repository` names the project when the remote's URL
/// does not (a mirror, a local path in tests).
struct ForgeSettings: Equatable {
    var provider: RemoteLinks.Forge?
    var releases: Bool?
    var repository: String?
    /// The host of the forge's web address when the remote does not tell (GitHub Enterprise, self-hosted GitLab).
    var host: String?

    static let keys = ["provider", "releases", "repository", "host"]
}

extension Config {
    static let forgeKeys = ["forge"]

    mutating func parseForge(_ object: StrictObject) throws(Problem) {
        guard let forge = try object.object("forge") else { return }
        try forge.rejectUnknownKeys(ForgeSettings.keys)
        var settings = ForgeSettings()
        if let (name, node) = try forge.string("provider") {
            guard let provider = RemoteLinks.Forge(rawValue: name) else {
                throw forge.error(node, "'forge.provider' \"\(name)\" is not a forge relctl knows; use \"github\" or \"gitlab\"")
            }
            settings.provider = provider
        }
        settings.releases = try forge.bool("releases")
        if let (name, node) = try forge.string("repository") {
            let parts = name.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count >= 2, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-._".contains($0)) } }) else {
                throw forge.error(node, "'forge.repository' \"\(name)\" is not a repository path; write it as \"owner/name\" (GitLab: \"group/subgroup/name\")")
            }
            settings.repository = name
        }
        if let (name, node) = try forge.string("host") {
            guard !name.isEmpty, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || ".-:".contains($0)) }) else {
                throw forge.error(node, "'forge.host' \"\(name)\" is not a host name; write it like \"github.acme.com\"")
            }
            settings.host = name.lowercased()
        }
        forgeSettings = settings
    }
}
