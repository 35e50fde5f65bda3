import Foundation
import RelctlCore
import RelctlGit

/// The release object on GitHub or GitLab for a pushed tag: found by its tag first and updated (never a second one),
/// else created. Through `StoreHTTP` (a child curl reading its config on stdin: the token is never on a command line,
/// no redirect is followed, 429 and 5xx retried a bounded number of times).
enum ForgeReleases {
    /// Where the release goes: the forge, its API, the project and the token.
    struct Target {
        let forge: RemoteLinks.Forge
        /// The API's base URL, without a trailing slash (`https://api.github.com`, `https://gitlab.com/api/v4`).
        let api: String
        /// `owner/name` (GitLab: `group/…/name`).
        let project: String
        /// The project's web address, for a release URL the API did not give.
        let web: String
        /// The header that carries the token, and the token itself (never printed).
        let authorization: (name: String, value: String)

        var name: String { forge == .github ? "GitHub" : "GitLab" }
    }

    /// What to publish.
    struct Release {
        let tag: String
        let title: String
        let body: String
        let prerelease: Bool
        /// false: a maintenance release, never marked "latest" (GitHub's `make_latest: "false"`).
        let latest: Bool
    }

    /// Why no release object is made.
    enum Resolution {
        /// No forge (the remote is elsewhere and the config names none) or `"releases": false`: nothing said.
        case off
        /// A forge but no token (or no project): the warning naming what to set.
        case unavailable(String)
        case target(Target)
    }

    /// `"created"` or `"updated"`, and the release's web address.
    struct Outcome {
        let action: String
        let url: String
    }

    static let githubTokens = ["GITHUB_TOKEN", "GH_TOKEN"]
    static let gitlabTokens = ["GITLAB_TOKEN", "CI_JOB_TOKEN"]

    /// The forge of `remote` (its URL) or of the config's `forge`, its API base and the token from the environment.
    static func resolve(config: Config, remoteURL: String?, environment: [String: String]) -> Resolution {
        let settings = config.forgeSettings
        if settings?.releases == false { return .off }
        let links = remoteURL.flatMap { RemoteLinks.parse($0, forge: settings?.provider ?? Config.ciForge(of: $0, environment)) }
        guard let forge = settings?.provider ?? links?.forge else {
            if settings?.releases == true {
                return .unavailable("\"forge\": {\"releases\": true} in .relctl.json, but the remote's URL is not on GitHub or GitLab; name the forge (\"forge\": {\"provider\": \"github\"} or \"gitlab\") to have the release made there")
            }
            return .off
        }
        let name = forge == .github ? "GitHub" : "GitLab"
        let fromRemote = links?.forge == forge ? links : nil
        var host = settings?.host ?? fromRemote.flatMap { URL(string: $0.baseURL)?.host } ?? (forge == .github ? "github.com" : "gitlab.com")
        if let port = fromRemote.flatMap({ URL(string: $0.baseURL)?.port }), settings?.host == nil { host += ":\(port)" }
        let ciProject = forge == .github ? environment["GITHUB_REPOSITORY"] : environment["CI_PROJECT_PATH"]
        let pathFromRemote = fromRemote.flatMap { URL(string: $0.baseURL)?.path }.map { String($0.drop { $0 == "/" }) }
        guard let project = settings?.repository ?? pathFromRemote ?? ciProject.flatMap({ $0.isEmpty ? nil : $0 }) else {
            return .unavailable("the \(name) release is not made: the remote's URL does not name the \(name) project; set \"forge\": {\"repository\": \"owner/name\"} in .relctl.json")
        }
        let api: String
        do {
            if forge == .github {
                api = try StoreHTTP.baseURL("GITHUB_API_URL", standard: host == "github.com" ? "https://api.github.com" : "https://\(host)/api/v3",
                                            environment: environment)
            } else {
                api = try StoreHTTP.baseURL("CI_API_V4_URL", standard: "https://\(host)/api/v4", environment: environment)
            }
        } catch {
            return .unavailable("the \(name) release is not made: \(error.reason)")
        }
        let variables = forge == .github ? githubTokens : gitlabTokens
        guard let variable = variables.first(where: { !(environment[$0] ?? "").isEmpty }), let token = environment[variable] else {
            return .unavailable("no \(variables.joined(separator: " or ")) is set, so no \(name) release was made for the tag; set \(variables[0]) (a token that may create releases) and run 'relctl publish-release <tag>'")
        }
        let header: (String, String)
        switch variable {
        case "GITLAB_TOKEN": header = ("PRIVATE-TOKEN", token)
        case "CI_JOB_TOKEN": header = ("JOB-TOKEN", token)
        default: header = ("Authorization", "Bearer \(token)")
        }
        return .target(Target(forge: forge, api: api, project: project, web: "https://\(host)/\(project)", authorization: header))
    }

    /// Finds the release of `release.tag` and updates it, or creates it. `step` is told `forge-lookup` once the
    /// lookup is answered and `forge-release` once the release is created or updated (`FaultInjection`: the crash
    /// tests kill relctl there and prove a rerun updates that release, never makes a second).
    static func publish(_ release: Release, to target: Target, environment: [String: String],
                        step: (String) -> Void = { _ in }) throws(Problem) -> Outcome {
        target.forge == .github ? try github(release, target, environment, step) : try gitlab(release, target, environment, step)
    }

    // MARK: GitHub (REST v3: /repos/{owner}/{repo}/releases)

    static func github(_ release: Release, _ target: Target, _ environment: [String: String],
                       _ step: (String) -> Void = { _ in }) throws(Problem) -> Outcome {
        let base = "\(target.api)/repos/\(target.project)/releases"
        let found = try send(target, "GET", "\(base)/tags/\(StoreHTTP.escaped(release.tag))", body: nil, environment)
        step("forge-lookup")
        var fields: [(String, JSONOutput)] = [("tag_name", .string(release.tag)), ("name", .string(release.title)),
                                               ("body", .string(release.body)), ("draft", .bool(false)),
                                               ("prerelease", .bool(release.prerelease))]
        if !release.latest { fields.append(("make_latest", .string("false"))) }
        let answer: StoreHTTP.Response
        let action: String
        switch found.status {
        case 200:
            guard let id = object(found)?["id"].flatMap({ ($0 as? NSNumber)?.intValue }) else {
                throw Problem("\(target.name) answered the lookup of the release \(release.tag) without its id", kind: .forge)
            }
            answer = try send(target, "PATCH", "\(base)/\(id)", body: fields, environment)
            action = "updated"
        case 404:
            answer = try send(target, "POST", base, body: fields, environment)
            action = "created"
        default:
            throw refusal(found, target, doing: "looking up the release \(release.tag)")
        }
        guard answer.status == 200 || answer.status == 201 else {
            throw refusal(answer, target, doing: action == "created" ? "creating the release \(release.tag)" : "updating the release \(release.tag)")
        }
        step("forge-release")
        let url = object(answer)?["html_url"] as? String ?? "\(target.web)/releases/tag/\(StoreHTTP.escaped(release.tag))"
        return Outcome(action: action, url: url)
    }

    // MARK: GitLab (v4: /projects/{id}/releases)

    static func gitlab(_ release: Release, _ target: Target, _ environment: [String: String],
                       _ step: (String) -> Void = { _ in }) throws(Problem) -> Outcome {
        let base = "\(target.api)/projects/\(StoreHTTP.escaped(target.project))/releases"
        let tagURL = "\(base)/\(StoreHTTP.escaped(release.tag))"
        let found = try send(target, "GET", tagURL, body: nil, environment)
        step("forge-lookup")
        let answer: StoreHTTP.Response
        let action: String
        switch found.status {
        case 200:
            answer = try send(target, "PUT", tagURL, body: [("name", .string(release.title)), ("description", .string(release.body))], environment)
            action = "updated"
        case 404:
            answer = try send(target, "POST", base, body: [("tag_name", .string(release.tag)), ("name", .string(release.title)),
                                                           ("description", .string(release.body))], environment)
            action = "created"
        default:
            throw refusal(found, target, doing: "looking up the release \(release.tag)")
        }
        guard answer.status == 200 || answer.status == 201 else {
            throw refusal(answer, target, doing: action == "created" ? "creating the release \(release.tag)" : "updating the release \(release.tag)")
        }
        step("forge-release")
        let links = object(answer)?["_links"] as? [String: Any]
        let url = links?["self"] as? String ?? "\(target.web)/-/releases/\(StoreHTTP.escaped(release.tag))"
        return Outcome(action: action, url: url)
    }

    // MARK: Requests

    static func send(_ target: Target, _ method: String, _ url: String, body: [(String, JSONOutput)]?,
                     _ environment: [String: String]) throws(Problem) -> StoreHTTP.Response {
        var request = request(target, method, url)
        request.body = body.map { Data(JSONOutput.object($0).rendered().utf8) }
        return try send(request, target, environment)
    }

    /// A request to the forge's API with the token's header (and GitHub's API version).
    static func request(_ target: Target, _ method: String, _ url: String) -> StoreHTTP.Request {
        var request = StoreHTTP.Request(method: method, url: url, headers: [target.authorization])
        if target.forge == .github { request.headers.append(("X-GitHub-Api-Version", "2022-11-28")) }
        return request
    }

    /// Sends `request`; a forge that cannot be reached is one `.forge` problem naming its host.
    static func send(_ request: StoreHTTP.Request, _ target: Target, _ environment: [String: String]) throws(Problem) -> StoreHTTP.Response {
        do {
            return try StoreHTTP.send(request, environment: environment)
        } catch {
            throw Problem("\(target.name) could not be reached (\(StoreHTTP.host(of: error.url))): \(error.reason)", kind: .forge)
        }
    }

    /// The `next` URL of a `Link` header (`<https://api.github.com/…&page=2>; rel="next", <…>; rel="last"`), only
    /// when it is under the API's own base `api`: a page elsewhere never gets the token.
    static func nextLink(_ link: String?, under api: String) -> String? {
        guard let link else { return nil }
        for part in link.split(separator: ",") {
            let pieces = part.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            let isNext = pieces.count >= 2 && pieces.dropFirst().contains("rel=\"next\"")
            guard isNext, pieces[0].hasPrefix("<"), pieces[0].hasSuffix(">") else { continue }
            let next = String(pieces[0].dropFirst().dropLast())
            return next.hasPrefix(api + "/") ? next : nil
        }
        return nil
    }

    static func object(_ response: StoreHTTP.Response) -> [String: Any]? {
        (try? JSONSerialization.jsonObject(with: response.body)) as? [String: Any]
    }

    /// The forge's refusal in one line: the status, its own message (never the token: it is only in headers sent),
    /// and what to check.
    static func refusal(_ response: StoreHTTP.Response, _ target: Target, doing: String) -> Problem {
        var said = (object(response)?["message"] as? String) ?? (object(response)?["error"] as? String) ?? ""
        said = String(said.filter { !$0.isNewline && !$0.isASCIIControlCharacter }.prefix(200))
        let what = said.isEmpty ? "HTTP \(response.status)" : "HTTP \(response.status): \(said)"
        let hint: String
        switch response.status {
        case 401: hint = "; the token was refused: check \(target.forge == .github ? githubTokens.joined(separator: " / ") : gitlabTokens.joined(separator: " / "))"
        case 403: hint = "; the token may not write releases of \(target.project): give it the \(target.forge == .github ? "contents: write" : "api") permission"
        case 404: hint = "; check the project \(target.project) and that the token can see it"
        default: hint = ""
        }
        return Problem("\(target.name) refused \(doing) (\(what))\(hint)", kind: .forge)
    }
}

extension Character {
    fileprivate var isASCIIControlCharacter: Bool { asciiValue.map { $0 < 0x20 || $0 == 0x7F } ?? false }
}
