import RelctlCore

/// A mistake in the command line: exit 64, the message and the usage line on stderr.
struct UsageError: Diagnostic {
    let message: String
    let usage: String
}
