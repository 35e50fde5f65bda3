import Foundation
import RelctlCore

/// Files attached to a forge release (`publish-release <tag> --asset FILE`), each under its base name, after the
/// release itself is made or updated. A rerun replaces an asset of the same name, never adds a second.
///
/// GitHub: the release's `upload_url` (its `{?name,label}` template part cut off) gets the raw bytes
/// (`?name=<name>`, `application/octet-stream`); an asset of that name already on the release is deleted first.
/// GitLab: the bytes go to the project's generic package registry (`PUT /projects/:id/packages/generic/release/<tag>/<name>`),
/// then the release gets a link of that name to it (an existing link of that name deleted first). The package
/// registry, not `/projects/:id/uploads`: CI_JOB_TOKEN may write packages but not project uploads, and the raw
/// bytes need no multipart body. The bytes go to curl by path (its config on stdin); the token only in a header.
enum ForgeAssets {
    static let option = OptionSpec(
        name: "--asset",
        valueName: "FILE",
        help: "Attach FILE to the release under its base name, replacing an asset of that name (repeatable).",
        completion: .file,
        repeatable: true
    )

    /// The `--asset` files of a `publish-release` run, checked (see `files(_:currentDirectory:rerun:)`).
    static func files(_ arguments: ParsedArguments, tag: String, currentDirectory: String) throws -> [File] {
        try files(arguments.values("--asset"), currentDirectory: currentDirectory, rerun: rerun(arguments, tag: tag))
    }

    /// The `publish-release` command that finishes a run, quoted: the same tag, remote and files.
    static func rerun(_ arguments: ParsedArguments, tag: String) -> String {
        var words = ["relctl", "publish-release", tag]
        if let remote = arguments.value("--remote") { words += ["--remote", remote] }
        for path in arguments.values("--asset") { words += ["--asset", path] }
        return "'" + words.map(shellWord).joined(separator: " ") + "'"
    }

    /// A word as a shell reads it back: double-quoted when it holds anything but plain characters.
    static func shellWord(_ word: String) -> String {
        let plain = word.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-_./=+:@,".contains($0)) }
        guard !plain || word.isEmpty else { return word }
        let escaped = word.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        return "\"" + escaped + "\""
    }

    /// Attaches `files` to the release of `tag` just made (at `release`), saying each; an upload that fails is the
    /// one line naming what exists and the command that finishes.
    static func attach(
        _ files: [File],
        _ arguments: ParsedArguments,
        tag: String,
        to target: ForgeReleases.Target,
        release: String,
        context: CommandContext
    ) throws -> [Asset] {
        guard !files.isEmpty else { return [] }
        var assets: [Asset] = []
        do {
            try attach(files, tag: tag, to: target, environment: context.environment) { assets.append($0) }
        } catch {
            let names = assets.map(\.name).joined(separator: ", ")
            let attached = assets.isEmpty ? "no asset attached yet" : "attached: \(names)"
            throw Problem(
                "the \(target.name) release \(tag) exists (\(release); \(attached)), but an upload failed: \(error.message); "
                    + "fix the cause and rerun \(rerun(arguments, tag: tag))"
            )
        }
        for asset in assets {
            context.output.message("attached \(asset.name) to the \(target.name) release \(tag): \(asset.url)")
        }
        return assets
    }

    /// `--json`'s `assets`: `[{"name","url"}]`.
    static func json(_ assets: [Asset]) -> JSONOutput {
        .array(assets.map { .object([("name", .string($0.name)), ("url", .string($0.url))]) })
    }

    /// A file to attach: where it is (absolute) and the name it gets.
    struct File {
        let path: String
        let name: String
    }

    /// An attached file: its name and download URL.
    struct Asset {
        let name: String
        let url: String
    }

    /// The `--asset` files, checked before anything is sent: each a readable regular file, no two with one base name.
    static func files(_ paths: [String], currentDirectory: String, rerun: String) throws -> [File] {
        var files: [File] = []
        for given in paths {
            let path = given.hasPrefix("/") ? given : LexicalPath.join(currentDirectory, given)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw Problem("--asset \(given): no such file (\(path)); build it first (make dist writes .build/dist/) or fix the path, then rerun \(rerun)")
            }
            guard !isDirectory.boolValue else {
                throw Problem("--asset \(given) is a folder (\(path)); name a file (archive the folder first), then rerun \(rerun)")
            }
            guard FileManager.default.isReadableFile(atPath: path) else {
                throw Problem("--asset \(given) cannot be read (\(path)); fix its permissions (chmod u+r), then rerun \(rerun)")
            }
            let name = (path as NSString).lastPathComponent
            if let other = files.first(where: { $0.name == name }) {
                throw Problem(
                    "--asset \(given) and --asset \(other.path) have one name (\(name)), and a release holds one asset per name; rename one, then rerun \(rerun)"
                )
            }
            files.append(File(path: path, name: name))
        }
        return files
    }

    /// Attaches `files` to the release of `tag` (already made), telling `done` each asset attached, so a caller
    /// knows what was attached before a failure.
    static func attach(
        _ files: [File], tag: String, to target: ForgeReleases.Target,
        environment: [String: String], done: (Asset) -> Void
    ) throws(Problem) {
        if target.forge == .github {
            try github(files, tag: tag, target, environment, done: done)
        } else {
            try gitlab(files, tag: tag, target, environment, done: done)
        }
    }

    // MARK: GitHub

    static func github(
        _ files: [File], tag: String, _ target: ForgeReleases.Target, _ environment: [String: String],
        done: (Asset) -> Void
    ) throws(Problem) {
        let base = "\(target.api)/repos/\(target.project)/releases"
        let found = try send(target, "GET", "\(base)/tags/\(StoreHTTP.escaped(tag))", environment)
        guard found.status == 200, let release = ForgeReleases.object(found) else {
            throw ForgeReleases.refusal(found, target, doing: "looking up the release \(tag) for its assets")
        }
        guard let template = release["upload_url"] as? String, !template.isEmpty else {
            throw Problem("\(target.name) answered the lookup of the release \(tag) without its upload_url", kind: .forge)
        }
        let uploadURL = template.range(of: "{").map { String(template[..<$0.lowerBound]) } ?? template
        guard mayReceiveToken(uploadURL, api: target.api) else {
            let host = StoreHTTP.host(of: uploadURL)
            let why = "an upload_url on another host (\(host)), which the token is never sent to"
            throw Problem("\(target.name) gave the release \(tag) \(why)", kind: .forge)
        }
        var existing: [(id: Int, name: String)] = ((release["assets"] as? [[String: Any]]) ?? []).compactMap { asset in
            guard let id = (asset["id"] as? NSNumber)?.intValue, let name = asset["name"] as? String else { return nil }
            return (id, name)
        }
        for file in files {
            for old in existing where old.name == file.name {
                let gone = try send(target, "DELETE", "\(base)/assets/\(old.id)", environment)
                guard gone.status == 204 || gone.status == 200 || gone.status == 404 else {
                    throw ForgeReleases.refusal(gone, target, doing: "deleting the earlier asset \(file.name) of the release \(tag)")
                }
            }
            existing.removeAll { $0.name == file.name }
            var request = request(target, "POST", "\(uploadURL)?name=\(StoreHTTP.escaped(file.name))")
            request.bodyFile = file.path
            let answer = try send(request, target, environment)
            guard answer.status == 201 || answer.status == 200 else {
                throw ForgeReleases.refusal(answer, target, doing: "uploading \(file.name) to the release \(tag)")
            }
            let url =
                ForgeReleases.object(answer)?["browser_download_url"] as? String
                ?? "\(target.web)/releases/download/\(StoreHTTP.escaped(tag))/\(StoreHTTP.escaped(file.name))"
            done(Asset(name: file.name, url: url))
        }
    }

    // MARK: GitLab

    static func gitlab(
        _ files: [File], tag: String, _ target: ForgeReleases.Target, _ environment: [String: String],
        done: (Asset) -> Void
    ) throws(Problem) {
        let project = "\(target.api)/projects/\(StoreHTTP.escaped(target.project))"
        let links = "\(project)/releases/\(StoreHTTP.escaped(tag))/assets/links"
        let listed = try send(target, "GET", links, environment)
        guard listed.status == 200 else { throw ForgeReleases.refusal(listed, target, doing: "listing the links of the release \(tag)") }
        var existing: [(id: Int, name: String)] = (((try? JSONSerialization.jsonObject(with: listed.body)) as? [[String: Any]]) ?? []).compactMap { link in
            guard let id = (link["id"] as? NSNumber)?.intValue, let name = link["name"] as? String else { return nil }
            return (id, name)
        }
        for file in files {
            let packageURL = "\(project)/packages/generic/release/\(StoreHTTP.escaped(tag))/\(StoreHTTP.escaped(file.name))"
            var put = request(target, "PUT", packageURL)
            put.bodyFile = file.path
            let stored = try send(put, target, environment)
            guard stored.status == 201 || stored.status == 200 else {
                throw ForgeReleases.refusal(stored, target, doing: "uploading \(file.name) to the package registry for the release \(tag)")
            }
            for old in existing where old.name == file.name {
                let gone = try send(target, "DELETE", "\(links)/\(old.id)", environment)
                guard gone.status == 200 || gone.status == 204 || gone.status == 404 else {
                    throw ForgeReleases.refusal(gone, target, doing: "deleting the earlier link \(file.name) of the release \(tag)")
                }
            }
            existing.removeAll { $0.name == file.name }
            var link = request(target, "POST", links)
            link.body = Data(
                JSONOutput.object([
                    ("name", .string(file.name)), ("url", .string(packageURL)),
                    ("link_type", .string("package")),
                ]).rendered().utf8)
            let made = try send(link, target, environment)
            guard made.status == 201 || made.status == 200 else {
                throw ForgeReleases.refusal(made, target, doing: "linking \(file.name) to the release \(tag)")
            }
            done(Asset(name: file.name, url: ForgeReleases.object(made)?["url"] as? String ?? packageURL))
        }
    }

    // MARK: Requests

    static func request(_ target: ForgeReleases.Target, _ method: String, _ url: String) -> StoreHTTP.Request {
        ForgeReleases.request(target, method, url)
    }

    static func send(
        _ target: ForgeReleases.Target, _ method: String, _ url: String,
        _ environment: [String: String]
    ) throws(Problem) -> StoreHTTP.Response {
        try ForgeReleases.send(target, method, url, body: nil, environment)
    }

    static func send(
        _ request: StoreHTTP.Request, _ target: ForgeReleases.Target,
        _ environment: [String: String]
    ) throws(Problem) -> StoreHTTP.Response {
        try ForgeReleases.send(request, target, environment)
    }

    /// Whether the token may go to `uploadURL`, a URL the API's answer gave: the API's own host, or GitHub's upload
    /// host beside api.github.com. Any other host never gets it.
    static func mayReceiveToken(_ uploadURL: String, api: String) -> Bool {
        guard let upload = URL(string: uploadURL), let base = URL(string: api), let host = upload.host?.lowercased() else { return false }
        // Never from https down to http.
        guard upload.scheme == base.scheme || upload.scheme == "https" else { return false }
        let apiHost = base.host?.lowercased()
        if host == apiHost && upload.port == base.port { return true }
        return apiHost == "api.github.com" && host == "uploads.github.com" && upload.scheme == "https"
    }
}
