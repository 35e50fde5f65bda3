import Foundation
import RelctlTestSupport

/// The loopback fake of GitHub's pulls and labels API and GitLab's merge requests API (their real paths, query
/// strings, JSON and pagination headers), beside the releases of `ForgeReleaseTests.Forge`, to which every other
/// request goes. `pageSize` makes every list answer in pages (GitHub's `Link: <…>; rel="next"`, GitLab's
/// `X-Next-Page`), whatever `per_page` asks.
final class ReleasePullRequestFake: @unchecked Sendable {
    struct Pull {
        var number: Int
        var head: String
        var base: String
        var title: String
        var body: String
        var state: String   // GitHub: open, closed; GitLab: opened, closed, merged
        var merged = false
        var labels: [String] = []
    }

    let releases = ForgeReleaseTests.Forge()
    let lock = NSLock()
    var pulls: [Pull] = []
    /// GitHub's repository labels.
    var labels: [String] = []
    var pageSize = 100
    var gitlab = false
    var baseURL = ""
    /// A status every pull/merge request write gets while set.
    var failingWrites: (status: Int, body: String)?

    init(gitlab: Bool = false) {
        self.gitlab = gitlab
        releases.gitlab = gitlab
    }

    var stored: [Pull] { lock.lock(); defer { lock.unlock() }; return pulls }
    var repositoryLabels: [String] { lock.lock(); defer { lock.unlock() }; return labels }

    /// The forge's merge button: the request is merged (the test makes the merge commit on the remote itself).
    func markMerged(_ number: Int) {
        lock.lock()
        defer { lock.unlock() }
        guard let index = pulls.firstIndex(where: { $0.number == number }) else { return }
        pulls[index].merged = true
        pulls[index].state = gitlab ? "merged" : "closed"
    }

    func seed(_ pull: Pull) { lock.lock(); pulls.append(pull); lock.unlock() }

    func answer(_ request: FakeStoreServer.Request) -> FakeStoreServer.Reply {
        let path = request.path
        if path.contains("/pulls") || path.contains("/labels") || path.contains("/merge_requests") {
            lock.lock()
            defer { lock.unlock() }
            return gitlab ? gitlabAnswer(request) : githubAnswer(request)
        }
        return releases.answer(request)
    }

    static func query(_ target: String) -> [String: String] {
        guard let mark = target.firstIndex(of: "?") else { return [:] }
        var result: [String: String] = [:]
        for pair in target[target.index(after: mark)...].split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
            result[parts[0]] = parts.count > 1 ? (parts[1].removingPercentEncoding ?? parts[1]) : ""
        }
        return result
    }

    static func fields(_ request: FakeStoreServer.Request) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(request.body.utf8))) as? [String: Any] ?? [:]
    }

    static func text(_ object: Any) -> String {
        String(decoding: try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
    }

    /// One page of `items` and the header pointing at the next, as the forge sends it.
    func page(_ items: [[String: Any]], request: FakeStoreServer.Request) -> FakeStoreServer.Reply {
        let number = Int(Self.query(request.target)["page"] ?? "1") ?? 1
        let slice = Array(items.dropFirst((number - 1) * pageSize).prefix(pageSize))
        var headers: [(String, String)] = []
        if number * pageSize < items.count {
            var next = request.target
            if let range = next.range(of: #"&page=\d+"#, options: .regularExpression) { next.removeSubrange(range) }
            next += "&page=\(number + 1)"
            if gitlab {
                headers.append(("X-Next-Page", "\(number + 1)"))
            } else {
                headers.append(("Link", "<\(baseURL)\(next)>; rel=\"next\", <\(baseURL)\(next)>; rel=\"last\""))
            }
        } else if gitlab {
            headers.append(("X-Next-Page", ""))
        }
        return .json(Self.text(slice), headers: headers)
    }

    // MARK: GitHub

    func githubJSON(_ pull: Pull) -> [String: Any] {
        ["number": pull.number, "id": 5000 + pull.number, "title": pull.title, "body": pull.body, "state": pull.state,
         "html_url": "https://github.com/acme/app/pull/\(pull.number)", "merged_at": pull.merged ? "2026-09-21T10:00:00Z" : NSNull(),
         "head": ["ref": pull.head, "label": "acme:\(pull.head)"], "base": ["ref": pull.base],
         "labels": pull.labels.map { ["name": $0, "color": "fbca04"] }]
    }

    func githubAnswer(_ request: FakeStoreServer.Request) -> FakeStoreServer.Reply {
        guard request.headers["authorization"] == "Bearer \(ForgeReleaseTests.token)" else {
            return .json(#"{"message": "Bad credentials", "documentation_url": "https://docs.github.com/rest"}"#, status: 401)
        }
        let repo = "/repos/acme/app"
        let body = Self.fields(request)
        if request.method != "GET", let failingWrites, request.path.contains("/pulls") {
            return .json(failingWrites.body, status: failingWrites.status)
        }
        switch (request.method, request.path) {
        case ("GET", repo + "/pulls"):
            let query = Self.query(request.target)
            let state = query["state"] ?? "open"
            let found = pulls.filter { pull in
                (query["head"].map { $0 == "acme:\(pull.head)" } ?? true) && (state == "all" || pull.state == state)
            }
            return page(found.map(githubJSON), request: request)
        case ("POST", repo + "/pulls"):
            let head = body["head"] as? String ?? ""
            if pulls.contains(where: { $0.head == head && $0.state == "open" }) {
                return .json(#"{"message": "Validation Failed", "errors": [{"message": "A pull request already exists for acme:\#(head)."}]}"#, status: 422)
            }
            let pull = Pull(number: (pulls.map(\.number).max() ?? 0) + 1, head: head, base: body["base"] as? String ?? "",
                            title: body["title"] as? String ?? "", body: body["body"] as? String ?? "", state: "open")
            pulls.append(pull)
            return .json(Self.text(githubJSON(pull)), status: 201)
        case ("POST", repo + "/labels"):
            let name = body["name"] as? String ?? ""
            if labels.contains(name) { return .json(#"{"message": "Validation Failed", "errors": [{"code": "already_exists"}]}"#, status: 422) }
            labels.append(name)
            return .json(Self.text(["name": name, "color": body["color"] as? String ?? ""]), status: 201)
        default:
            break
        }
        if request.method == "GET", request.path.hasPrefix(repo + "/labels/") {
            let name = String(request.path.dropFirst(repo.count + 8)).removingPercentEncoding ?? ""
            return labels.contains(name) ? .json(Self.text(["name": name])) : .json(#"{"message": "Not Found"}"#, status: 404)
        }
        if request.path.hasPrefix(repo + "/pulls/"), let number = Int(request.path.dropFirst(repo.count + 7)),
           let index = pulls.firstIndex(where: { $0.number == number }), request.method == "PATCH" {
            if let title = body["title"] as? String { pulls[index].title = title }
            if let text = body["body"] as? String { pulls[index].body = text }
            if let base = body["base"] as? String { pulls[index].base = base }
            if let state = body["state"] as? String { pulls[index].state = state }
            return .json(Self.text(githubJSON(pulls[index])))
        }
        if request.path.hasPrefix(repo + "/issues/") {
            let rest = request.path.dropFirst(repo.count + 8).split(separator: "/", maxSplits: 2).map(String.init)
            guard let number = Int(rest[0]), let index = pulls.firstIndex(where: { $0.number == number }), rest.count >= 2, rest[1] == "labels" else {
                return .json(#"{"message": "Not Found"}"#, status: 404)
            }
            if request.method == "POST" {
                for name in body["labels"] as? [String] ?? [] {
                    guard labels.contains(name) else { return .json(#"{"message": "Validation Failed"}"#, status: 422) }
                    if !pulls[index].labels.contains(name) { pulls[index].labels.append(name) }
                }
                return .json(Self.text(pulls[index].labels.map { ["name": $0] }))
            }
            if request.method == "DELETE", rest.count == 3 {
                let name = rest[2].removingPercentEncoding ?? ""
                guard pulls[index].labels.contains(name) else { return .json(#"{"message": "Label does not exist"}"#, status: 404) }
                pulls[index].labels.removeAll { $0 == name }
                return .json(Self.text(pulls[index].labels.map { ["name": $0] }))
            }
        }
        return .json(#"{"message": "Not Found"}"#, status: 404)
    }

    // MARK: GitLab

    func gitlabJSON(_ pull: Pull) -> [String: Any] {
        ["iid": pull.number, "id": 9000 + pull.number, "title": pull.title, "description": pull.body, "state": pull.state,
         "source_branch": pull.head, "target_branch": pull.base, "labels": pull.labels,
         "web_url": "https://gitlab.example.com/group/sub/app/-/merge_requests/\(pull.number)"]
    }

    static func labelList(_ value: Any?) -> [String] {
        (value as? String ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    func gitlabAnswer(_ request: FakeStoreServer.Request) -> FakeStoreServer.Reply {
        guard request.headers["private-token"] == ForgeReleaseTests.gitlabToken || request.headers["job-token"] == ForgeReleaseTests.gitlabToken else {
            return .json(#"{"message": "401 Unauthorized"}"#, status: 401)
        }
        let base = "/api/v4/projects/group%2Fsub%2Fapp/merge_requests"
        let body = Self.fields(request)
        if request.method != "GET", let failingWrites { return .json(failingWrites.body, status: failingWrites.status) }
        if request.path == base, request.method == "GET" {
            let query = Self.query(request.target)
            let state = query["state"] ?? "all"
            let found = pulls.filter { pull in
                (query["source_branch"].map { $0 == pull.head } ?? true) && (state == "all" || pull.state == state)
            }
            return page(found.map(gitlabJSON), request: request)
        }
        if request.path == base, request.method == "POST" {
            let head = body["source_branch"] as? String ?? ""
            if pulls.contains(where: { $0.head == head && $0.state == "opened" }) {
                return .json(#"{"message": ["Another open merge request already exists for this source branch: !1"]}"#, status: 409)
            }
            let pull = Pull(number: (pulls.map(\.number).max() ?? 0) + 1, head: head, base: body["target_branch"] as? String ?? "",
                            title: body["title"] as? String ?? "", body: body["description"] as? String ?? "", state: "opened",
                            labels: Self.labelList(body["labels"]))
            pulls.append(pull)
            return .json(Self.text(gitlabJSON(pull)), status: 201)
        }
        if request.path.hasPrefix(base + "/"), let number = Int(request.path.dropFirst(base.count + 1)),
           let index = pulls.firstIndex(where: { $0.number == number }), request.method == "PUT" {
            if let title = body["title"] as? String { pulls[index].title = title }
            if let text = body["description"] as? String { pulls[index].body = text }
            if let target = body["target_branch"] as? String { pulls[index].base = target }
            if body["state_event"] as? String == "close" { pulls[index].state = "closed" }
            for name in Self.labelList(body["add_labels"]) where !pulls[index].labels.contains(name) { pulls[index].labels.append(name) }
            for name in Self.labelList(body["remove_labels"]) { pulls[index].labels.removeAll { $0 == name } }
            return .json(Self.text(gitlabJSON(pulls[index])))
        }
        return .json(#"{"message": "404 Not Found"}"#, status: 404)
    }
}
