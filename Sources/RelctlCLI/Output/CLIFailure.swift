import RelctlCore

/// A failure a command states in its own words, which already say where and how to fix it: `error: <message>`,
/// exit 1. Errors that have a file and a line of their own (`FileEditError`, `ConfigError`) are thrown as they are.
struct CLIFailure: Diagnostic {
    let message: String
}
