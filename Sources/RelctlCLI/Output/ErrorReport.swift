import RelctlCore
import RelctlGit

/// An error that ends a command with a code of its own and says itself what to print: a usage mistake (64, with
/// its usage line), the preflight problems of a release (1, with their count), a problem (1, or 3 for a halt before
/// a major release: its kind).
/// `ErrorReport` asks the property; it never needs to know the type.
protocol Refusal: Error {
    var exitCode: ExitCode { get }
    /// Writes what the refusal says to `output`; `root` makes paths relative to the repository.
    func report(to output: Output, root: String?)
}

/// The one place where what a command threw becomes lines on stderr and an exit code: a thrown `ExitCode` (drift: 2)
/// as it is, a `Refusal` by its own code and lines, every other diagnostic as `error: path:line: message (hint)`
/// with the path relative to the repository root (exit 1).
enum ErrorReport {
    /// Writes what `error` says to `output` and returns the exit code. `root`: the repository the command opened.
    static func report(_ error: any Error, output: Output, root: String?) -> ExitCode {
        switch error {
        case let code as ExitCode:
            return code
        case let refusal as any Refusal:
            refusal.report(to: output, root: root)
            return refusal.exitCode
        case let diagnostic as any Diagnostic:
            output.emit(diagnostic, root: root)
            return .failure
        case let git as GitError:
            output.emit(git.diagnostic, root: root)
            return .failure
        default:
            output.error("\(error)")
            return .failure
        }
    }
}

extension ErrorReport {
    /// What `error` says in one line, quoted inside another sentence ("cannot write the journal: <this>; nothing
    /// was changed"): a diagnostic as it renders (`path:line: message (hint)`), libgit2's error as `operation: message`
    /// (its message alone with `gitOperation` false), anything else as it prints. The one place an error that is not
    /// reported on its own becomes text, so no caller casts to learn what to say.
    static func reason(_ error: any Error, gitOperation: Bool = true) -> String {
        switch error {
        case let diagnostic as any Diagnostic: diagnostic.rendered()
        case let git as GitError: gitOperation ? git.description : git.message
        default: "\(error)"
        }
    }
}

extension UsageError: Refusal {
    var exitCode: ExitCode { .usage }

    func report(to output: Output, root: String?) {
        output.error(message)
        output.message("usage: \(usage)")
    }
}

extension PreflightFailure: Refusal {
    var exitCode: ExitCode { .failure }

    func report(to output: Output, root: String?) {
        for problem in problems { output.emit(problem, root: root) }
        // A dry run fails exactly as the real run would: same lines, same exit code.
        output.message(summary)
    }
}

extension Problem: Refusal {
    /// 3 for a major release halted (`.haltedForMajor`), else 1.
    var exitCode: ExitCode { kind == .haltedForMajor ? .haltedForMajor : .failure }

    func report(to output: Output, root: String?) {
        output.emit(self, root: root)
    }
}

extension GitError {
    /// libgit2's error as a diagnostic: the operation and libgit2's message, and a fix where the kind has one.
    var diagnostic: Problem {
        switch kind {
        case .shallowHistory:
            Problem(description, hint: "the clone is shallow; fetch the whole history (git fetch --unshallow, or fetch-depth: 0 in actions/checkout)")
        case .locked:
            Problem(description, hint: "another git process holds the lock; wait for it, or remove the .lock file if no git process is running")
        default:
            Problem(description)
        }
    }
}
