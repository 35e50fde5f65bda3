#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
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

    /// The forge of the CI the run is in, when `remoteURL` is on that CI's own server: GitHub Actions on GitHub
    /// Enterprise (`GITHUB_SERVER_URL`), GitLab CI on a self-hosted GitLab (`CI_SERVER_URL`), whatever the host's name.
    static func ciForge(of remoteURL: String, _ environment: [String: String]) -> RemoteLinks.Forge? {
        for (variable, forge) in [("GITHUB_SERVER_URL", RemoteLinks.Forge.github), ("CI_SERVER_URL", .gitlab)] {
            guard let server = environment[variable], let host = URL(string: server)?.host?.lowercased(),
                  let links = RemoteLinks.parse(remoteURL, forge: forge), URL(string: links.baseURL)?.host == host else { continue }
            return links.forge
        }
        return nil
    }

    /// The changelog's links for a remote URL: its forge read from the host (github.com, gitlab.com, a host naming
    /// github or gitlab, ghe.<domain>) or, for a host that names neither (`git.example.com`), from `"forge":
    /// {"provider"}`, else from the CI running on that host (`GITHUB_SERVER_URL`, GitLab's `CI_SERVER_URL`); when the
    /// remote's URL gives none (a mirror, a local path), `"forge": {"provider", "host", "repository"}` together.
    func forgeLinks(remoteURL: String?, environment: [String: String] = [:]) -> RemoteLinks? {
        if let remoteURL, let links = RemoteLinks.parse(remoteURL, forge: forgeSettings?.provider ?? Self.ciForge(of: remoteURL, environment)) {
            return links
        }
        if let settings = forgeSettings, let provider = settings.provider, let host = settings.host, let repository = settings.repository {
            return RemoteLinks(forge: provider, baseURL: "https://\(host)/\(repository)")
        }
        return nil
    }

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
