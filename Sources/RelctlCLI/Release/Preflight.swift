#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
import RelctlCore
import RelctlGit

/// The second phase of a release: every reason not to release, each one line with its fix. Reads only.
struct Preflight {
    /// The problems, in the order they are shown.
    var problems: [Problem] = []
    /// The previous release tag when it was made here but never pushed: pushed before the new one.
    var unpublishedBase: String?
    /// When `--push` cannot reach the remote: the one problem a dry run only warns about (it needs no
    /// credentials); a real run refuses.
    var unreachableRemote: Problem?

    static func check(_ plan: ReleasePlan, workspace: Workspace, analysis: ReleaseAnalysis, push: Bool, remote: String,
                      allowDirty: Bool, context: CommandContext) throws -> Preflight {
        let repository = workspace.repository
        let config = workspace.config
        var result = Preflight()
        func problem(_ text: String) { result.problems.append(Problem(text)) }
        var dirty = try repository.status()
        // The other projects released with this one check their own markers (`release --all`).
        dirty.removeAll { workspace.markersCheckedElsewhere.contains($0.path) }
        // The halt's own marker is part of the release; any other uncommitted marker is a problem of its own.
        let markerEntry = dirty.first { $0.path == workspace.markerRelativePath }
        switch MajorReleaseMarkerCheck.verdict(plan, pending: workspace.pendingMajor, entry: markerEntry,
                                               floor: workspace.floorDecision) {
        case .notInvolved:
            break
        case .own:
            dirty.removeAll { $0 == markerEntry }
        case .problem(let text):
            dirty.removeAll { $0 == markerEntry }
            problem(text)
        }
        // The config drives the release: an untracked or edited one is committed first (the command is given), or
        // with the release when --include-config put it in the plan; --allow-dirty never covers it.
        let configPath = config.absolutePath.flatMap { LexicalPath.relative($0, to: plan.root) }
        if let configPath, let entry = dirty.first(where: { $0.path == configPath }) {
            dirty.removeAll { $0 == entry }
            if !plan.changedPaths.contains(configPath) {
                let state = entry.untracked ? "is not committed yet" : "has uncommitted changes"
                let message = entry.untracked ? "chore: add relctl config" : "chore: update relctl config"
                problem("\(configPath) \(state), and the release reads it; commit it first: git add \(Self.shellWord(configPath)) && git commit -m \"\(message)\" (or pass --include-config to commit it with this release)")
            }
        }
        if !allowDirty {
            if !dirty.isEmpty {
                let names = dirty.prefix(3).map(\.path).joined(separator: ", ") + (dirty.count > 3 ? ", …" : "")
                problem("the work tree has \(dirty.count) uncommitted or untracked file\(dirty.count == 1 ? "" : "s") (\(names)); commit or stash them, or pass --allow-dirty")
            }
        } else {
            // --allow-dirty lets unrelated files be; a file the release itself commits (or the config that
            // drives it) must be as committed, or the release would commit (or depend on) unreviewed edits.
            let root = plan.root
            let inRoot = { (path: String) in LexicalPath.inRepository(path, root: root) }
            let owned = Set(plan.changedPaths + config.files.compactMap { inRoot($0.path) }
                            + [config.changelogPath, workspace.markerRelativePath, config.absolutePath ?? Config.fileName]
                                .compactMap { $0 }.compactMap(inRoot))
            let touched = dirty.map(\.path).filter(owned.contains)
            if !touched.isEmpty {
                problem("\(touched.joined(separator: ", ")) \(touched.count == 1 ? "has" : "have") uncommitted changes and \(touched.count == 1 ? "is" : "are") part of the release; commit or stash \(touched.count == 1 ? "it" : "them") first (--allow-dirty only covers other files)")
            }
        }
        if FileManager.default.fileExists(atPath: repository.gitDir + "/index.lock") {
            problem("another git process holds the index (\(repository.gitDir)/index.lock); wait for it to finish, or delete the file if no git command is running")
        }
        // git's lock files of the branch and the tag (a killed git or relctl leaves them): named with the fix.
        for lock in GitLockFiles.present(gitDir: repository.gitDir, branch: plan.branch, tags: [plan.tag])
        where !lock.hasSuffix("/index.lock") {
            problem(GitLockFiles.problem(lock))
        }
        for key in ["commit.gpgsign", "tag.gpgsign"] where ["true", "yes", "on", "1"].contains(repository.configValue(key)?.lowercased() ?? "") {
            context.output.warning("\(key) is set, but relctl cannot sign (libgit2 has no signing): the release \(key.hasPrefix("tag") ? "tag" : "commit") will be unsigned; a branch that requires signed commits will refuse the push")
        }
        if let branch = plan.branch {
            if !config.isReleaseBranch(branch) {
                problem("'\(branch)' is not a release branch (\(config.branches.joined(separator: ", "))); check out one, or add it to \"branches\" in .relctl.json")
            }
        } else {
            problem("HEAD is detached; check out a release branch (\(config.branches.joined(separator: ", ")))")
        }
        if let existing = try repository.referenceTarget("refs/tags/\(plan.tag)") {
            problem("tag \(plan.tag) already exists (\(existing.hex.prefix(12))) but is not an ancestor release of HEAD; delete it (git tag -d \(plan.tag)) if it is wrong, or check out the history it belongs to")
        }
        // Every problem planning found (the identity, the files), each on its own line.
        result.problems += plan.problems
        if push {
            let remoteCheck = Publishing.check(plan, baseTag: analysis.lastReleaseTag, repository: repository, remote: remote,
                                                   environment: context.environment)
            result.problems += remoteCheck.problems
            result.unpublishedBase = remoteCheck.unpublishedBase
            result.unreachableRemote = remoteCheck.unreachable
        }
        return result
    }
}

extension Preflight {
    /// `path` as one shell word: as it is when it holds only safe characters, else in single quotes.
    static func shellWord(_ path: String) -> String {
        let safe = path.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || "._-/+@%=,:".unicodeScalars.contains($0)
        }
        return safe && !path.isEmpty ? path : "'" + path.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}

/// A release refused by its preflight (or by the never-backwards rule before it): every problem on stderr, then
/// how many there were and that nothing was changed. A dry run fails exactly as the real run would. A type of its
/// own, not a `Problem`, because it carries the list of problems, each printed with its own location and severity.
struct PreflightFailure: Error {
    let problems: [Problem]

    var summary: String {
        "nothing was changed (\(problems.count) preflight problem\(problems.count == 1 ? "" : "s"))"
    }
}
