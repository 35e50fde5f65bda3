import Foundation
import RelctlCore
import RelctlFiles
import RelctlGit

/// A decision about the gate, recorded as one commit: the document's new bytes (when a value moves) and the
/// `.major-release-pending` marker removed (when the decision resolves it), with a message naming the decision.
/// Recorded by a `RepositoryTransaction`, as a release is: journaled, all or nothing, and a run killed on the way
/// is finished or rolled back by the next command that takes the lock.
struct GateDecisionCommit {
    /// The decision (`gate raise-min`) and what it is about (`3.0.0 --platform ios`), as the journal names it.
    var kind: TransactionJournal.Kind
    var subject: String
    /// The document's change; nil when the decision leaves it alone (`keep-min`).
    var document: FileWrite?
    /// The document's path relative to the root (what the commit names).
    var documentPath: String?
    /// The marker to remove: its bytes, so a failed commit can put it back.
    var marker: (path: String, bytes: [UInt8])?
    /// The marker's root-relative path: inside the project's folder for a project (`apps/consumer/.major-release-pending`).
    var markerRelativePath = MajorReleaseMarker.fileName
    var message: String

    /// `message`'s body lines are wrapped at 72 columns, as git's tools show them best; its title is kept.
    init(_ kind: TransactionJournal.Kind, subject: String, document: FileWrite?, documentPath: String?,
         marker: (path: String, bytes: [UInt8])?, message: String) {
        self.kind = kind
        self.subject = subject
        self.document = document
        self.documentPath = documentPath
        self.marker = marker
        self.message = Self.wrapped(message)
    }

    static func wrapped(_ message: String, width: Int = 72) -> String {
        var lines = message.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for index in lines.indices.dropFirst().reversed() where lines[index].count > width {
            var wrapped: [String] = []
            var current = ""
            for word in lines[index].split(separator: " ") {
                if !current.isEmpty && current.count + 1 + word.count > width {
                    wrapped.append(current)
                    current = ""
                }
                current += (current.isEmpty ? "" : " ") + word
            }
            wrapped.append(current)
            lines.replaceSubrange(index...index, with: wrapped)
        }
        return lines.joined(separator: "\n")
    }

    /// The root-relative paths the commit changes.
    var paths: [String] {
        [documentPath].compactMap { $0 } + (marker == nil ? [] : [markerRelativePath])
    }

    /// What `git diff` would show for the change, for `--dry-run`: the document's edit and the marker's removal.
    func diff() -> String {
        var text = ""
        if let document, let documentPath {
            text += UnifiedDiff.render(old: document.oldBytes, new: document.newBytes, path: documentPath)
        }
        if let marker {
            text += Self.deletionDiff(marker.bytes, path: markerRelativePath)
        }
        return text
    }

    /// A removed file as `git diff` shows it: `deleted file mode 100644` against `/dev/null`.
    static func deletionDiff(_ bytes: [UInt8], path: String) -> String {
        let rendered = UnifiedDiff.render(old: bytes, new: [], path: path)
        guard let hunks = rendered.range(of: "\n@@") else { return rendered }
        return "diff --git a/\(path) b/\(path)\ndeleted file mode 100644\n--- a/\(path)\n+++ /dev/null" + rendered[hunks.lowerBound...]
    }

    /// Before anything is written: HEAD on a branch, a committer, and none of the paths changed in the work tree
    /// or the index (the commit must hold relctl's edit only). Returns what the commit needs.
    func preflight(_ workspace: Workspace, environment: [String: String]) throws -> (head: ObjectID, identities: Identities?) {
        let repository = workspace.repository
        guard let head = try repository.headCommit() else {
            throw Problem("the repository has no commits yet; commit the gate document first")
        }
        guard try repository.headReferenceName() != nil else {
            throw Problem("HEAD is detached, so there is no branch to record the decision on; check out the branch the gate document lives on (git switch main)")
        }
        let changed = try repository.status()
        for path in paths {
            if let entry = changed.first(where: { $0.path == path }) {
                throw Problem(entry.untracked ? "is not committed yet" : "has uncommitted changes", at: DiagnosticLocation(path: path),
                              hint: "commit or stash them first, so the decision's commit holds only relctl's change")
            }
        }
        let identities: Identities?
        do {
            identities = try repository.identities(environment: environment)
        } catch {
            throw Problem(error.message)
        }
        return (head, identities)
    }

    /// `--json` when nothing changes (the value is already what was asked): the same object, `changed` false.
    static func unchangedJSON(_ fields: [(String, JSONOutput)]) -> JSONOutput {
        .object([("schemaVersion", .int(1))] + fields + [("changed", .bool(false)), ("paths", .array([])), ("message", .null),
                                                          ("commit", .null), ("dryRun", .bool(false)), ("diff", .null)])
    }

    static let noIdentity = "no identity for the commit: set git config user.name and user.email, or GIT_COMMITTER_NAME/GIT_COMMITTER_EMAIL"

    /// Records the decision, or with `dryRun` shows it: the diff on stdout, the commit message on stderr, nothing
    /// written. `done` is the result line ("raised … to 3.0.0 in …"); `deployHint` what to run next.
    /// With `json` (`--json`), stdout gets one object instead: `schemaVersion`, the decision's own fields (`json`),
    /// then `paths`, `message`, `commit` (null in a dry run), `dryRun` and `diff` (the dry run's, else null).
    ///
    /// `publish` (`--publish`): run once the commit is made, returning the lines to print; when it fails, the commit
    /// is undone and the failure says nothing changed live.
    func record(_ workspace: Workspace, context: CommandContext, dryRun: Bool, done: String, deployHint: String?,
                json: [(String, JSONOutput)]? = nil, publish: (() throws -> [String])? = nil) throws {
        let output = context.output
        let (head, identities) = try preflight(workspace, environment: context.environment)
        func printJSON(commit: ObjectID?) {
            guard let json else { return }
            output.result(JSONOutput.object([("schemaVersion", .int(1))] + json + [
                ("changed", .bool(true)),
                ("paths", .array(paths.map(JSONOutput.string))), ("message", .string(message)),
                ("commit", .optional(commit?.hex)), ("dryRun", .bool(dryRun)), ("diff", dryRun ? .string(diff()) : .null),
            ]).rendered())
        }
        if dryRun {
            if json != nil { printJSON(commit: nil) } else { output.resultText(diff()) }
            if identities == nil { output.warning(Self.noIdentity) }
            output.message("dry run: nothing was changed\(publish == nil ? "" : " and nothing was published (--publish publishes right after the commit)"); the commit would be:")
            for line in message.split(separator: "\n", omittingEmptySubsequences: false).dropLast(message.hasSuffix("\n") ? 1 : 0) {
                output.message("    \(line)")
            }
            return
        }
        guard let identities else { throw Problem(Self.noIdentity) }
        var published: [String] = []
        let commit = try apply(workspace, head: head, identities: identities, faults: FaultInjection(context.environment),
                               afterCommit: publish.map { publish in { published = try publish() } })
        for line in published { output.message(line) }
        if json != nil {
            printJSON(commit: commit)
            output.message("\(done) (commit \(commit.hex.prefix(12)))")
        } else {
            output.result("\(done) (commit \(commit.hex.prefix(12)))")
        }
        if let deployHint, publish == nil { output.note(deployHint) }
    }

    /// Writes, removes, commits, through the one `RepositoryTransaction`. Returns the new commit.
    /// `afterCommit`: run once the commit is made (the Remote Config publish); when it throws, the commit is undone.
    func apply(_ workspace: Workspace, head: ObjectID, identities: Identities, faults: FaultInjection,
               afterCommit: (() throws -> Void)? = nil) throws -> ObjectID {
        let repository = workspace.repository
        // The command took the lock before it read the document (`Workspace.open(…, locked:)`); else it is taken here.
        let lock = workspace.lock == nil ? try RepositoryLock.acquire(gitDir: repository.gitDir, command: "gate") : nil
        defer { lock?.release() }
        try InterruptedRelease.refuse(gitDir: repository.gitDir)
        var transaction = RepositoryTransaction(
            .init(kind: kind, subject: subject, failed: "the decision could not be committed",
                  restored: "the gate document, the marker and the index were restored",
                  keptAdvice: TransactionJournal.advice(for: kind), checkAdvice: "check 'git status'"),
            root: workspace.root, head: head, identities: identities)
        transaction.writes = document.map { [$0] } ?? []
        transaction.deletions = marker.map { [.init(path: $0.path, bytes: $0.bytes)] } ?? []
        transaction.commitMessage = message
        let applied = try transaction.apply(repository: repository, faults: faults)
        guard let commit = applied.commit else {
            throw Problem.internalError("a gate decision made no commit")
        }
        if let afterCommit {
            do {
                try afterCommit()
            } catch {
                // The publish failed: nothing is live, so the commit must not stand either.
                let reason = ErrorReport.reason(error)
                let undone = transaction.undo(applied, repository: repository)
                throw Problem("the publish failed, so nothing changed live (\(reason)); the decision's commit \(commit.hex.prefix(12)) was undone: \(undone)")
            }
        }
        return commit
    }
}
