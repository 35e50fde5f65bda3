/// What a shell may complete for an option's value or a positional argument (`relctl completions`): the table
/// knows it, so the bash, zsh and fish scripts and the man page never list values of their own.
enum ValueCompletion: Sendable, Equatable {
    /// Free text (a version, a reason): nothing to offer.
    case none
    /// A file path (`--config`, `--message-file`).
    case file
    /// A folder path (`--repo`).
    case directory
    /// One of these words (`--platform ios|android`, `completions bash|zsh|fish`).
    case words([String])
    /// The repository's git remotes (`--remote`).
    case gitRemote
}
