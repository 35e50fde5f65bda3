import Foundation
import RelctlCore
import RelctlGit

/// The forge accounts of a changelog's commit authors (`@alice`), asked only when the changelog uses them (a template
/// naming `authors`, or `"changelog": {"authors": true}`), and only of GitHub: its commits API gives each commit's
/// `author.login`; GitLab's gives only the name and email written in the commit, no username, so there none are
/// known. One walk of `GET /repos/{owner}/{repo}/commits?sha=<head>&per_page=100`, its pages followed by the `Link`
/// header until every listed commit is seen (the range's oldest) or 10 pages, kept for the rest of the run. Never
/// required, never a failure: no forge, a commit not pushed yet, a refusal, a 500 or no network leave the authors
/// unknown and the changelog as without them. A token (`GITHUB_TOKEN`, `GH_TOKEN`) is sent when set (in a header,
/// through `StoreHTTP`: never on a command line); without one the public API is asked.
enum ForgeAuthors {
    static let maximumPages = 10

    /// The logins by sha of the commits `release` lists; empty when not asked for or not known.
    static func authors(of release: ChangelogRelease, head: String, config: Config, environment: [String: String]) -> [String: [String]] {
        guard config.changelog.authors || config.changelogTemplate?.template.uses("authors") == true else { return [:] }
        guard let links = release.links, links.forge == .github else { return [:] }
        let wanted = Set(release.commits.filter { $0.status == .counted || $0.status == .noReleaseType }.map(\.sha))
        guard !wanted.isEmpty else { return [:] }
        let known = logins(links: links, head: head, wanted: wanted, environment: environment)
        return known.filter { wanted.contains($0.key) }
    }

    /// The walk's result for one repository and head: the logins of every commit seen.
    final class Cache: @unchecked Sendable {
        let lock = NSLock()
        var walks: [String: [String: [String]]] = [:]
    }

    /// The run's cache: `RelctlCLI.run` binds a new one for each run.
    @TaskLocal static var cache = Cache()

    static func logins(links: RemoteLinks, head: String, wanted: Set<String>, environment: [String: String]) -> [String: [String]] {
        guard let url = URL(string: links.baseURL), let host = url.host else { return [:] }
        let project = String(url.path.drop { $0 == "/" })
        let hostAndPort = host + (url.port.map { ":\($0)" } ?? "")
        guard let api = try? StoreHTTP.baseURL("GITHUB_API_URL", standard: host == "github.com" ? "https://api.github.com" : "https://\(hostAndPort)/api/v3",
                                               environment: environment) else { return [:] }
        let token = ForgeReleases.githubTokens.lazy.compactMap({ environment[$0] }).first(where: { !$0.isEmpty })
        let key = "\(api) \(project) \(head) \(token != nil)"
        cache.lock.lock()
        if let walked = cache.walks[key] {
            cache.lock.unlock()
            return walked
        }
        cache.lock.unlock()
        var headers: [(String, String)] = [("Accept", "application/vnd.github+json"), ("X-GitHub-Api-Version", "2022-11-28")]
        if let token {
            headers.append(("Authorization", "Bearer \(token)"))
        }
        var found: [String: [String]] = [:]
        var seen = Set<String>()
        var next: String? = "\(api)/repos/\(project)/commits?sha=\(StoreHTTP.escaped(head))&per_page=100"
        var pages = 0
        while let page = next, pages < maximumPages, !wanted.isSubset(of: seen) {
            pages += 1
            let request = StoreHTTP.Request(method: "GET", url: page, headers: headers)
            guard let response = try? StoreHTTP.send(request, environment: environment), response.status == 200,
                  let commits = (try? JSONSerialization.jsonObject(with: response.body)) as? [[String: Any]] else { break }
            for commit in commits {
                guard let sha = commit["sha"] as? String else { continue }
                seen.insert(sha)
                if let author = commit["author"] as? [String: Any], let login = author["login"] as? String, isLogin(login) {
                    found[sha] = [login]
                }
            }
            // Only a next page on the same API: a Link header never sends the token elsewhere.
            next = ForgeReleases.nextLink(response.headers["link"], under: api)
        }
        cache.lock.lock()
        cache.walks[key] = found
        cache.lock.unlock()
        return found
    }

    /// A GitHub login: letters, digits and `-` (bots: `name[bot]`), so nothing from the API can break the Markdown.
    static func isLogin(_ text: String) -> Bool {
        !text.isEmpty && text.count <= 64 && text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-_[]".contains($0)) }
    }
}
