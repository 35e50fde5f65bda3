import Foundation
import RelctlCore
import RelctlFiles
import RelctlGit

/// The first phase of a release: what it will write (version files, changelog, major-release marker), its commit and
/// tag messages, and the problems found on the way, all in memory. Reads the workspace; writes nothing.
enum ReleasePlanner {
    /// `build`: the build number `--build` gives both stores, instead of the buildNumber strategy. `includeConfig`:
    /// `--include-config`, the config as the work tree holds it goes into the release commit when HEAD does not
    /// hold it so.
    static func plan(workspace: Workspace, analysis: ReleaseAnalysis, version: ReleaseVersion, build: String? = nil,
                     includeConfig: Bool = false, environment: [String: String]) throws -> ReleasePlan {
        let repository = workspace.repository
        let config = workspace.config
        let root = workspace.root
        let format = try TagFormat(config.tagFormat)
        var tag = format.tagName(for: version)
        guard let head = ObjectID(hex: analysis.headCommit) else {
            throw Problem.internalError("the analysed HEAD \"\(analysis.headCommit)\" is not an object id")
        }
        let date = ReleaseClock.releaseDate(environment)
        // The changelog, read once (one UTF-8 policy, `TextFile.utf8Text`): its new section is planned over it.
        let changelog = ChangelogText.read(config, root: root)

        var writes: [FileWrite] = []
        var problems: [Problem] = []
        var releasedBuilds: ReleasedBuildNumbers?
        var builds: (ios: String?, android: String?) = (nil, nil)
        var buildNote: String?
        if !config.files.isEmpty {
            do {
                // The one plan `sync` makes too (VersionFilePlan): its build numbers, where they came from, and a
                // versionCode at or below a release tag's, which a release refuses.
                let sync = try VersionFilePlan.make(workspace, version: version.description, build: build, environment: environment)
                releasedBuilds = sync.released
                if sync.counts {
                    buildNote = sync.buildSources.isEmpty ? sync.releasedNote : sync.buildSources.joined(separator: "; ")
                }
                builds = (sync.iosBuild, sync.androidBuild)
                if format.carriesBuild { tag = try workspace.buildTagName(format, version: version, sync: sync) }
                if let problem = sync.versionCodeProblem {
                    problems.append(Problem(problem))
                }
                for change in sync.changed {
                    if LexicalPath.relative(change.absolutePath, to: root) == nil {
                        problems.append(Problem("\(change.path) is outside the repository (\(root)), so the release commit cannot hold it; list only files inside the repository in \(workspace.configDisplayPath)"))
                    }
                    writes.append(change.write)
                }
            } catch let failure as Problem {
                problems.append(failure)
            } catch let problem as FileEditError {
                problems.append(Problem(problem))
            }
        }

        var section: String?
        let release = ChangelogRelease.of(analysis, version: version.description, tag: tag, date: date, config: config,
                                          repository: repository, environment: environment)
        if let changelog {
            let changelogPath = changelog.path, path = changelog.absolutePath
            if changelog.isFolder {
                problems.append(Problem("\(changelogPath) is a folder, not a file; point \"changelog\": {\"path\": …} in .relctl.json at a file"))
            }
            let existingBytes = changelog.bytes
            let existing = changelog.bytes.map { changelog.text ?? String(decoding: $0, as: UTF8.self) }
            if changelog.isNotUTF8 {
                problems.append(Problem("\(changelogPath) is not valid UTF-8; convert it (iconv -f latin1 -t utf-8) so relctl can add the release to it without changing its other bytes"))
            }
            // A prerelease's notes go in its tag message (and --json) unless changelog.prereleases is true.
            let writesChangelog = version.isStable || config.changelogPrereleases
            if writesChangelog, let existing, ChangelogFile.containsVersion(version.description, in: existing) {
                problems.append(Problem("\(changelogPath) already has a section for \(version); remove it or tag that release (\(tag)) by hand"))
            }
            let update = ChangelogFile.update(existing, with: release)
            section = update.section
            if writesChangelog {
                if writes.contains(where: { $0.path == path }) {
                    problems.append(Problem("\(changelogPath) is both a version file and the changelog; point 'changelog.path' elsewhere"))
                }
                writes.append(FileWrite(path: path, oldBytes: existingBytes, newBytes: Array(update.text.utf8),
                                        displayPath: changelogPath))
            }
        }

        // Store release notes (`storeNotes`): the same commits, user-facing types only, written with the release.
        var storeNotes: [StoreNotesFile] = []
        if let settings = config.storeNotes {
            do {
                storeNotes = try StoreNotesFiles.files(settings, commits: analysis.commits.commits, version: version.description,
                                                       versionCode: builds.android, configPath: workspace.configDisplayPath, strict: true)
                let planned = StoreNotesFiles.writes(storeNotes, root: root, existing: writes)
                writes += planned.writes
                if let problem = planned.problem { problems.append(Problem(problem)) }
            } catch {
                problems.append(error)
            }
        }

        var notice: MajorReleaseNotice?
        var committedBytes: [String: [UInt8]?] = [:]
        // A prerelease or a maintenance release never writes the marker: it comes with the stable release on main.
        let majorLater = analysis.bump == .major && !version.isStable
        if analysis.bump == .major && version.isStable && !analysis.track.maintenance {
            var made = MajorReleaseNotice(version: version.description, previousVersion: analysis.current?.description, tag: tag,
                                          date: ReleaseClock.isoDate(environment),
                                          breakingChanges: MajorReleaseNotice.breakingChanges(in: analysis.commits.commits),
                                          floor: workspace.floorDecision(for: version.description))
            // The marker as the workspace read it at open (`PendingMajor`): not read again here.
            let pending = workspace.pendingMajor
            let path = pending?.path ?? LexicalPath.join(root, workspace.markerRelativePath)
            let existing = pending.map(\.bytes)
            // The marker a halt wrote for this very release keeps its date: a rerun leaves it as it is, and
            // --confirm-major commits it byte for byte (with the gate's steps as they are now, should they have moved).
            if let written = pending?.notice, written.recordsSameRelease(as: made) { made.date = written.date }
            notice = made
            writes.append(FileWrite(path: path, oldBytes: existing, newBytes: Array(made.json().utf8), displayPath: workspace.markerRelativePath))
            let committed: [UInt8]?
            if let pending {
                committed = pending.committed
            } else {
                committed = try repository.blobIDs(at: [workspace.markerRelativePath], in: head)[0].map(repository.blobBytes)
            }
            if committed != existing { committedBytes[path] = committed }
        }

        // --include-config: the config, untracked or edited, is committed as it is (written with the bytes it has).
        if includeConfig, let absolute = config.absolutePath, let relative = LexicalPath.relative(absolute, to: root),
           let bytes = FileManager.default.contents(atPath: absolute).map({ Array($0) }) {
            let committed = try repository.blobIDs(at: [relative], in: head)[0].map(repository.blobBytes)
            if committed != bytes {
                writes.append(FileWrite(path: absolute, oldBytes: bytes, newBytes: bytes, displayPath: relative))
                committedBytes[absolute] = committed
            }
        }

        var identities: Identities?
        var identityProblems: [Problem] = []
        do {
            identities = try repository.identities(environment: environment)
            if identities == nil {
                identityProblems.append(Problem("no committer identity: set git config user.name and user.email, or GIT_AUTHOR_NAME/GIT_AUTHOR_EMAIL and GIT_COMMITTER_NAME/GIT_COMMITTER_EMAIL"))
            }
        } catch {
            identityProblems.append(Problem(error.message))
        }

        let message = config.commitMessage
            .replacingOccurrences(of: "{version}", with: version.description)
            .replacingOccurrences(of: "{tag}", with: tag)
        var unlinked = release
        unlinked.links = nil
        let tagMessage = ReleaseNotes.tagMessage(version: tag, section: section ?? unlinked.section)

        var plan = ReleasePlan(root: root, version: version.description, previousVersion: analysis.current?.description,
                           bump: analysis.bump, tag: tag, branch: try repository.currentBranch(), head: head,
                           writes: writes, committedBytes: committedBytes, changelogSection: section,
                           commitMessage: message.hasSuffix("\n") ? message : message + "\n",
                           tagMessage: tagMessage, notice: notice,
                           identities: identities, problems: identityProblems + problems)
        plan.track = analysis.track
        plan.prereleaseNumber = analysis.prereleaseNumber
        plan.majorLater = majorLater
        plan.releasedBuilds = releasedBuilds
        plan.buildNote = buildNote
        plan.storeNotes = storeNotes
        plan.markerRelativePath = workspace.markerRelativePath
        (plan.iosBuild, plan.androidBuild) = builds
        return plan
    }
}
