/// What `relctl-fuzz` can fuzz: each target is a harness over bytes (`FuzzHarness`) with a seed corpus in
/// `Fuzz/corpus/<name>` and tokens the mutation driver splices in.
package enum FuzzTarget: String, CaseIterable, Sendable {
    case conventionalCommit = "conventional-commit"
    case semver
    case json
    case editors
    case config

    /// Bytes the seeded driver inserts: the syntax each parser branches on.
    package var tokens: [String] {
        switch self {
        case .conventionalCommit:
            return ["feat", "fix", "(", ")", "!", ": ", "\n\n", "BREAKING CHANGE: ", "BREAKING-CHANGE:", "Refs #", "Revert \"",
                    "This reverts commit ", "fixup! ", "\r\n", "\u{1B}]0;", "\u{9B}", "-", " #", "\u{FEFF}", "\u{0}"]
        case .semver:
            return ["0", "1", ".", "-", "+", "alpha", "rc.1", "00", "18446744073709551615", "18446744073709551616", "..", "v", " "]
        case .json:
            return ["{", "}", "[", "]", "\"", ":", ",", "//", "/*", "*/", "'", "\\u", "\\uD800", "1e999", "-0", "NaN", "Infinity",
                    "0x1F", "true", "null", "\n", "\u{FEFF}", "+1", ".5", "5."]
        case .editors:
            return ["version", "1.2.3", "\"", "=", "\n", "\r\n", "{", "}", "(", ")", "/*", "*/", "//", "#", "'", "$(", "${", ";",
                    "versionName", "versionCode", "MARKETING_VERSION", "CURRENT_PROJECT_VERSION", "<string>", "</string>",
                    "<key>", "CFBundleShortVersionString", "[versions]", "+", "\t", "\\"]
        case .config:
            return ["{", "}", "[", "]", "\"", ":", ",", "\"files\"", "\"path\"", "\"format\"", "\"regex\"", "\"pattern\"",
                    "\"tagFormat\"", "{version}", "\"changelog\"", "\"gate\"", "\"buildNumber\"", "\"strategy\"", "\"lint\"",
                    "\"versionScheme\"", "YYYY.M.MICRO", "..", "/", "(a+)+", "\\u001b", "null", "false", "1e3", "-1"]
        }
    }
}
