/// Web links to commits and comparisons of a repository hosted on GitHub or GitLab,
/// derived from its git remote URL.
///
/// Credentials in the URL (`https://x-access-token:TOKEN@github.com/…`), query strings and
/// fragments are dropped, so a token in a remote URL never ends up in a link.
public struct RemoteLinks: Hashable, Sendable {
    public enum Forge: String, Hashable, Sendable {
        case github, gitlab
    }

    public let forge: Forge
    /// The repository's web address without a trailing slash, e.g. `https://github.com/acme/app`.
    public let baseURL: String

    public init(forge: Forge, baseURL: String) {
        self.forge = forge
        self.baseURL = baseURL
    }

    /// Links for a remote URL, or `nil` when it is not a GitHub or GitLab repository
    /// (local paths, `file://`, other hosts, malformed URLs).
    ///
    /// Accepted forms, with or without `.git`: `https://host/path`, `http://host/path`,
    /// `ssh://[user@]host[:port]/path`, `git://host/path`, `git+ssh://…` and scp-like
    /// `[user@]host:path`. Hosts: `github.com` (exactly `owner/repo`), `gitlab.com` and any host
    /// whose name contains `gitlab` (self-hosted; `group/subgroup/…/repo`), and any other host whose name
    /// contains `github` or starts with `ghe.` (GitHub Enterprise Server; exactly `owner/repo`). The web address is
    /// `https` except for `http://` remotes; the port is kept only for `http(s)` remotes.
    public static func parse(_ url: String) -> RemoteLinks? {
        parse(url, forge: nil)
    }

    /// As `parse(_:)`, and a host that names neither forge (`ghe.example.com`, `git.acme.dev`) is taken to be on
    /// `forge` when one is given (`"forge": {"provider": "github"}` in .relctl.json): GitHub Enterprise and
    /// self-hosted GitLab under any name. A host that names a forge keeps it.
    public static func parse(_ url: String, forge assumed: Forge?) -> RemoteLinks? {
        let text = url.trimmingASCIIWhitespace()
        guard !text.isEmpty else { return nil }

        var scheme = "https"
        var authority: Substring
        var path: Substring
        if let range = text.firstRange(of: "://") {
            let given = text[..<range.lowerBound].lowercased()
            let rest = text[range.upperBound...]
            switch given {
            case "https", "http": scheme = given
            case "ssh", "git", "git+ssh", "ssh+git": scheme = "https"
            default: return nil // file://, ftp://, …
            }
            let slash = rest.firstIndex(of: "/") ?? rest.endIndex
            authority = rest[..<slash]
            path = rest[slash...]
            if given != "https", given != "http" { authority = authority.droppingPort() }
        } else {
            // scp-like syntax: a colon before any slash (git's own rule); anything else is a local path.
            guard let colon = text.firstIndex(of: ":"),
                  !text[..<colon].contains("/"), !text[..<colon].contains("\\") else { return nil }
            authority = text[..<colon]
            path = text[text.index(after: colon)...]
        }

        // Credentials: everything up to the last "@" of the authority.
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        let hostAndPort = authority.lowercased()
        var host = Substring(hostAndPort)
        var port: Substring?
        if let colon = host.firstIndex(of: ":") {
            port = host[host.index(after: colon)...]
            host = host[..<colon]
            guard let port, !port.isEmpty, port.allSatisfy(\.isASCIIDigit) else { return nil }
        }
        guard !host.isEmpty, host.allSatisfy({ $0.isASCIILetterOrDigit || $0 == "." || $0 == "-" }),
              !host.hasPrefix("."), !host.hasSuffix(".") else { return nil }

        // Path: no query or fragment, no surrounding slashes, no `.git`.
        if let end = path.firstIndex(where: { $0 == "?" || $0 == "#" }) { path = path[..<end] }
        while path.hasPrefix("/") { path = path.dropFirst() }
        while path.hasSuffix("/") { path = path.dropLast() }
        if path.hasSuffix(".git") { path = path.dropLast(4) }
        let components = path.split(separator: "/", omittingEmptySubsequences: false)
        guard components.allSatisfy(isValidPathComponent) else { return nil }

        let forge: Forge
        switch host {
        case "github.com", "www.github.com", "ssh.github.com":
            forge = .github
            host = "github.com"
            guard components.count == 2 else { return nil }
        case "altssh.gitlab.com":
            forge = .gitlab
            host = "gitlab.com"
        default:
            if host.contains("gitlab") {
                forge = .gitlab
            } else if host.contains("github") || host.hasPrefix("ghe.") || assumed == .github {
                // GitHub Enterprise Server (github.acme.com, ghe.acme.com): GitHub's URL shapes, exactly `owner/repo`.
                forge = .github
                guard components.count == 2 else { return nil }
            } else if assumed == .gitlab {
                forge = .gitlab
            } else {
                return nil
            }
        }
        if forge == .gitlab { guard components.count >= 2 else { return nil } }

        var base = scheme + "://" + host
        if let port, scheme == "https" || scheme == "http", host != "github.com", host != "gitlab.com" {
            base += ":" + port
        }
        base += "/" + components.joined(separator: "/")
        return RemoteLinks(forge: forge, baseURL: base)
    }

    /// `…/commit/<sha>` on GitHub, `…/-/commit/<sha>` on GitLab.
    public func commitURL(_ sha: String) -> String {
        baseURL + separator + "commit/" + Self.percentEncoded(sha)
    }

    /// `…/compare/<from>...<to>` on GitHub, `…/-/compare/<from>...<to>` on GitLab.
    public func compareURL(from: String, to: String) -> String {
        baseURL + separator + "compare/" + Self.percentEncoded(from) + "..." + Self.percentEncoded(to)
    }

    /// A pull request (`…/pull/12`) on GitHub, a merge request (`…/-/merge_requests/12`) on GitLab.
    public func pullRequestURL(_ number: String) -> String {
        baseURL + (forge == .gitlab ? "/-/merge_requests/" : "/pull/") + Self.percentEncoded(number)
    }

    /// An issue: `…/issues/12` on GitHub, `…/-/issues/12` on GitLab.
    public func issueURL(_ number: String) -> String {
        baseURL + separator + "issues/" + Self.percentEncoded(number)
    }

    /// A forge account's page: `https://github.com/alice` (the forge's host, any path of the repository left out).
    public func userURL(_ login: String) -> String {
        var origin = Substring(baseURL)
        if let scheme = origin.firstRange(of: "://"), let slash = origin[scheme.upperBound...].firstIndex(of: "/") {
            origin = origin[..<slash]
        }
        return origin + "/" + Self.percentEncoded(login)
    }

    private var separator: String { forge == .gitlab ? "/-/" : "/" }

    /// Owner, group and repository names: unreserved URL characters only, so a link can never
    /// contain Markdown-significant characters such as `(`, `)` or spaces.
    private static func isValidPathComponent(_ component: Substring) -> Bool {
        !component.isEmpty && component != "." && component != ".." && component != "-"
            && component.allSatisfy { $0.isASCIILetterOrDigit || $0 == "." || $0 == "-" || $0 == "_" || $0 == "~" }
    }

    /// Tags and shas in a URL path: unreserved characters, `/` and `+` are kept, every other
    /// byte is percent-encoded (so `(`, `)`, `#`, `?`, `%` and spaces cannot break a link).
    static func percentEncoded(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            let scalar = Unicode.Scalar(byte)
            if byte < 0x80, Character(scalar).isASCIILetterOrDigit || "-._~/+".unicodeScalars.contains(scalar) {
                out.unicodeScalars.append(scalar)
            } else {
                let hex = String(byte, radix: 16, uppercase: true)
                out += "%" + (hex.count == 1 ? "0" : "") + hex
            }
        }
        return out
    }
}

extension Substring {
    /// `host:port` → `host`, keeping any `user@` part.
    fileprivate func droppingPort() -> Substring {
        let start = lastIndex(of: "@").map { index(after: $0) } ?? startIndex
        guard let colon = self[start...].firstIndex(of: ":") else { return self }
        return self[..<colon]
    }
}

extension String {
    /// Without leading and trailing spaces, tabs, CR and LF.
    func trimmingASCIIWhitespace() -> String {
        let isSpace: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        let bytes = utf8
        guard let first = bytes.firstIndex(where: { !isSpace($0) }),
              let last = bytes.lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(decoding: bytes[first...last], as: UTF8.self)
    }
}
