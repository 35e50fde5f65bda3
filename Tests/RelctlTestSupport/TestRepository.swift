import Foundation

/// The result of a finished process.
public struct ProcessResult: Sendable {
    public let status: Int32
    public let stdout: String
    public let stderr: String
}

extension Process {
    /// A process for `executable`, in `directory` when given, with this process's environment plus `extra`.
    convenience init(_ executable: String, _ arguments: [String], in directory: String?, environment extra: [String: String]) {
        self.init()
        executableURL = URL(fileURLWithPath: executable)
        self.arguments = arguments
        if let directory { currentDirectoryURL = URL(fileURLWithPath: directory) }
        environment = ProcessInfo.processInfo.environment.merging(extra) { _, new in new }
    }
}

/// Runs a program to completion, with an optional working directory and extra environment.
@discardableResult
public func runProcess(_ executable: String, _ arguments: [String], in directory: String? = nil,
                       environment extra: [String: String] = [:], input: String? = nil) throws -> ProcessResult {
    let process = Process(executable, arguments, in: directory, environment: extra)
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    let inPipe = Pipe()
    process.standardInput = inPipe
    try process.run()
    if let input { inPipe.fileHandleForWriting.write(Data(input.utf8)) }
    try? inPipe.fileHandleForWriting.close()
    // Read both pipes fully before waiting, so a chatty child never blocks on a full pipe.
    let group = DispatchGroup()
    nonisolated(unsafe) var errData = Data()
    group.enter()
    DispatchQueue.global().async {
        errData = err.fileHandleForReading.readDataToEndOfFile()
        group.leave()
    }
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    group.wait()
    process.waitUntilExit()
    return ProcessResult(status: process.terminationStatus,
                         stdout: String(decoding: outData, as: UTF8.self),
                         stderr: String(decoding: errData, as: UTF8.self))
}

public struct CommandFailed: Error, CustomStringConvertible {
    public let description: String

    public init(description: String) { self.description = description }
}

/// A real git repository in a fresh temp folder, driven through the `git` command line.
/// Identity and dates come from the environment, so histories are reproducible and need no global config.
public final class TestRepository: @unchecked Sendable {
    public let path: String
    private var clock: Int = 1_700_000_000

    /// Every test process gets a HOME of its own, once, before libgit2 reads the global config from it: the
    /// machine's ~/.gitconfig (signing, identity, hooks) must not change what the tests see.
    public static let isolatedHome: String = {
        let home = (try? makeTempDirectory(prefix: "relctl-test-home")) ?? NSTemporaryDirectory()
        setenv("HOME", home, 1)
        setenv("XDG_CONFIG_HOME", home + "/.config", 1)
        setenv("GIT_CONFIG_NOSYSTEM", "1", 1)
        return home
    }()

    /// Creates `git init` in a new temp folder (or wraps an existing folder when `existing` is set).
    public init(branch: String = "main", bare: Bool = false, existing: String? = nil) throws {
        _ = Self.isolatedHome
        if let existing {
            path = existing
            return
        }
        path = try makeTempDirectory(prefix: "relctl-repo")
        var args = ["init", "-q", "-b", branch]
        if bare { args.append("--bare") }
        try git(args)
    }

    deinit {
        if ProcessInfo.processInfo.environment["RELCTL_KEEP_TEST_REPOS"] == nil {
            try? FileManager.default.removeItem(atPath: path)
        }
    }

    public static let gitPath: String = {
        for candidate in ["/usr/bin/git", "/usr/local/bin/git", "/bin/git"] where FileManager.default.isExecutableFile(atPath: candidate) {
            return candidate
        }
        return "/usr/bin/git"
    }()

    /// The environment every git call gets: a fixed identity, fixed dates, no user or system config.
    public func gitEnvironment() -> [String: String] {
        let date = "\(clock) +0000"
        return [
            "GIT_AUTHOR_NAME": "Test Author", "GIT_AUTHOR_EMAIL": "author@example.com",
            "GIT_COMMITTER_NAME": "Test Committer", "GIT_COMMITTER_EMAIL": "committer@example.com",
            "GIT_AUTHOR_DATE": date, "GIT_COMMITTER_DATE": date,
            "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": "/dev/null",
        ]
    }

    /// Runs git in the repository; throws with git's stderr when it fails.
    @discardableResult
    public func git(_ arguments: [String], input: String? = nil) throws -> String {
        let result = try runProcess(Self.gitPath, ["-C", path] + arguments, environment: gitEnvironment(), input: input)
        guard result.status == 0 else {
            throw CommandFailed(description: "git \(arguments.joined(separator: " ")) failed (\(result.status)): \(result.stderr)")
        }
        return result.stdout
    }

    /// Writes a file (creating folders) relative to the repository.
    public func write(_ relativePath: String, _ contents: String) throws {
        let url = URL(fileURLWithPath: path).appendingPathComponent(relativePath)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(contents.utf8).write(to: url)
    }

    public func read(_ relativePath: String) throws -> String {
        try String(contentsOfFile: path + "/" + relativePath, encoding: .utf8)
    }

    /// Makes a commit with the given message (touching a file so it is never empty); returns its sha.
    @discardableResult
    public func commit(_ message: String, file: String = "log.txt") throws -> String {
        clock += 60
        let url = URL(fileURLWithPath: path).appendingPathComponent(file)
        let previous = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
        try write(file, previous + "\(clock)\n")
        try git(["add", "-A"])
        try git(["commit", "-q", "--allow-empty-message", "-F", "-"], input: message)
        return try head()
    }

    /// Commits every change in the work tree as it is (files written with `write`).
    @discardableResult
    public func commitAll(_ message: String) throws -> String {
        clock += 60
        try git(["add", "-A"])
        try git(["commit", "-q", "-F", "-"], input: message)
        return try head()
    }

    /// Makes an empty commit (no file change).
    @discardableResult
    public func emptyCommit(_ message: String) throws -> String {
        clock += 60
        try git(["commit", "-q", "--allow-empty", "--allow-empty-message", "-F", "-"], input: message)
        return try head()
    }

    public func head() throws -> String {
        try git(["rev-parse", "HEAD"]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    public func tag(_ name: String, annotated: Bool = true, at revision: String = "HEAD") throws {
        clock += 1
        if annotated {
            try git(["tag", "-a", name, "-m", "release \(name)", revision])
        } else {
            try git(["tag", name, revision])
        }
    }

    /// `git clone` of this repository into `destination` (`--depth` for a shallow clone), isolated from the
    /// machine's git config; throws when git fails. The caller owns `destination`.
    public func clone(to destination: String, depth: Int? = nil, extra: [String] = []) throws {
        var args = ["clone", "-q"] + extra
        if let depth { args += ["--depth", String(depth)] }
        args += ["file://" + path, destination]
        let result = try runProcess(Self.gitPath, args, environment: gitEnvironment())
        guard result.status == 0 else { throw CommandFailed(description: "git clone failed (\(result.status)): \(result.stderr)") }
    }

    /// `git log --format=%H` for a range, newest first.
    public func shas(_ range: String) throws -> [String] {
        try git(["log", "--format=%H", range]).split(separator: "\n").map(String.init)
    }

    /// A hash of every ref and of every file in the work tree and `.git` index, to prove a command changed nothing.
    public func snapshot() throws -> String {
        let refs = try git(["for-each-ref", "--format=%(refname) %(objectname)"])
        let head = (try? git(["symbolic-ref", "-q", "HEAD"])) ?? ""
        let status = try git(["status", "--porcelain=v1", "--untracked-files=all", "--ignored"])
        // The index by content: libgit2 and git may write the same entries with different bytes.
        let index = try git(["ls-files", "--stage"])
        var files: [String] = []
        let root = URL(fileURLWithPath: path)
        if let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) {
            for case let url as URL in enumerator {
                let relative = String(url.path.dropFirst(root.path.count))
                if relative.hasPrefix("/.git/") && !relative.hasPrefix("/.git/refs") && relative != "/.git/packed-refs" && relative != "/.git/HEAD" { continue }
                var isDir: ObjCBool = false
                if !FileManager.default.fileExists(atPath: url.path, isDirectory: &isDir) || isDir.boolValue { continue }
                let data = (try? Data(contentsOf: url)) ?? Data()
                files.append("\(relative) \(data.count) \(fnv1a(data))")
            }
        }
        return ([refs, head, status, index] + files.sorted()).joined(separator: "\n")
    }
}

/// A new empty folder under the system temp folder, removed when the test process exits (unless
/// `RELCTL_KEEP_TEST_REPOS` is set, to look at them after a failure).
public func makeTempDirectory(prefix: String) throws -> String {
    let base = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString.prefix(8))")
    try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
    // Resolve symlinks so paths compare equal to what git and libgit2 report.
    let path = base.resolvingSymlinksInPath().path
    TempDirectories.remember(path)
    return path
}

/// The temp folders the tests made, removed at exit: a test that makes a folder beside its repository (a home, a
/// scratch folder, a completion script) does not have to remember to.
private enum TempDirectories {
    static let lock = NSLock()
    nonisolated(unsafe) static var paths: [String] = []
    static let registered: Void = {
        atexit {
            guard ProcessInfo.processInfo.environment["RELCTL_KEEP_TEST_REPOS"] == nil else { return }
            TempDirectories.lock.lock()
            let paths = TempDirectories.paths
            TempDirectories.lock.unlock()
            for path in paths { try? FileManager.default.removeItem(atPath: path) }
        }
    }()

    static func remember(_ path: String) {
        _ = registered
        lock.lock()
        paths.append(path)
        lock.unlock()
    }
}

/// A 64-bit FNV-1a hash of all the bytes (stable across runs, unlike `hashValue`).
public func fnv1a(_ data: Data) -> UInt64 {
    var hash: UInt64 = 0xcbf29ce484222325
    for byte in data {
        hash ^= UInt64(byte)
        hash = hash &* 0x100000001b3
    }
    return hash
}

/// Writes an executable script that a test then runs. The file is written by a child shell, not by this
/// process: the tests run in parallel threads that fork, and a write descriptor open in this process while
/// another thread forks is inherited by that child, so running the script could fail with "Text file busy"
/// (ETXTBSY), which a shell reports as exit 126 and an `a && b` line under `set -e` silently skips.
public func writeExecutable(_ text: String, to path: String) throws {
    let written = try runProcess("/bin/sh", ["-c", "cat > \"$1\" && chmod 755 \"$1\"", "sh", path], input: text)
    guard written.status == 0 else { throw CommandFailed(description: "writing \(path): \(written.stderr)") }
}
