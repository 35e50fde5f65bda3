import Foundation

/// Firebase Remote Config's REST API (v1): the live template with its ETag, a validation, and a publish with
/// `If-Match` (never `*`: a template someone published since the read is refused by the server with 412).
struct RemoteConfigAPI {
    static let baseURLVariable = "RELCTL_FIREBASE_REMOTE_CONFIG_URL"
    static let standardBaseURL = "https://firebaseremoteconfig.googleapis.com"
    static let role = "the Firebase Remote Config Admin role (roles/firebaseremoteconfig.admin) on the project to publish, or Remote Config Viewer (roles/firebaseremoteconfig.viewer) to pull"

    let client: AuthorizedClient
    let url: String
    let projectID: String

    init(credentials: GoogleCredentials, projectID: String, environment: [String: String]) throws(HTTPFailure) {
        let base = try StoreHTTP.baseURL(Self.baseURLVariable, standard: Self.standardBaseURL, environment: environment)
        url = "\(base)/v1/projects/\(StoreHTTP.escaped(projectID))/remoteConfig"
        client = AuthorizedClient(credentials: credentials, environment: environment, service: "Firebase Remote Config", role: Self.role)
        self.projectID = projectID
    }

    struct Live {
        let template: [String: Any]
        let etag: String
        var versionNumber: Int? { RemoteConfigTemplate.versionNumber(template) }
    }

    func get() throws(HTTPFailure) -> Live {
        let response = try client.send(StoreHTTP.Request(url: url, headers: [("Accept-Encoding", "gzip")]))
        if response.status == 404 {
            throw HTTPFailure(url: url, reason: "HTTP 404: no Firebase project \(projectID)\(client.said(response)); check 'gate.firebase.projectId' in .relctl.json")
        }
        guard response.status == 200, let template = (try? JSONSerialization.jsonObject(with: response.body)) as? [String: Any] else {
            throw client.unexpected(response, url: url, doing: "reading the Remote Config template of \(projectID)")
        }
        guard let etag = response.headers["etag"], !etag.isEmpty else {
            throw HTTPFailure(url: url, reason: "the answer carries no ETag header, and relctl publishes only against the template it read")
        }
        return Live(template: template, etag: etag)
    }

    enum PutResult {
        case published([String: Any])
        case mismatch
    }

    /// PUT with `If-Match: etag`; `validateOnly` checks without publishing. 412: someone published since the read.
    func put(_ template: [String: Any], etag: String, validateOnly: Bool) throws(HTTPFailure) -> PutResult {
        let target = url + (validateOnly ? "?validateOnly=true" : "")
        guard let body = try? JSONSerialization.data(withJSONObject: template, options: [.sortedKeys]) else {
            throw HTTPFailure(url: target, reason: "the template cannot be written as JSON")
        }
        let response = try client.send(StoreHTTP.Request(method: "PUT", url: target, headers: [("If-Match", etag)], body: body))
        if response.status == 412 { return .mismatch }
        guard response.status == 200 else {
            throw client.unexpected(response, url: target, doing: validateOnly ? "validating the template" : "publishing the template")
        }
        return .published((try? JSONSerialization.jsonObject(with: response.body)) as? [String: Any] ?? [:])
    }
}

/// A Remote Config template as JSON objects: its parameters wherever they sit (top level or in a group), the
/// version it was read at, a byte-stable text, and the parameter-by-parameter differences of two templates.
enum RemoteConfigTemplate {
    static func versionNumber(_ template: [String: Any]) -> Int? {
        guard let version = template["version"] as? [String: Any] else { return nil }
        if let text = version["versionNumber"] as? String { return Int(text) }
        return (version["versionNumber"] as? NSNumber)?.intValue
    }

    /// The same template always gives the same bytes: keys sorted, two-space indent, a final newline.
    static func text(_ template: [String: Any]) throws -> String {
        let data = try JSONSerialization.data(withJSONObject: template, options: [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes])
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// Every parameter by name, with the group holding it (nil: top level).
    static func parameters(_ template: [String: Any]) -> [String: (group: String?, value: [String: Any])] {
        var all: [String: (group: String?, value: [String: Any])] = [:]
        for (name, value) in template["parameters"] as? [String: Any] ?? [:] {
            all[name] = (nil, value as? [String: Any] ?? [:])
        }
        for (group, body) in template["parameterGroups"] as? [String: Any] ?? [:] {
            for (name, value) in (body as? [String: Any])?["parameters"] as? [String: Any] ?? [:] {
                all[name] = (group, value as? [String: Any] ?? [:])
            }
        }
        return all
    }

    static func canonical(_ value: Any) -> String {
        guard let data = try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed, .withoutEscapingSlashes]) else { return "\(value)" }
        return String(decoding: data, as: UTF8.self)
    }

    /// A parameter's values by part: its default, then each condition's, sorted by name.
    private static func parts(_ parameter: [String: Any]) -> [(String, String)] {
        func text(_ value: Any?) -> String {
            guard let value = value as? [String: Any] else { return "none" }
            if let string = value["value"] as? String { return "\"\(string)\"" }
            return value["useInAppDefault"] as? Bool == true ? "in-app default" : canonical(value)
        }
        let conditional = parameter["conditionalValues"] as? [String: Any] ?? [:]
        return [("default", text(parameter["defaultValue"]))] + conditional.keys.sorted().map { ($0, text(conditional[$0])) }
    }

    private static func shown(_ parameter: [String: Any]) -> String {
        parts(parameter).map { "\($0.0) \($0.1)" }.joined(separator: ", ")
    }

    /// The parts that differ: `default "2.3.0" → "2.5.0", ios "2.3.1" → none`.
    private static func changedParts(_ old: [String: Any], _ new: [String: Any]) -> String {
        let a = Dictionary(parts(old)) { x, _ in x }, b = Dictionary(parts(new)) { x, _ in x }
        let labels = (parts(old) + parts(new)).map(\.0).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        let changed = labels.filter { a[$0] != b[$0] }.map { "\($0) \(a[$0] ?? "none") → \(b[$0] ?? "none")" }
        return changed.isEmpty ? "its description, type or group" : changed.joined(separator: ", ")
    }

    /// One line per parameter added, removed or changed from `old` to `new`, then the conditions and other parts.
    static func differences(from old: [String: Any], to new: [String: Any]) -> [String] {
        var lines: [String] = []
        let before = parameters(old), after = parameters(new)
        for name in Set(before.keys).union(after.keys).sorted() {
            switch (before[name], after[name]) {
            case (nil, let added?): lines.append("added \(name): \(shown(added.value))")
            case (let removed?, nil): lines.append("removed \(name) (was \(shown(removed.value)))")
            case (let was?, let now?) where canonical(was.value) != canonical(now.value) || was.group != now.group:
                lines.append("changed \(name): " + changedParts(was.value, now.value))
            default: break
            }
        }
        let conditions = { (t: [String: Any]) in
            Dictionary((t["conditions"] as? [[String: Any]] ?? []).enumerated().map { (($0.element["name"] as? String) ?? "#\($0.offset)", canonical($0.element)) }) { a, _ in a }
        }
        let c0 = conditions(old), c1 = conditions(new)
        for name in Set(c0.keys).union(c1.keys).sorted() where c0[name] != c1[name] {
            lines.append(c0[name] == nil ? "added condition \(name)" : c1[name] == nil ? "removed condition \(name)" : "changed condition \(name)")
        }
        if c0 == c1, canonical(old["conditions"] ?? []) != canonical(new["conditions"] ?? []) {
            lines.append("changed the order of the conditions")
        }
        for key in Set(old.keys).union(new.keys).subtracting(["parameters", "parameterGroups", "conditions", "version", "etag"]).sorted()
            where canonical(old[key] ?? NSNull()) != canonical(new[key] ?? NSNull()) {
            lines.append("changed \(key)")
        }
        return lines
    }

    /// `live` with the parameters named in `keys` taken from `decided` (their default and conditional values),
    /// everything else exactly as `live` has it. A parameter `decided` has and `live` lacks is added top level.
    static func applying(_ keys: [String], from decided: [String: Any], onto live: [String: Any]) -> [String: Any] {
        var result = live
        let ours = parameters(decided), theirs = parameters(live)
        for key in keys {
            guard let mine = ours[key]?.value else { continue }
            func merged(_ existing: [String: Any]) -> [String: Any] {
                var value = existing
                for field in ["defaultValue", "conditionalValues"] { value[field] = mine[field] }
                return value
            }
            if let existing = theirs[key] {
                if let group = existing.group {
                    var groups = result["parameterGroups"] as? [String: Any] ?? [:]
                    var body = groups[group] as? [String: Any] ?? [:]
                    var members = body["parameters"] as? [String: Any] ?? [:]
                    members[key] = merged(existing.value)
                    body["parameters"] = members
                    groups[group] = body
                    result["parameterGroups"] = groups
                } else {
                    var members = result["parameters"] as? [String: Any] ?? [:]
                    members[key] = merged(existing.value)
                    result["parameters"] = members
                }
            } else {
                var members = result["parameters"] as? [String: Any] ?? [:]
                members[key] = mine
                result["parameters"] = members
            }
        }
        return result
    }

    /// What a PUT sends: the template without its output-only `version`.
    static func body(_ template: [String: Any]) -> [String: Any] {
        var body = template
        body.removeValue(forKey: "version")
        return body
    }
}
