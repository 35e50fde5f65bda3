/// How a run of relctl ends, as `relctl --help` documents it. A command that has said what it has to say and must
/// end with another code than 0 throws one (`throw ExitCode.drift`), as swift-argument-parser's `ExitCode` is
/// thrown; `ErrorReport` is the one place that turns what a command threw into the code the process exits with.
/// Thrown, it says nothing more (the command has said it): not a diagnostic, only the code.
struct ExitCode: Error, Hashable, Sendable {
    let rawValue: Int32

    static let success = ExitCode(rawValue: 0)
    static let failure = ExitCode(rawValue: 1)
    static let drift = ExitCode(rawValue: 2)
    /// `relctl gate check` found problems in the gate document (the same code as drift: the files are not right).
    static let gateProblems = ExitCode(rawValue: 2)
    static let haltedForMajor = ExitCode(rawValue: 3)
    static let usage = ExitCode(rawValue: 64)
}

extension ExitCode {
    /// Every exit code and what it means, for the man page (`relctl --help` says the same in short).
    static let documented: [(ExitCode, String)] = [
        (.success, "Success, or nothing to release (the reason on standard error)."),
        (.failure, "Failure: one line error: path:line: what happened (how to fix it); nothing is left half-made."),
        (.drift, "Version drift between the version files (current), problems in the gate document (gate check), or a commit message with errors (lint)."),
        (.haltedForMajor, "Halted before a major release: review it, then run relctl release --confirm-major."),
        (.usage, "Usage error: an unknown command or option, or a missing argument."),
    ]
}
