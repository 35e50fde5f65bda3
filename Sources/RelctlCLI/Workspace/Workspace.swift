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
    /// `--prerelease CHANNEL` of `next`, `release`, `changelog`: a prerelease whatever the branch's entry says.
    var requestedChannel: ReleaseChannel?
    /// The repository lock, when the command asked for it (`release`, `sync`, `adopt`, the gate's decisions; never a
    /// dry run): taken before the config or anything else is read, released when the command ends.
    var lock: RepositoryLock?

    /// `remindsOfHalt`: false for `release`, which says itself what a halted major release's marker means.
    /// `locked`: take the repository lock (`RepositoryLock`) right after finding the repository, before reading anything,
    /// in the name of `command` (what another run that finds the lock held is told).
    static func open(_ arguments: ParsedArguments, _ context: CommandContext, remindsOfHalt: Bool = true,
                     locked: Bool = false, command: String = "release") throws -> Workspace {
        let start = arguments.value("--repo").map { LexicalPath.join(context.currentDirectory, $0) } ?? context.currentDirectory
        guard FileManager.default.fileExists(atPath: start) else {
            throw CLIFailure(message: "'\(arguments.value("--repo") ?? start)' does not exist; pass --repo the path of a git repository")
        }
        let opened = Result { () throws(GitError) -> Repository in try Repository(discoveringFrom: start) }
        if case .failure(let error) = opened, error.kind == .notARepository {
            throw CLIFailure(message: "'\(arguments.value("--repo") ?? start)' is not inside a git repository; run relctl in the app's repository or pass --repo PATH")
        }
        let repository = try opened.get()
        guard let root = repository.workdir else {
            throw CLIFailure(message: "'\(start)' is a bare repository; relctl needs a work tree (clone it first)")
        }
        let lock = locked ? try RepositoryLock.acquire(gitDir: repository.gitDir, command: command) : nil
        let config = try Config.load(explicitPath: arguments.value("--config"), repositoryRoot: root,
                                     currentDirectory: context.currentDirectory)
        context.run.repositoryRoot = root
        var workspace = Workspace(repository: repository, root: root, config: config)
        workspace.environment = context.environment
        workspace.lock = lock
        workspace.remindOfPendingMajor(context, halted: remindsOfHalt)
        return workspace
    }

    static let shallowFix = "fetch the full history with 'git fetch --unshallow --tags' (GitHub Actions: actions/checkout with 'fetch-depth: 0')"
}
