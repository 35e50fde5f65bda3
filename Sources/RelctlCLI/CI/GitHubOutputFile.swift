import Foundation
import RelctlCore

/// The text relctl appends to `$GITHUB_OUTPUT`: one entry per output, as the runner reads the file after the step.
///
/// The runner splits the file into lines at each line feed; a line `name=value` sets `name`, and a line
/// `name<<DELIMITER` starts a value that runs, line by line, up to a line that is exactly `DELIMITER`. So a value
/// holding a line feed written as `name=value` would end early, and its next line (`version=9.9.9`) would set
/// another output: a commit subject or a tag message could forge what a later step reads. Here a value holding a
/// line feed or a carriage return is written as `name<<ghadelimiter_<random UUID>`, with a delimiter drawn again
/// until the value does not contain it (as GitHub's own `@actions/core` does), and a name that is not a plain
/// output name is never written.
enum GitHubOutputFile {
    /// Why an output was left out: its name could not be read back as that one output (a warning, the name shown on one
    /// line).
    static func refusedName(_ name: String) -> Problem {
        let rule = "an output name is a letter or '_', then letters, digits, '-' or '_'"
        return Problem("step output '\(shown(name))' was not written to GITHUB_OUTPUT: \(rule)", severity: .warning)
    }

    /// `name`: a letter or `_`, then letters, digits, `-` and `_` — the names GitHub documents for outputs. Such a
    /// name holds no `=`, no `<<` and no line break, so its entry's first line can only be read as that name.
    static func isValidName(_ name: String) -> Bool {
        guard let first = name.utf8.first, isLetter(first) || first == UInt8(ascii: "_") else { return false }
        return name.utf8.allSatisfy {
            isLetter($0) || ($0 >= 0x30 && $0 <= 0x39) || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-")
        }
    }

    /// A name as a warning shows it: a line break as its octal escape (`\\012`), so the warning stays one line.
    static func shown(_ name: String) -> String {
        var out = ""
        for scalar in name.unicodeScalars {
            switch scalar {
            case "\n": out += "\\012"
            case "\r": out += "\\015"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
    }

    /// One output's entry, ending with a line feed: `name=value`, or the delimited form when the value holds a line
    /// break. `delimiter` makes a fresh random delimiter (replaced in tests).
    static func entry(name: String, value: String,
                      delimiter: () -> String = { "ghadelimiter_" + UUID().uuidString }) throws(Problem) -> String {
        guard isValidName(name) else { throw refusedName(name) }
        guard value.utf8.contains(where: { $0 == 0x0A || $0 == 0x0D }) else { return "\(name)=\(value)\n" }
        var marker = delimiter()
        // A delimiter found in the value could end it early; a fresh UUID makes that all but impossible, and the
        // loop makes it impossible.
        while marker.isEmpty || value.contains(marker) { marker = delimiter() }
        return "\(name)<<\(marker)\n\(value)\n\(marker)\n"
    }

    /// Every output's entry in order, and a warning for each name left out.
    static func text(_ outputs: [(name: String, value: String)],
                     delimiter: () -> String = { "ghadelimiter_" + UUID().uuidString })
        -> (text: String, refused: [Problem]) {
        var text = ""
        var refused: [Problem] = []
        for (name, value) in outputs {
            do throws(Problem) {
                text += try entry(name: name, value: value, delimiter: delimiter)
            } catch {
                refused.append(error)
            }
        }
        return (text, refused)
    }
}
