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

/// Where a command's repository and config are, as plain values (`--repo`, `--config`; nil: the current directory and
/// the repository's `.relctl.json`).
struct RepositoryLocation {
    var repo: String?
    var config: String?
}

/// The repository a command works on, opened once.
struct Workspace {
    let repository: Repository
    let root: String
    let config: Config
    /// The environment of the run (the release date of a calendar version comes from SOURCE_DATE_EPOCH).
    var environment: [String: String] = [:]
    /// The configured version files, read once per run (`readVersions`).
    let versionFiles = VersionFileCache()
    /// The release tags, listed once per run (`releaseTags`).
    let releaseTagsCache = ReleaseTagsCache()
    /// The tag names, listed once per run and shared by every project of it (`TagListing`).
    var tagListing = TagListing()
    /// `--prerelease CHANNEL` of `next`, `release`, `changelog`: a prerelease whatever the branch's entry says.
    var requestedChannel: ReleaseChannel?
    /// The repository lock, when the command asked for it (`release`, `sync`, `adopt`, the gate's decisions; never a
    /// dry run): taken before the config or anything else is read, released when the command ends.
    var lock: RepositoryLock?
    /// `.major-release-pending` as the run found it, read once at open (`PendingMajor`); nil: there is none.
    var pendingMajor: PendingMajor?
    /// The project this workspace acts on (`forProject`, WorkspaceProjects.swift); nil: the repository is one app.
    var project: Project?
    /// Every project of the repository (the tags of the others are never this project's).
    var allProjects: [Project] = []
    /// The folder diff shared by every project of the run.
    var folderChanges = ProjectFolderChanges()
    /// The markers of the other projects released together with this one, which their own preflight checks.
    var markersCheckedElsewhere: [String] = []

    /// What a command does when the repository has no `.relctl.json` (and no `--config` was given).
    enum ConfigNeed {
        /// Runs on the defaults, silently (lint, hooks, the gate commands, which say themselves what they miss).
        case optional
        /// Refused first, before the lock or anything else, with `relctl init` as the fix (status, release, sync,
        /// current, adopt): on the defaults they would plan from initialVersion and read no version file.
        case required
        /// Runs on the defaults but says so on stderr first (next, changelog: their answer comes from the commits).
        case noted
    }

    /// `remindsOfHalt`: false for `release`, which says itself what a halted major release's marker means.
    /// `locked`: take the repository lock (`RepositoryLock`) right after finding the repository, before reading anything,
    /// in the name of `command` (what another run that finds the lock held is told).
    /// `config`: what happens without a `.relctl.json` (`ConfigNeed`).
    static func open(_ location: RepositoryLocation, _ context: CommandContext, remindsOfHalt: Bool = true,
                     locked: Bool = false, command: String = "release", config need: ConfigNeed = .optional) throws -> Workspace {
        let start = location.repo.map { LexicalPath.join(context.currentDirectory, $0) } ?? context.currentDirectory
        guard FileManager.default.fileExists(atPath: start) else {
            throw Problem("'\(location.repo ?? start)' does not exist; pass --repo the path of a git repository")
        }
        let opened = Result { () throws(GitError) -> Repository in try Repository(discoveringFrom: start) }
        if case .failure(let error) = opened, error.kind == .notARepository {
            throw Problem("'\(location.repo ?? start)' is not inside a git repository; run relctl in the app's repository or pass --repo PATH")
        }
        let repository = try opened.get()
        guard let root = repository.workdir else {
            throw Problem("'\(start)' is a bare repository; relctl needs a work tree (clone it first)")
        }
        if need != .optional, location.config == nil,
           !FileManager.default.fileExists(atPath: LexicalPath.join(root, Config.fileName)) {
            let missing = Self.noConfig(root: root)
            if need == .required { throw Problem("\(missing): relctl does not know this app's version files or tag format yet; run 'relctl init' to create it (or pass --config PATH)") }
            context.output.note("\(missing), so this comes from the commits and tags alone (no version file was read); run 'relctl init' to create it")
        }
        let lock = locked ? try RepositoryLock.acquire(gitDir: repository.gitDir, command: command) : nil
        // Holding the lock, before anything is read: an interrupted gate decision or adopt is finished or rolled back.
        if lock != nil { context.run.recovered = try TransactionRecovery.recoverAtOpen(root: root, repository: repository, output: context.output) }
        let config = try Config.load(explicitPath: location.config, repositoryRoot: root,
                                     currentDirectory: context.currentDirectory)
        context.run.repositoryRoot = root
        var workspace = Workspace(repository: repository, root: root, config: config)
        workspace.environment = context.environment
        workspace.lock = lock
        workspace.pendingMajor = PendingMajor.read(root: root, repository: repository)
        workspace.remindOfPendingMajor(context, halted: remindsOfHalt)
        return workspace
    }

    /// The first half of what a command says when the repository has no config.
    static func noConfig(root: String) -> String {
        "no \(Config.fileName) at \(root)"
    }

    static let shallowFix = "fetch the full history with 'git fetch --unshallow --tags' (GitHub Actions: actions/checkout with 'fetch-depth: 0')"
}
