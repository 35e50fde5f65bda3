import Foundation
import RelctlCore
import RelctlFiles
import RelctlGit

/// Everything a release will write, computed in memory before anything is touched.
struct ReleasePlan {
    let root: String
    let version: String
    let previousVersion: String?
    let bump: Bump
    let tag: String
    let branch: String?
    let head: ObjectID
    /// File writes in order: version files, changelog, marker.
    let writes: [FileWrite]
    let changelogSection: String?
    let commitMessage: String
    let tagMessage: String
    let notice: MajorReleaseNotice?
    let identities: Identities?
    /// The store-rule or file problem found while planning, reported by preflight.
    let fileProblem: String?
    /// Why the identity could not be read (an unreadable GIT_*_DATE, say), reported by preflight.
    var identityProblem: String?
    /// The previous release tag when it was made here but never pushed: pushed before the new one.
    private(set) var unpublishedBase: String?
    /// Set by preflight when `--push` cannot reach the remote: the one problem a dry run only warns about
    /// (it needs no credentials); a real run refuses.
    private(set) var unreachableRemote: String?
    /// Folders `apply` had to create, removed again on rollback.
    private var createdFolders: [String] = []

    /// Paths relative to the root of every file the release commit holds, as git names them.
    var changedPaths: [String] { writes.map(relativePath) }

    /// A write's path relative to the root, normalised (`./app.json` in .relctl.json is `app.json` to git).
    func relativePath(_ write: FileWrite) -> String {
        Self.repositoryPath(write.path, root: root) ?? String(write.path.dropFirst(root.count + 1))
    }

    /// `path` relative to `root` with `.` and `..` resolved lexically; nil when it lies outside `root`.
    static func repositoryPath(_ path: String, root: String) -> String? {
        var parts: [Substring] = []
        for part in path.split(separator: "/") {
            if part == "." { continue }
            if part == ".." {
                if parts.isEmpty { return nil }
                parts.removeLast()
                continue
            }
            parts.append(part)
        }
        let rootParts = root.split(separator: "/")
        guard parts.count > rootParts.count, Array(parts.prefix(rootParts.count)) == rootParts else { return nil }
        return parts.dropFirst(rootParts.count).joined(separator: "/")
    }

    /// `build`: the build number `--build` gives both stores, instead of the buildNumber strategy.
    static func make(workspace: Workspace, analysis: ReleaseAnalysis, version: ReleaseVersion, build: String? = nil,
                     context: CommandContext) throws -> ReleasePlan {
        let repository = workspace.repository
        let config = workspace.config
        let root = workspace.root
        let tag = try TagFormat(config.tagFormat).tagName(for: version)
        guard let head = ObjectID(hex: analysis.headCommit) else { throw CLIFailure(message: "cannot read HEAD") }
        let date = Self.releaseDate(context.environment)

        var writes: [FileWrite] = []
        var fileProblem: String?
        if !config.files.isEmpty {
            do {
                let sync = try workspace.planVersionSync(version: version.description, build: build, environment: context.environment)
                for change in sync.changed {
                    if repositoryPath(change.absolutePath, root: root) == nil {
                        fileProblem = fileProblem ?? "\(change.path) is outside the repository (\(root)), so the release commit cannot hold it; list only files inside the repository in \(workspace.configDisplayPath)"
                    }
                    writes.append(change.write)
                }
            } catch let failure as CLIFailure {
                fileProblem = failure.message
            }
        }

        var section: String?
        let release = workspace.changelogRelease(version: version.description, tag: tag, analysis: analysis, date: date)
        if let changelogPath = config.changelogPath {
            let path = root + "/" + changelogPath
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue {
                fileProblem = fileProblem ?? "\(changelogPath) is a folder, not a file; point \"changelog\": {\"path\": …} in .relctl.json at a file"
            }
            let existingBytes = FileManager.default.contents(atPath: path).map { Array($0) }
            let existing = existingBytes.map { String(decoding: $0, as: UTF8.self) }
            if let existing, let existingBytes, Array(existing.utf8) != existingBytes {
                fileProblem = fileProblem ?? "\(changelogPath) is not valid UTF-8; convert it (iconv -f latin1 -t utf-8) so relctl can add the release to it without changing its other bytes"
            }
            if let existing, ChangelogFile.containsVersion(version.description, in: existing) {
                fileProblem = fileProblem ?? "\(changelogPath) already has a section for \(version); remove it or tag that release (\(tag)) by hand"
            }
            let update = ChangelogFile.update(existing, with: release)
            section = update.section
            if writes.contains(where: { $0.path == path }) {
                fileProblem = fileProblem ?? "\(changelogPath) is both a version file and the changelog; point 'changelog.path' elsewhere"
            }
            writes.append(FileWrite(path: path, oldBytes: existingBytes, newBytes: Array(update.text.utf8)))
        }

        var notice: MajorReleaseNotice?
        if analysis.bump == .major {
            let made = MajorReleaseNotice(version: version.description, previousVersion: analysis.current?.description, tag: tag,
                                          date: Self.isoDate(context.environment),
                                          breakingChanges: MajorReleaseNotice.breakingChanges(in: analysis.commits.commits))
            notice = made
            let path = root + "/" + ReleaseCommand.markerFile
            let existing = FileManager.default.contents(atPath: path).map { Array($0) }
            writes.append(FileWrite(path: path, oldBytes: existing, newBytes: Array(made.json().utf8)))
        }

        var identities: Identities?
        var identityProblem: String?
        do {
            identities = try repository.identities(environment: context.environment)
        } catch {
            identityProblem = error.message
        }

        let message = config.commitMessage
            .replacingOccurrences(of: "{version}", with: version.description)
            .replacingOccurrences(of: "{tag}", with: tag)
        var unlinked = release
        unlinked.links = nil
        let tagMessage = ReleaseNotes.tagMessage(version: tag, section: section ?? unlinked.section)

        return ReleasePlan(root: root, version: version.description, previousVersion: analysis.current?.description,
                           bump: analysis.bump, tag: tag, branch: try repository.currentBranch(), head: head,
                           writes: writes, changelogSection: section,
                           commitMessage: message.hasSuffix("\n") ? message : message + "\n",
                           tagMessage: tagMessage, notice: notice,
                           identities: identities, fileProblem: fileProblem, identityProblem: identityProblem)
    }

    /// `SOURCE_DATE_EPOCH` (reproducible builds) or today, in UTC, as YYYY-MM-DD.
    static func releaseDate(_ environment: [String: String]) -> String {
        String(isoDate(environment).prefix(10))
    }

    static func isoDate(_ environment: [String: String]) -> String {
        let seconds = TimeInterval(ReleaseClock.seconds(environment))
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: Date(timeIntervalSince1970: seconds))
    }

    // MARK: Preflight

    /// Every reason not to release, each one line with its fix. Reads only.
    mutating func preflight(workspace: Workspace, analysis: ReleaseAnalysis, push: Bool, remote: String, allowDirty: Bool,
                            context: CommandContext) throws -> [String] {
        let repository = workspace.repository
        var problems: [String] = []
        let dirty = try repository.status()
        if !allowDirty {
            if !dirty.isEmpty {
                let names = dirty.prefix(3).map(\.path).joined(separator: ", ") + (dirty.count > 3 ? ", …" : "")
                problems.append("the work tree has \(dirty.count) uncommitted or untracked file\(dirty.count == 1 ? "" : "s") (\(names)); commit or stash them, or pass --allow-dirty")
            }
        } else {
            // --allow-dirty lets unrelated files be; a file the release itself commits (or the config that
            // drives it) must be as committed, or the release would commit (or depend on) unreviewed edits.
            let root = self.root
            let inRoot = { (path: String) in Self.repositoryPath(path.hasPrefix("/") ? path : root + "/" + path, root: root) }
            let owned = Set(changedPaths + workspace.config.files.compactMap { inRoot($0.path) }
                            + [workspace.config.changelogPath, ReleaseCommand.markerFile, workspace.config.absolutePath ?? Config.fileName]
                                .compactMap { $0 }.compactMap(inRoot))
            let touched = dirty.map(\.path).filter(owned.contains)
            if !touched.isEmpty {
                problems.append("\(touched.joined(separator: ", ")) \(touched.count == 1 ? "has" : "have") uncommitted changes and \(touched.count == 1 ? "is" : "are") part of the release; commit or stash \(touched.count == 1 ? "it" : "them") first (--allow-dirty only covers other files)")
            }
        }
        if FileManager.default.fileExists(atPath: repository.gitDir + "/index.lock") {
            problems.append("another git process holds the index (\(repository.gitDir)/index.lock); wait for it to finish, or delete the file if no git command is running")
        }
        for key in ["commit.gpgsign", "tag.gpgsign"] where ["true", "yes", "on", "1"].contains(repository.configValue(key)?.lowercased() ?? "") {
            context.output.warning("\(key) is set, but relctl cannot sign (libgit2 has no signing): the release \(key.hasPrefix("tag") ? "tag" : "commit") will be unsigned; a branch that requires signed commits will refuse the push")
        }
        if let branch {
            if !workspace.config.branches.contains(where: { Self.matches(branch, pattern: $0) }) {
                problems.append("'\(branch)' is not a release branch (\(workspace.config.branches.joined(separator: ", "))); check out one, or add it to \"branches\" in .relctl.json")
            }
        } else {
            problems.append("HEAD is detached; check out a release branch (\(workspace.config.branches.joined(separator: ", ")))")
        }
        if let existing = try repository.referenceTarget("refs/tags/\(tag)") {
            problems.append("tag \(tag) already exists (\(existing.hex.prefix(12))) but is not an ancestor release of HEAD; delete it (git tag -d \(tag)) if it is wrong, or check out the history it belongs to")
        }
        if let identityProblem {
            problems.append(identityProblem)
        } else if identities == nil {
            problems.append("no committer identity: set git config user.name and user.email, or GIT_AUTHOR_NAME/GIT_AUTHOR_EMAIL and GIT_COMMITTER_NAME/GIT_COMMITTER_EMAIL")
        }
        if let fileProblem { problems.append(fileProblem) }
        if push {
            do {
                let refs = try repository.remoteReferences(remote, environment: context.environment)
                if refs["refs/tags/\(tag)"] != nil {
                    problems.append("tag \(tag) already exists on '\(remote)' (another release published it); run 'git fetch --tags \(remote)' and check the history before releasing again")
                }
                if let branch, let remoteHead = refs["refs/heads/\(branch)"], remoteHead != head {
                    let known = try repository.contains(remoteHead)
                    let behind = known ? !(try repository.isAncestor(remoteHead, of: head)) : true
                    if behind {
                        problems.append("'\(remote)/\(branch)' has commits this clone does not have; pull (git pull --rebase \(remote) \(branch)) and run relctl again")
                    }
                }
                // The previous release may never have been published (its push failed): publish it with this one.
                if let base = analysis.baseTag, let branch {
                    do {
                        if case .unpublished = try ReleaseCommand.baseTagState(base, repository: repository, branch: "refs/heads/\(branch)",
                                                                               head: head, remoteRefs: refs, remote: remote) {
                            unpublishedBase = base
                        }
                    } catch let failure as CLIFailure {
                        problems.append(failure.message)
                    }
                }
            } catch {
                let problem = "cannot reach remote '\(remote)': \((error as? GitError)?.message ?? "\(error)"); check the remote URL and credentials (RELCTL_GIT_TOKEN or GITHUB_TOKEN for HTTPS, an SSH agent for SSH)"
                unreachableRemote = problem
                problems.append(problem)
            }
        }
        return problems
    }

    /// `release/*` style patterns: a trailing `*` matches any rest.
    static func matches(_ branch: String, pattern: String) -> Bool {
        pattern.hasSuffix("*") ? branch.hasPrefix(String(pattern.dropLast())) : branch == pattern
    }

    // MARK: Apply

    struct Outcome {
        var commit: String
        var pushed: Bool
        var remote: String
        var pushFailure: String?
    }

    /// Writes, commits and tags; any failure before the tag exists undoes everything (files, index, branch).
    mutating func apply(workspace: Workspace, push: Bool, remote: String, context: CommandContext) throws -> Outcome {
        let repository = workspace.repository
        guard let identities, let branch = try repository.headReferenceName() else {
            throw CLIFailure(message: "preflight passed but HEAD or the identity changed; run relctl again")
        }
        let faults = FaultInjection(context.environment)
        // A new changelog may live in a folder that does not exist yet (docs/CHANGES.md).
        createdFolders = []
        for write in writes where write.oldBytes == nil {
            var missing: [String] = []
            var folder = (write.path as NSString).deletingLastPathComponent
            while !folder.isEmpty, folder != root, !FileManager.default.fileExists(atPath: folder) {
                missing.insert(folder, at: 0)
                folder = (folder as NSString).deletingLastPathComponent
            }
            for folder in missing {
                guard mkdir(folder, 0o755) == 0 else {
                    removeCreatedFolders()
                    throw CLIFailure(message: "cannot create folder \(folder): \(String(cString: strerror(errno))); nothing was changed")
                }
                createdFolders.append(folder)
            }
        }
        do {
            try TransactionalWriter.write(writes)
        } catch {
            removeCreatedFolders()
            throw CLIFailure(message: "\(error.description); nothing was changed")
        }
        var commit: ObjectID?
        var indexTouched = false
        do {
            try faults.check("after-write")
            indexTouched = true
            commit = try repository.commit(paths: changedPaths, message: commitMessage, identities: identities, expectedParent: head)
            try faults.check("after-commit")
            try repository.createAnnotatedTag(tag, target: commit!, message: tagMessage, tagger: identities.committer)
            try faults.check("after-tag")
        } catch {
            // A commit refused because git's index is locked never wrote the index: nothing to restore there.
            if commit == nil, let gitError = error as? GitError, gitError.kind == .locked { indexTouched = false }
            let undone = rollback(repository: repository, branch: branch, commit: commit, indexTouched: indexTouched)
            let what = (error as? GitError)?.description ?? (error as? CLIFailure)?.message ?? "\(error)"
            throw CLIFailure(message: "release \(version) failed: \(what); " + (undone.isEmpty
                ? "every file, the index and the branch were restored"
                : "could not restore \(undone.joined(separator: ", ")); check 'git status'"))
        }
        var outcome = Outcome(commit: commit!.hex, pushed: false, remote: remote)
        if push {
            do {
                try faults.check("before-push")
                try ReleaseCommand.pushRelease(repository, branch: branch, tags: [unpublishedBase, tag].compactMap { $0 },
                                               remote: remote, context: context)
                outcome.pushed = true
            } catch let failure as CLIFailure {
                outcome.pushFailure = failure.message
            }
        }
        return outcome
    }

    /// Undoes a release in progress: the tag, the branch move, the index, and every written file.
    private mutating func rollback(repository: Repository, branch: String, commit: ObjectID?, indexTouched: Bool) -> [String] {
        var failures: [String] = []
        if let commit {
            if (try? repository.referenceTarget("refs/tags/\(tag)")) != nil {
                // Only a tag this run made: its target is our new commit.
                if let tagCommit = try? repository.tag(named: tag).flatMap({ try repository.commit(of: $0) }),
                   tagCommit == commit {
                    if (try? repository.deleteReference("refs/tags/\(tag)")) == nil { failures.append("tag \(tag)") }
                }
            }
            do { try repository.moveReference(branch, to: head, expecting: commit, message: "relctl: roll back release \(version)") }
            catch { failures.append(branch) }
        }
        if indexTouched, (try? repository.resetIndex(to: head, paths: changedPaths)) == nil { failures.append("the index") }
        failures += TransactionalWriter.undo(writes)
        removeCreatedFolders()
        return failures
    }

    private func removeCreatedFolders() {
        for folder in createdFolders.reversed() { rmdir(folder) }
    }
}

/// Test hook: `RELCTL_TEST_FAULT=after-write|after-commit|after-tag|before-push` makes the release fail there,
/// so tests can prove the rollback leaves the repository as it was.
struct FaultInjection {
    let point: String?
    init(_ environment: [String: String]) { point = environment["RELCTL_TEST_FAULT"] }

    func check(_ here: String) throws {
        if point == here { throw CLIFailure(message: "injected fault at \(here)") }
    }
}
