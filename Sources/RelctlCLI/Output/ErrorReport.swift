import RelctlCore

/// The one place where what a command threw becomes lines on stderr and an exit code: every diagnostic as
/// `error: path:line: message (hint)` with the path relative to the repository root, a usage mistake with its usage
/// line (64), the preflight problems of a release and their count (1), a halt before a major release (3), and a
/// thrown `ExitCode` (drift: 2) as it is.
enum ErrorReport {
    /// Writes what `error` says to `output` and returns the exit code. `root`: the repository the command opened.
    static func report(_ error: any Error, output: Output, root: String?) -> ExitCode {
        switch error {
        case let code as ExitCode:
            return code
        case let usage as UsageError:
            output.error(usage.message)
            output.message("usage: \(usage.usage)")
            return .usage
        case let preflight as PreflightFailure:
            for problem in preflight.problems { output.error(problem.rendered(relativeTo: root)) }
            // A dry run fails exactly as the real run would: same lines, same exit code.
            output.message(preflight.summary)
            return .failure
        case let halt as MajorReleaseHalted:
            output.error(halt.rendered())
            return .haltedForMajor
        case let diagnostic as any Diagnostic:
            output.error(diagnostic.rendered(relativeTo: root))
            return .failure
        default:
            output.error("\(error)")
            return .failure
        }
    }
}
