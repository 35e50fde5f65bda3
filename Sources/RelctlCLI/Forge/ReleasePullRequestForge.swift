import Foundation
import RelctlCore

/// The release pull request (GitHub) or merge request (GitLab) on the forge: found by its source branch, created,
/// updated, closed, and labelled. Through `ForgeReleases.send` (StoreHTTP: a child curl reading its config on stdin,
/// the token never on a command line nor printed, no redirect followed).
enum ReleasePullRequestForge {
    static let pendingLabel = "relctl: pending"
    static let taggedLabel = "relctl: tagged"

    /// A pull request or merge request as the forge answered it.
    struct Request: Equatable {
        /// GitHub's `number`, GitLab's `iid`.
        let number: Int
        let url: String
        let title: String
        let labels: [String]
        /// Merged (GitHub `merged_at` set, GitLab `state: merged`).
        let merged: Bool
    }

    /// "pull request #3" / "merge request !3".
    static func name(_ request: Request, _ target: ForgeReleases.Target) -> String {
        target.forge == .github ? "pull request #\(request.number)" : "merge request !\(request.number)"
    }

    static func kind(_ target: ForgeReleases.Target) -> String {
        target.forge == .github ? "pull request" : "merge request"
    }

    // MARK: Lookup

    /// The open requests from `branch` (every page), oldest first.
    static func open(from branch: String, target: ForgeReleases.Target, environment: [String: String]) throws(Problem) -> [Request] {
        try list(from: branch, state: target.forge == .github ? "open" : "opened", target: target, environment: environment)
    }

    /// The merged request from `branch` titled `title` (the newest when there are several).
    static func merged(from branch: String, title: String, target: ForgeReleases.Target,
                       environment: [String: String]) throws(Problem) -> Request? {
        let found = try list(from: branch, state: target.forge == .github ? "closed" : "merged", target: target, environment: environment)
        return found.filter { $0.merged && titleNames($0.title, title) }.max { $0.number < $1.number }
    }

    /// A squash merge's title may have gained ` (#12)`: it still names the release.
    static func titleNames(_ actual: String, _ expected: String) -> Bool {
        actual == expected || actual.hasPrefix(expected + " (")
    }

    static func list(from branch: String, state: String, target: ForgeReleases.Target,
                     environment: [String: String]) throws(Problem) -> [Request] {
        var found: [Request] = []
        var url: String
        if target.forge == .github {
            let owner = target.project.split(separator: "/").first.map(String.init) ?? target.project
            url = "\(target.api)/repos/\(target.project)/pulls?head=\(StoreHTTP.escaped("\(owner):\(branch)"))&state=\(state)&per_page=100"
        } else {
            url = "\(projectURL(target))/merge_requests?source_branch=\(StoreHTTP.escaped(branch))&state=\(state)&per_page=100"
        }
        for _ in 0..<50 {
            let response = try ForgeReleases.send(target, "GET", url, body: nil, environment)
            guard response.status == 200 else {
                throw refusal(response, target, doing: "looking up the \(kind(target))s from \(branch)")
            }
            guard let items = (try? JSONSerialization.jsonObject(with: response.body)) as? [[String: Any]] else {
                throw Problem("\(target.name) answered the lookup of the \(kind(target))s from \(branch) with something that is not a list", kind: .forge)
            }
            found += items.compactMap { request(from: $0, target) }
            guard let next = nextPage(response, current: url, target: target) else { break }
            url = next
        }
        return found.sorted { $0.number < $1.number }
    }

    /// The next page: GitHub's `Link: <…>; rel="next"`, GitLab's `X-Next-Page` (or its Link). Only a URL under the
    /// API's own base is followed (the token goes only where it was meant to).
    static func nextPage(_ response: StoreHTTP.Response, current: String, target: ForgeReleases.Target) -> String? {
        if let link = response.headers["link"] { return ForgeReleases.nextLink(link, under: target.api) }
        if let page = response.headers["x-next-page"]?.trimmingCharacters(in: .whitespaces), let number = Int(page) {
            var base = current
            if let range = base.range(of: #"&page=\d+"#, options: .regularExpression) { base.removeSubrange(range) }
            return base + "&page=\(number)"
        }
        return nil
    }

    static func request(from object: [String: Any], _ target: ForgeReleases.Target) -> Request? {
        let numberKey = target.forge == .github ? "number" : "iid"
        guard let number = (object[numberKey] as? NSNumber)?.intValue else { return nil }
        let url = object[target.forge == .github ? "html_url" : "web_url"] as? String
            ?? (target.forge == .github ? "\(target.web)/pull/\(number)" : "\(target.web)/-/merge_requests/\(number)")
        let labels: [String]
        if target.forge == .github {
            labels = (object["labels"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
        } else {
            labels = object["labels"] as? [String] ?? []
        }
        let merged = target.forge == .github ? !(object["merged_at"] is NSNull || object["merged_at"] == nil)
            : object["state"] as? String == "merged"
        return Request(number: number, url: url, title: object["title"] as? String ?? "", labels: labels, merged: merged)
    }

    /// The forge's refusal, its hint naming what a pull request needs (not what a release needs).
    static func refusal(_ response: StoreHTTP.Response, _ target: ForgeReleases.Target, doing: String) -> Problem {
        let message = ForgeReleases.refusal(response, target, doing: doing).message
            .replacingOccurrences(of: "may not write releases of", with: "may not write \(kind(target))s of")
            .replacingOccurrences(of: "the contents: write permission", with: "the contents: write and pull-requests: write permissions")
        return Problem(message, kind: .forge)
    }

    static func projectURL(_ target: ForgeReleases.Target) -> String {
        "\(target.api)/projects/\(StoreHTTP.escaped(target.project))"
    }

    // MARK: Writes

    /// Creates the request from `branch` into `base`, labelled pending.
    static func create(from branch: String, into base: String, title: String, body: String, target: ForgeReleases.Target,
                       environment: [String: String]) throws(Problem) -> Request {
        let response: StoreHTTP.Response
        if target.forge == .github {
            response = try ForgeReleases.send(target, "POST", "\(target.api)/repos/\(target.project)/pulls",
                                              body: [("title", .string(title)), ("head", .string(branch)), ("base", .string(base)),
                                                     ("body", .string(body)), ("maintainer_can_modify", .bool(false))], environment)
        } else {
            response = try ForgeReleases.send(target, "POST", "\(projectURL(target))/merge_requests",
                                              body: [("source_branch", .string(branch)), ("target_branch", .string(base)),
                                                     ("title", .string(title)), ("description", .string(body)),
                                                     ("labels", .string(pendingLabel)), ("remove_source_branch", .bool(true))], environment)
        }
        guard response.status == 201 || response.status == 200, let object = ForgeReleases.object(response),
              let made = request(from: object, target) else {
            throw refusal(response, target, doing: "creating the \(kind(target)) from \(branch)")
        }
        if target.forge == .github { try label(made, adding: pendingLabel, removing: nil, target: target, environment: environment) }
        return made
    }

    /// Sets the title and body of an open request (and its pending label).
    static func update(_ existing: Request, title: String, body: String, base: String, target: ForgeReleases.Target,
                       environment: [String: String]) throws(Problem) -> Request {
        let response: StoreHTTP.Response
        if target.forge == .github {
            response = try ForgeReleases.send(target, "PATCH", "\(target.api)/repos/\(target.project)/pulls/\(existing.number)",
                                              body: [("title", .string(title)), ("body", .string(body)), ("base", .string(base))], environment)
        } else {
            response = try ForgeReleases.send(target, "PUT", "\(projectURL(target))/merge_requests/\(existing.number)",
                                              body: [("title", .string(title)), ("description", .string(body)),
                                                     ("target_branch", .string(base)), ("add_labels", .string(pendingLabel))], environment)
        }
        guard response.status == 200, let object = ForgeReleases.object(response), let updated = request(from: object, target) else {
            throw refusal(response, target, doing: "updating \(name(existing, target))")
        }
        if target.forge == .github, !updated.labels.contains(pendingLabel) {
            try label(updated, adding: pendingLabel, removing: nil, target: target, environment: environment)
        }
        return updated
    }

    /// Closes an open request (nothing is due any more).
    static func close(_ existing: Request, target: ForgeReleases.Target, environment: [String: String]) throws(Problem) {
        let response: StoreHTTP.Response
        if target.forge == .github {
            response = try ForgeReleases.send(target, "PATCH", "\(target.api)/repos/\(target.project)/pulls/\(existing.number)",
                                              body: [("state", .string("closed"))], environment)
        } else {
            response = try ForgeReleases.send(target, "PUT", "\(projectURL(target))/merge_requests/\(existing.number)",
                                              body: [("state_event", .string("close"))], environment)
        }
        guard response.status == 200 else { throw refusal(response, target, doing: "closing \(name(existing, target))") }
    }

    /// Adds `adding` (made first on GitHub when the repository has no such label) and takes `removing` off.
    static func label(_ request: Request, adding: String, removing: String?, target: ForgeReleases.Target,
                      environment: [String: String]) throws(Problem) {
        if target.forge == .gitlab {
            var fields: [(String, JSONOutput)] = [("add_labels", .string(adding))]
            if let removing { fields.append(("remove_labels", .string(removing))) }
            let response = try ForgeReleases.send(target, "PUT", "\(projectURL(target))/merge_requests/\(request.number)", body: fields, environment)
            guard response.status == 200 else { throw refusal(response, target, doing: "labelling \(name(request, target)) '\(adding)'") }
            return
        }
        let repo = "\(target.api)/repos/\(target.project)"
        let found = try ForgeReleases.send(target, "GET", "\(repo)/labels/\(StoreHTTP.escaped(adding))", body: nil, environment)
        if found.status == 404 {
            let color = adding == pendingLabel ? "fbca04" : "0e8a16"
            let description = adding == pendingLabel ? "relctl: the release this pull request makes is not tagged yet"
                : "relctl: the release this pull request made is tagged"
            let made = try ForgeReleases.send(target, "POST", "\(repo)/labels",
                                              body: [("name", .string(adding)), ("color", .string(color)), ("description", .string(description))],
                                              environment)
            // 422: made meanwhile by another run.
            guard made.status == 201 || made.status == 422 else { throw refusal(made, target, doing: "creating the label '\(adding)'") }
        } else if found.status != 200 {
            throw refusal(found, target, doing: "looking up the label '\(adding)'")
        }
        let added = try ForgeReleases.send(target, "POST", "\(repo)/issues/\(request.number)/labels",
                                           body: [("labels", .array([.string(adding)]))], environment)
        guard added.status == 200 else { throw refusal(added, target, doing: "labelling \(name(request, target)) '\(adding)'") }
        if let removing, request.labels.contains(removing) {
            let removed = try ForgeReleases.send(target, "DELETE", "\(repo)/issues/\(request.number)/labels/\(StoreHTTP.escaped(removing))",
                                                 body: nil, environment)
            guard removed.status == 200 || removed.status == 404 else {
                throw refusal(removed, target, doing: "removing the label '\(removing)' from \(name(request, target))")
            }
        }
    }
}
