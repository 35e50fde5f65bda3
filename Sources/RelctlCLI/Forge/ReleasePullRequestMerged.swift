import Foundation
import RelctlCore
import RelctlFiles
import RelctlGit

/// `relctl release` on a branch whose HEAD is a merged release pull request (merge commit, squash or rebase): the
/// version files already hold X.Y.Z, the changelog has its section, the message names `chore(release): X.Y.Z`, and
/// no tag X.Y.Z exists. The release only tags HEAD, pushes the tag (the branch is already on the remote: the merge
/// was the only write to it) and makes the forge release; the request's label moves from pending to tagged.
/// Merging the request of a major release was the human confirmation: no `--confirm-major`, and the committed
/// `.major-release-pending` stays for `relctl gate`.
enum MergedReleasePullRequest {
    struct Found {
        let version: String
        let tag: String
        let head: ObjectID
        /// The changelog section as merged (nil: no changelog configured or no section).
        let section: String?
        /// How many first-parent commits HEAD is above it (0: HEAD is the merged release).
        var below = 0
        var bump: Bump?
    }

    /// The merged release HEAD is, else one below HEAD on its first-parent line (a request merged after it landed
    /// first, before the release ran), or nil (then the release goes on as usual).
    static func find(workspace: Workspace, analysis: ReleaseAnalysis) throws -> Found? {
        if let atHead = try findAtHead(workspace: workspace, analysis: analysis) { return atHead }
        return try findBelowHead(workspace: workspace, analysis: analysis)
    }

    /// Whether a commit's message (a squash's, a rebase's, or a merge commit's body and the merged commit's) names
    /// `subject`; with `version` nil, the version it names after the subject's prefix.
    static func namedVersion(_ commit: ObjectID, prefix: String, repository: Repository) throws -> String? {
        var messages = [try repository.commitMessage(commit)]
        let parents = try repository.parents(of: commit)
        if parents.count > 1, try repository.contains(parents[1]) { messages.append(try repository.commitMessage(parents[1])) }
        for message in messages {
            for line in message.split(separator: "\n") {
                var text = line.trimmingCharacters(in: .whitespaces)
                if text.hasPrefix("* ") { text.removeFirst(2) }
                guard text.hasPrefix(prefix) else { continue }
                let version = text.dropFirst(prefix.count).prefix { !$0.isWhitespace }
                if !version.isEmpty { return String(version) }
            }
        }
        return nil
    }

    /// Below HEAD: the newest first-parent commit since the base tag whose message names `chore(release): X.Y.Z`
    /// of a semver X.Y.Z above the base, untagged, whose committed changelog has its section.
    static func findBelowHead(workspace: Workspace, analysis: ReleaseAnalysis) throws -> Found? {
        let config = workspace.config
        let repository = workspace.repository
        guard !analysis.track.isPrerelease, let head = ObjectID(hex: analysis.headCommit),
              let range = config.commitMessage.range(of: "{version}") else { return nil }
        let format = try TagFormat(config.tagFormat)
        guard !format.carriesBuild else { return nil }
        let prefix = String(config.commitMessage[..<range.lowerBound])
        guard !prefix.isEmpty, !prefix.contains("{") else { return nil }
        // Only after a release tag (a first release is proposed and merged at HEAD), and only while the version
        // files still hold the merged version (the commits after it did not change them).
        guard analysis.baseTag != nil, let current = analysis.current.flatMap({ try? SemanticVersion.parse($0.description) }) else { return nil }
        let held = config.files.isEmpty ? nil : workspace.versionFloor()
        if !config.files.isEmpty && (held?.agreed != true || held?.held == nil) { return nil }
        var commit = try repository.firstParent(of: head)
        var below = 1
        while let at = commit, at != analysis.baseCommit, below <= 200 {
            if let text = try namedVersion(at, prefix: prefix, repository: repository),
               let version = try? SemanticVersion.parse(text), version.isStable, version > current {
                if let site = held?.held, VersionOrder.compare(VersionFloor.compared(site.value),
                                                               site.keepsWholeVersion ? version.description : VersionParts(version.description).core) != .orderedSame {
                    return nil
                }
                let tag = format.tagName(for: version)
                guard try repository.referenceTarget("refs/tags/\(tag)") == nil else { return nil }
                var section: String?
                if let path = config.changelogPath {
                    let relative = LexicalPath.relative(LexicalPath.join(workspace.root, path), to: repository.workdir ?? workspace.root) ?? path
                    guard let blob = try repository.blobIDs(at: [relative], in: at)[0] else { return nil }
                    let text = String(decoding: try repository.blobBytes(blob), as: UTF8.self)
                    guard ChangelogFile.containsVersion(version.description, in: text) else { return nil }
                    section = ForgePublishing.section(of: version.description, in: text)
                }
                var found = Found(version: version.description, tag: tag, head: at, section: section)
                found.below = below
                found.bump = version.major != current.major ? .major : version.minor != current.minor ? .minor : .patch
                return found
            }
            commit = try repository.firstParent(of: at)
            below += 1
        }
        return nil
    }

    /// HEAD itself: the version the history computes, held by the files, named by the message.
    static func findAtHead(workspace: Workspace, analysis: ReleaseAnalysis) throws -> Found? {
        let config = workspace.config
        let repository = workspace.repository
        guard let next = analysis.next, !analysis.track.isPrerelease, let head = ObjectID(hex: analysis.headCommit) else { return nil }
        let format = try TagFormat(config.tagFormat)
        guard !format.carriesBuild else { return nil }
        let version = next.description
        let tag = format.tagName(for: next)
        if try repository.referenceTarget("refs/tags/\(tag)") != nil { return nil }
        // The message (the commit's own, a squash's, or a merge commit's: its body or the merged branch's commit).
        let subject = String(config.commitMessage.replacingOccurrences(of: "{version}", with: version)
            .replacingOccurrences(of: "{tag}", with: tag).prefix { $0 != "\n" })
        var messages = [try repository.commitMessage(head)]
        let parents = try repository.parents(of: head)
        if parents.count > 1, try repository.contains(parents[1]) { messages.append(try repository.commitMessage(parents[1])) }
        let named = messages.contains { message in
            message.split(separator: "\n").contains { line in
                var text = line.trimmingCharacters(in: .whitespaces)
                if text.hasPrefix("* ") { text.removeFirst(2) }
                return ReleasePullRequestForge.titleNames(text, subject)
            }
        }
        guard named else { return nil }
        // The files hold it: every version file X.Y.Z, the changelog a section for it.
        if !config.files.isEmpty {
            guard let floor = workspace.versionFloor(), floor.agreed, let held = floor.held,
                  VersionOrder.compare(VersionFloor.compared(held.value), held.keepsWholeVersion ? version : VersionParts(version).core) == .orderedSame
            else { return nil }
        }
        var section: String?
        if config.changelogPath != nil {
            guard let text = ChangelogText.read(config, root: workspace.root)?.text, ChangelogFile.containsVersion(version, in: text) else { return nil }
            section = ForgePublishing.section(of: version, in: text)
        }
        return Found(version: version, tag: tag, head: head, section: section)
    }

    /// Tags HEAD, pushes the tag (with `--push`), makes the forge release and moves the request's label.
    static func release(_ found: Found, analysis: ReleaseAnalysis, request: ReleaseRequest, workspace: Workspace,
                        context: CommandContext) throws {
        let output = context.output
        let repository = workspace.repository
        let config = workspace.config
        let tagMessage = ReleaseNotes.tagMessage(version: found.tag, section: found.section ?? fallbackSection(found, analysis: analysis, workspace: workspace, context: context))
        var report = ReleaseReport(publishing: found.tag, analysis: analysis, pushed: false,
                                   majorPending: workspace.pendingMajor?.notice?.version == found.version, dryRun: request.dryRun)
        report.version = found.version
        report.previousVersion = analysis.current?.description
        report.bump = found.bump ?? analysis.bump
        report.changelog = found.section
        report.commit = found.head.hex
        guard let branch = try repository.headReferenceName() else {
            throw Problem("HEAD is detached; check out the release branch to tag \(found.version)")
        }
        let short = Publishing.shortBranch(branch)
        guard config.isReleaseBranch(short) else {
            throw Problem("'\(short)' is not a release branch (\(config.branches.joined(separator: ", "))); check out one, or add it to \"branches\" in \(workspace.configDisplayPath)")
        }
        let bump = found.bump ?? analysis.bump
        if bump == .major {
            output.note("major release \(found.version) was confirmed by merging its pull request: no --confirm-major needed; min_supported_version is not changed (\(workspace.markerRelativePath) stays for 'relctl gate')")
        }
        var branchThere = false
        if request.push {
            let refs = try Publishing.remoteReferences(repository, remote: request.remote, environment: context.environment)
            if refs["refs/tags/\(found.tag)"] != nil {
                throw Problem("tag \(found.tag) already exists on '\(request.remote)' (another release published it); pull it with its tags (git pull --rebase --tags \(request.remote) \(short)) and run relctl again")
            }
            if let there = refs[branch], try repository.contains(there), try repository.isAncestor(found.head, of: there) { branchThere = true }
        }
        if request.dryRun {
            output.message("dry run: \(found.below == 0 ? "HEAD" : "\(found.below) commit\(found.below == 1 ? "" : "s") below HEAD,") (\(found.head.hex.prefix(12))) is the merged release pull request of \(found.version): the real run only tags it as \(found.tag)\(request.push ? " and pushes the tag" : ""); no file is written")
            if request.json { output.result(report.json.rendered()) } else { output.result(found.version) }
            return
        }
        guard let identities = try repository.identities(environment: context.environment) else {
            throw Problem("no committer identity: set git config user.name and user.email, or GIT_AUTHOR_NAME/GIT_AUTHOR_EMAIL and GIT_COMMITTER_NAME/GIT_COMMITTER_EMAIL")
        }
        var transaction = RepositoryTransaction(.init(kind: .release, subject: found.version, failed: "release \(found.version) failed",
                                                      restored: "nothing was changed"),
                                                root: workspace.root, head: found.head, identities: identities)
        transaction.tags = [.init(name: found.tag, message: tagMessage, target: found.head)]
        _ = try transaction.apply(repository: repository, faults: FaultInjection(context.environment))
        if found.below == 0 {
            output.message("released \(found.version) (\(bump)) as \(found.tag): HEAD \(found.head.hex.prefix(12)) is its merged pull request, so only the tag was made")
        } else {
            output.message("released \(found.version) (\(bump)) as \(found.tag): \(found.head.hex.prefix(12)), \(found.below) commit\(found.below == 1 ? "" : "s") below HEAD, is its merged pull request, so only the tag was made there; the commits after it are for the next release ('relctl release-pr')")
        }
        var failure: String?
        if request.push {
            do {
                try Publishing.push(repository, branch: branch, tags: [found.tag], remote: request.remote, environment: context.environment,
                                    branchAlreadyThere: branchThere, faults: FaultInjection(context.environment))
                report.pushed = true
                output.message("pushed \(branchThere ? "" : "\(short) and ")\(found.tag) to '\(request.remote)'")
            } catch let lost as Problem where lost.kind == .pushLostRace {
                failure = "\(lost.message); the tag \(found.tag) is made here only: pull and rerun 'relctl release --push'"
            } catch let problem as Problem {
                failure = problem.message
            }
        }
        if report.pushed {
            let release = ForgeReleases.Release(tag: found.tag, title: found.tag,
                                                body: ForgePublishing.normalized(found.section ?? ForgePublishing.notes(fromTagMessage: tagMessage, tag: found.tag)),
                                                prerelease: false, latest: !analysis.track.maintenance)
            do {
                report.releaseURL = try ForgePublishing.publish(release, repository: repository, remote: request.remote, config: config, context: context)
            } catch {
                failure = error.message
            }
            moveLabel(found, branch: short, remote: request.remote, workspace: workspace, context: context)
        }
        if let failure { output.error(failure) }
        if let current = try? workspace.readVersions() {
            report.iosBuild = current.highestIOSBuild
            report.androidBuild = current.highestAndroidBuild
        }
        output.result(request.json ? report.json.rendered() : found.version)
        context.ci?.publish(outputs: report.ciOutputs, output: output)
        if failure != nil { throw ExitCode.failure }
    }

    /// Without a changelog: the notes the release would have written, from the commits.
    static func fallbackSection(_ found: Found, analysis: ReleaseAnalysis, workspace: Workspace, context: CommandContext) -> String {
        var release = ChangelogRelease.of(analysis, version: found.version, tag: found.tag,
                                          date: ReleaseClock.releaseDate(context.environment), config: workspace.config,
                                          repository: workspace.repository, environment: workspace.environment)
        release.links = nil
        return release.section
    }

    /// The merged request's label: pending → tagged. A forge that cannot be asked is a warning: the release is made.
    static func moveLabel(_ found: Found, branch: String, remote: String, workspace: Workspace, context: CommandContext) {
        var config = workspace.config
        config.forgeSettings?.releases = nil
        guard case .target(let target) = ForgeReleases.resolve(config: config, remoteURL: workspace.repository.remoteURL(remote),
                                                                environment: context.environment) else { return }
        let title = String(config.commitMessage.replacingOccurrences(of: "{version}", with: found.version)
            .replacingOccurrences(of: "{tag}", with: found.tag).prefix { $0 != "\n" })
        let prBranch = ReleasePullRequest.branchPrefix + branch
        do {
            guard let merged = try ReleasePullRequestForge.merged(from: prBranch, title: title, target: target, environment: context.environment) else { return }
            try ReleasePullRequestForge.label(merged, adding: ReleasePullRequestForge.taggedLabel, removing: ReleasePullRequestForge.pendingLabel,
                                              target: target, environment: context.environment)
            context.output.message("labelled \(ReleasePullRequestForge.name(merged, target)) '\(ReleasePullRequestForge.taggedLabel)': \(merged.url)")
        } catch {
            context.output.warning("\(found.tag) is released, but the label of its \(ReleasePullRequestForge.kind(target)) was not moved to '\(ReleasePullRequestForge.taggedLabel)': \(error.message); change it by hand")
        }
    }
}
