import RelctlCore

/// A mistake in the command line: exit 64, the message and the usage line on stderr. A type of its own, not a
/// `Problem`, because `ErrorReport` prints its `usage` on a line of its own after the message.
struct UsageError: Diagnostic {
    let message: String
    let usage: String
}
