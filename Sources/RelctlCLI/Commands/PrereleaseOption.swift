import RelctlCore

/// `--prerelease CHANNEL` of `next`, `release` and `changelog`.
enum PrereleaseOption {
    /// The channel given, checked; nil without the option.
    /// `usage` is made only for the error (a usage line costs a conformance scan of the runtime on every run).
    static func channel(_ arguments: ParsedArguments, usage: @autoclosure () -> String) throws -> ReleaseChannel? {
        guard let text = arguments.value("--prerelease") else { return nil }
        guard let channel = ReleaseChannel(text) else {
            throw UsageError(message: "--prerelease \"\(text)\" is not a prerelease channel; use letters, digits and '-' with at least one letter, like beta, alpha or rc", usage: usage())
        }
        return channel
    }
}
