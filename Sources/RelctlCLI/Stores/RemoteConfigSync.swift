import Foundation
import RelctlCore

/// `gate pull` and `gate publish`: the repository's Remote Config template and the live one, kept in step through
/// the ETag. The document holds the live template as pulled, `version` included, so `publish` knows which live
/// version it was based on.
struct RemoteConfigSync {
    let workspace: Workspace
    let settings: GateSettings
    let file: GateDocumentFile
    let api: RemoteConfigAPI

    static func open(_ workspace: Workspace, command: String, warning: (String) -> Void) throws -> RemoteConfigSync {
        let settings = try workspace.config.gateSettings()
        guard settings.format == .firebase else {
            throw Problem("relctl \(command) reads and writes a Firebase Remote Config template, and 'gate.format' is \"\(settings.format.rawValue)\" in \(workspace.configDisplayPath); deploy a plain document through your API")
        }
        guard let project = settings.firebaseProjectID else {
            throw Problem("relctl \(command) needs the Firebase project: add \"firebase\": {\"projectId\": \"your-project-id\"} to 'gate' in \(workspace.configDisplayPath) (Firebase console → Project settings → Project ID)")
        }
        let credentials = try GoogleCredentials.fromEnvironment(workspace.environment, scopes: [GoogleCredentials.remoteConfigScope], warning: warning)
        guard let credentials else {
            throw Problem("relctl \(command) needs Google credentials: set \(GoogleCredentials.keyFileVariable) to a service account's key file, or \(GoogleCredentials.tokenVariable) (gcloud auth print-access-token) (README, \"Stores and Remote Config\")")
        }
        let api: RemoteConfigAPI
        do {
            api = try RemoteConfigAPI(credentials: credentials, projectID: project, environment: workspace.environment)
        } catch {
            throw Problem("\(error.reason) (\(error.url))")
        }
        return RemoteConfigSync(workspace: workspace, settings: settings, file: try workspace.config.gateDocumentFile(settings, root: workspace.root), api: api)
    }

    func failure(_ error: HTTPFailure, _ doing: String) -> Problem {
        Problem("cannot \(doing) the Remote Config template of \(api.projectID) (\(error.url)): \(error.reason)")
    }

    /// The repository's document as JSON, nil when it does not exist.
    func document() throws -> [String: Any]? {
        guard FileManager.default.fileExists(atPath: file.path) else { return nil }
        let bytes = try file.read(settings, configPath: workspace.configDisplayPath)
        guard let object = (try? JSONSerialization.jsonObject(with: Data(bytes))) as? [String: Any] else {
            throw Problem("the gate document is not a JSON object", at: DiagnosticLocation(path: file.relativePath),
                          hint: "fetch the live template again: relctl gate pull")
        }
        return object
    }

    /// `gate pull`: the live template written to the document, and the differences from the repository's copy.
    func pull(dryRun: Bool) throws -> (lines: [String], version: Int?, changed: Bool) {
        let live: RemoteConfigAPI.Live
        do { live = try api.get() } catch { throw failure(error, "read") }
        let text = try RemoteConfigTemplate.text(live.template)
        let old = try document()
        let oldText = FileManager.default.contents(atPath: file.path).map { String(decoding: $0, as: UTF8.self) }
        var lines = old.map { RemoteConfigTemplate.differences(from: $0, to: live.template) } ?? ["the document is new"]
        if lines.isEmpty && oldText != text { lines = ["no parameter or condition changed; the document is rewritten as relctl writes it (keys sorted, version \(live.versionNumber.map(String.init) ?? "none"))"] }
        let changed = oldText != text
        if changed && !dryRun {
            do {
                try Data(text.utf8).write(to: URL(fileURLWithPath: file.path), options: .atomic)
            } catch {
                throw Problem("\(file.relativePath): cannot write the pulled template (\(error.localizedDescription)); nothing was changed")
            }
        }
        return (lines, live.versionNumber, changed)
    }

    /// The parameters relctl decides: the minimum and the latest.
    var decidedKeys: [String] {
        let keys = settings.reader.keys
        return [keys.name(for: .minimumSupportedVersion), keys.name(for: .latestVersion)].compactMap { $0 }
    }

    /// `gate publish`: validated, then published with If-Match; refused when the live template moved on since the
    /// pull (unless `ontoLive`); a 412 re-reads once.
    func publish(ontoLive: Bool, dryRun: Bool) throws -> (lines: [String], version: Int?, based: Int?) {
        guard let document = try document() else {
            throw Problem("the gate document does not exist", at: DiagnosticLocation(path: file.relativePath), hint: "fetch it first: relctl gate pull")
        }
        let pulledAt = RemoteConfigTemplate.versionNumber(document)
        if pulledAt == nil && !ontoLive {
            throw Problem("\(file.relativePath) holds no \"version\": {\"versionNumber\"}, so relctl cannot tell which live template it was based on; run relctl gate pull (and reapply the change), or publish only relctl's decisions onto the live template with --onto-live")
        }
        var attempt = 0
        while true {
            attempt += 1
            let live: RemoteConfigAPI.Live
            do { live = try api.get() } catch { throw failure(error, "read") }
            if let liveVersion = live.versionNumber, let pulledAt, liveVersion > pulledAt, !ontoLive {
                let changes = RemoteConfigTemplate.differences(from: document, to: live.template)
                let list = changes.isEmpty ? "" : ": " + changes.joined(separator: "; ")
                throw Problem("the live template is at version \(liveVersion), and \(file.relativePath) was pulled at \(pulledAt); the live template differs from it\(list). Publishing would undo that: run relctl gate pull and reapply the change, or publish only relctl's decisions (\(decidedKeys.joined(separator: ", "))) onto the live template with --onto-live")
            }
            let next = RemoteConfigTemplate.applying(decidedKeys, from: document, onto: live.template)
            let changes = RemoteConfigTemplate.differences(from: live.template, to: next)
            if changes.isEmpty {
                return (["the live template (version \(live.versionNumber.map(String.init) ?? "?")) already holds \(decidedKeys.joined(separator: " and ")) as \(file.relativePath) has them; nothing to publish"], nil, live.versionNumber)
            }
            let body = RemoteConfigTemplate.body(next)
            do {
                switch try api.put(body, etag: live.etag, validateOnly: true) {
                case .mismatch:
                    if attempt < 2 { continue }
                    throw Problem("the live template changed twice while relctl published (HTTP 412, the ETag no longer matched); nothing was published: rerun relctl gate publish")
                case .published:
                    break
                }
                if dryRun { return (changes, nil, live.versionNumber) }
                switch try api.put(body, etag: live.etag, validateOnly: false) {
                case .mismatch:
                    if attempt < 2 { continue }
                    throw Problem("the live template changed twice while relctl published (HTTP 412, the ETag no longer matched); nothing was published: rerun relctl gate publish")
                case .published(let result):
                    return (changes, RemoteConfigTemplate.versionNumber(result), live.versionNumber)
                }
            } catch let error as HTTPFailure {
                throw failure(error, "publish")
            }
        }
    }
}

extension RemoteConfigSync {
    /// `--publish` on gate raise-min, set-latest and keep-min.
    static let publishOption = OptionSpec.flag("--publish", "Publish the decision to the live Remote Config template right after its commit; a failed publish undoes the commit.")

    /// The publish step of `--publish`, run once the decision's commit is made (GateDecisionCommit undoes the commit
    /// when it throws). Remote Config and the credentials are checked here, before anything is written.
    static func publishStep(_ arguments: ParsedArguments, _ workspace: Workspace, command: String, dryRun: Bool,
                            context: CommandContext) throws -> (() throws -> [String])? {
        guard arguments.has("--publish") else { return nil }
        if dryRun { return { [] } }
        let sync = try open(workspace, command: "\(command) --publish", warning: context.output.warning)
        return {
            let result = try sync.publish(ontoLive: false, dryRun: false)
            guard let version = result.version else { return result.lines }
            return ["published version \(version) of \(sync.api.projectID)'s Remote Config template"
                    + (result.based.map { " (was version \($0))" } ?? "") + "; live now:"]
                + result.lines.map { "  \($0)" } + ["record the live version: relctl gate pull, then commit"]
        }
    }
}
