import Foundation
import Testing
import RelctlCore
@testable import RelctlCLI

// Golden CLI output: a command's whole output (exit status, stdout, stderr) is compared byte for byte with a
// file under `Golden/`. The files are the contract of what users and scripts see; a change of a single byte
// fails with a unified diff. After an intended change, record them again:
//
//     RELCTL_RECORD_GOLDEN=1 swift test --filter GoldenOutput
//
// and review the changed files like code. When not recording, a missing file is a failure.

enum Golden {
    /// `Tests/RelctlCLITests/Golden`.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")

    /// Whether this run writes the golden files instead of checking them.
    static var recording: Bool { ProcessInfo.processInfo.environment["RELCTL_RECORD_GOLDEN"] == "1" }

    /// The command for recording, said in every failure (the filter: the suite of the failing test).
    static let recordCommand = "RELCTL_RECORD_GOLDEN=1 swift test --filter <its suite>"

    /// Compares `actual` with the golden file `name` (relative to `Golden/`), or writes it when recording.
    static func expect(_ actual: String, matches name: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let url = root.appendingPathComponent(name)
        let expected = (try? Data(contentsOf: url)).map { String(decoding: $0, as: UTF8.self) }
        if recording {
            guard expected != actual else { return }
            do {
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(actual.utf8).write(to: url)
            } catch {
                Issue.record("cannot write golden file Golden/\(name): \(error)", sourceLocation: sourceLocation)
            }
            return
        }
        guard let expected else {
            Issue.record("missing golden file Golden/\(name); record it with \(recordCommand)", sourceLocation: sourceLocation)
            return
        }
        if expected != actual {
            let diff = UnifiedDiff.render(old: expected, new: actual, path: "Golden/\(name)")
            Issue.record("the output differs from Golden/\(name) (- expected, + actual); if the change is intended, record it again with \(recordCommand):\n\(diff)",
                         sourceLocation: sourceLocation)
        }
    }
}

/// One run of the command line, written down as the golden files hold it.
///
///     $ relctl next --json
///     exit status: 0
///     --- stdout (one line of JSON, shown indented)
///     {
///       "schemaVersion": 1,
///     …
///     --- stderr (empty)
///
/// A stream that does not end with a line feed is followed by `[no newline at end]`. A stdout of exactly one
/// line of compact JSON is shown indented (only line feeds and spaces are added outside strings, so the text
/// is still exact). Paths that change from run to run (the temp folder of the repository) are replaced by
/// placeholders such as `<repo>`, and relctl's own version by `<relctl version>`, so a release of relctl itself
/// changes no golden file.
struct GoldenTranscript {
    var arguments: [String]
    var status: Int32
    var stdout: String
    var stderr: String

    init(_ arguments: [String], _ result: CLIResult, placeholders: [(String, String)] = []) {
        self.arguments = arguments
        status = result.code
        stdout = Self.replacing(result.stdout, placeholders)
        stderr = Self.replacing(result.stderr, placeholders)
    }

    static func replacing(_ text: String, _ placeholders: [(String, String)]) -> String {
        var text = text
        // Longest first, so a path inside another one is never replaced first.
        for (value, placeholder) in placeholders.sorted(by: { $0.0.count > $1.0.count }) where !value.isEmpty {
            text = text.replacingOccurrences(of: value, with: placeholder)
        }
        return text.replacingOccurrences(of: "relctl \(relctlVersion)", with: "relctl <relctl version>")
    }

    var rendered: String {
        var out = (["$ relctl"] + arguments.map(Self.shellQuoted)).joined(separator: " ") + "\n"
        out += "exit status: \(status)\n"
        if let json = Self.singleJSONLine(stdout), let indented = indentedJSON(json) {
            out += "--- stdout (one line of JSON, shown indented)\n" + indented + "\n"
        } else {
            out += Self.section("stdout", stdout)
        }
        out += Self.section("stderr", stderr)
        return out
    }

    private static func section(_ name: String, _ text: String) -> String {
        if text.isEmpty { return "--- \(name) (empty)\n" }
        return "--- \(name)\n" + text + (text.hasSuffix("\n") ? "" : "\n[no newline at end]\n")
    }

    /// The JSON of a stdout that is one line of JSON followed by a line feed.
    private static func singleJSONLine(_ text: String) -> String? {
        guard text.hasSuffix("\n"), text.hasPrefix("{") || text.hasPrefix("[") else { return nil }
        let line = String(text.dropLast())
        return line.contains("\n") ? nil : line
    }

    private static func shellQuoted(_ argument: String) -> String {
        let plain = !argument.isEmpty && argument.unicodeScalars.allSatisfy {
            CharacterSet.alphanumerics.contains($0) || "-_./=:@+,<>".unicodeScalars.contains($0)
        }
        return plain ? argument : "'" + argument.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}

/// Compact JSON (no white space outside strings) indented two spaces a level, with a space after each colon;
/// nil when the text is not compact JSON with balanced brackets. Only spaces and line feeds are added, outside
/// strings and at fixed places, so two different inputs never give the same text. Empty `{}` and `[]` stay.
func indentedJSON(_ compact: String) -> String? {
    let bytes = Array(compact.utf8)
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count * 2)
    var depth = 0
    var inString = false
    var escaped = false
    func newline() {
        out.append(0x0A)
        out.append(contentsOf: [UInt8](repeating: 0x20, count: depth * 2))
    }
    var i = 0
    while i < bytes.count {
        let byte = bytes[i]
        defer { i += 1 }
        if inString {
            out.append(byte)
            if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
            continue
        }
        switch byte {
        case UInt8(ascii: "\""):
            inString = true
            out.append(byte)
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            out.append(byte)
            let close = byte == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")
            if i + 1 < bytes.count, bytes[i + 1] == close {
                out.append(close)
                i += 1
            } else {
                depth += 1
                newline()
            }
        case UInt8(ascii: "}"), UInt8(ascii: "]"):
            depth -= 1
            guard depth >= 0 else { return nil }
            newline()
            out.append(byte)
        case UInt8(ascii: ","):
            out.append(byte)
            newline()
        case UInt8(ascii: ":"):
            out.append(contentsOf: [byte, 0x20])
        case 0x20, 0x09, 0x0A, 0x0D:
            return nil
        default:
            out.append(byte)
        }
    }
    guard depth == 0, !inString else { return nil }
    return String(decoding: out, as: UTF8.self)
}
