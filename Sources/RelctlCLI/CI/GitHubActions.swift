import Foundation
import RelctlCore

/// GitHub Actions: workflow commands on stderr (`::warning title=…::…`), step outputs appended to the file
/// `$GITHUB_OUTPUT` names, the job summary to `$GITHUB_STEP_SUMMARY`'s, `GITHUB_TOKEN` for pushes.
struct GitHubActions: CIProvider {
    /// `$GITHUB_OUTPUT` and `$GITHUB_STEP_SUMMARY`: the files the runner reads after the step; nil when unset or empty.
    let outputFile: String?
    let summaryFile: String?
    /// Lines starting with `::` are workflow commands: only the annotations below pass as such.
    let logSafety = CILogSafety(.githubWorkflowCommands)

    init?(environment: [String: String]) {
        guard environment["GITHUB_ACTIONS"] == "true" else { return nil }
        outputFile = environment["GITHUB_OUTPUT"].flatMap { $0.isEmpty ? nil : $0 }
        summaryFile = environment["GITHUB_STEP_SUMMARY"].flatMap { $0.isEmpty ? nil : $0 }
    }

    var logShowsColor: Bool { false }
    var tokenVariables: [String] { ["GITHUB_TOKEN"] }

    /// `::warning file=<path>,line=<line>,title=<title>::<message>` (`::error`, `::notice` for a note), each
    /// property only when there is one, with `%`, CR and LF escaped in every part and `:` and `,` also in the
    /// properties, as the runner reads workflow commands.
    func annotation(_ severity: Severity, title: String?, location: DiagnosticLocation?, message: String) -> String? {
        let command = switch severity {
        case .error: "error"
        case .warning: "warning"
        case .note: "notice"
        }
        var properties: [String] = []
        if let location {
            properties.append("file=" + Self.escapeProperty(location.path))
            if let line = location.line { properties.append("line=\(line)") }
        }
        if let title { properties.append("title=" + Self.escapeProperty(title)) }
        let head = properties.isEmpty ? "" : " " + properties.joined(separator: ",")
        return logSafety.meaning("::\(command)\(head)::\(Self.escapeData(message))")
    }

    static func escapeProperty(_ text: String) -> String {
        escapeData(text).replacingBytes([0x3A: "%3A", 0x2C: "%2C"])
    }

    /// Entries appended to `$GITHUB_OUTPUT`: `name=value`, or `name<<DELIMITER` with a random delimiter when the value
    /// holds a line break, so no value can add an output of its own (`GitHubOutputFile`). A name that is not a plain
    /// output name is left out with a warning.
    func publish(outputs: [(name: String, value: String)], output: Output) {
        let (text, refused) = GitHubOutputFile.text(outputs)
        for problem in refused { output.emit(problem) }
        append(text, to: outputFile, variable: "GITHUB_OUTPUT", output: output)
    }

    func publish(summary: String, output: Output) {
        append(summary, to: summaryFile, variable: "GITHUB_STEP_SUMMARY", output: output)
    }

    static func escapeData(_ text: String) -> String {
        text.replacingBytes([0x25: "%25", 0x0D: "%0D", 0x0A: "%0A"])
    }

    /// Appends to the file, creating it when missing; a file that cannot be written is a warning, not a failure.
    private func append(_ text: String, to path: String?, variable: String, output: Output) {
        guard let path, !text.isEmpty else { return }
        guard let handle = FileHandle(forWritingAtPath: path) ?? {
            _ = FileManager.default.createFile(atPath: path, contents: nil)
            return FileHandle(forWritingAtPath: path)
        }() else {
            output.warning("cannot write \(variable) file \(path)")
            return
        }
        defer { try? handle.close() }
        // A file an earlier command left without a final line feed (`echo -n x=1 >> "$GITHUB_OUTPUT"`) would join
        // its last line and relctl's first: a line feed goes first then.
        let separator = Self.endsWithoutLineFeed(path) ? "\n" : ""
        _ = try? handle.seekToEnd()
        try? handle.write(contentsOf: Data((separator + text).utf8))
    }

    /// Whether the file at `path` is not empty and its last byte is not a line feed.
    private static func endsWithoutLineFeed(_ path: String) -> Bool {
        guard let reader = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? reader.close() }
        guard let end = try? reader.seekToEnd(), end > 0, (try? reader.seek(toOffset: end - 1)) != nil,
              let last = try? reader.read(upToCount: 1) else { return false }
        return last.first != 0x0A
    }
}

extension String {
    /// Each ASCII byte that is a key of `replacements` replaced by its value.
    fileprivate func replacingBytes(_ replacements: [UInt8: String]) -> String {
        var out = ""
        var start = utf8.startIndex
        for index in utf8.indices {
            guard let replacement = replacements[utf8[index]] else { continue }
            out += String(decoding: utf8[start..<index], as: UTF8.self) + replacement
            start = utf8.index(after: index)
        }
        return out + String(decoding: utf8[start...], as: UTF8.self)
    }
}
