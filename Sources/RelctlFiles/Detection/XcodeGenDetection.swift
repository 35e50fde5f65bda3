import RelctlCore

/// `relctl init` for an XcodeGen project: a `project.yml` (at the root, in `ios/` or `iosApp/`) that generates the
/// `.xcodeproj`, which is not committed. Its `settings` (project level, or a target's) set `MARKETING_VERSION` and
/// `CURRENT_PROJECT_VERSION`: one `regex` entry (a file is listed once) whose pattern matches the line setting each
/// (its key and indentation), both in one pattern with a `build` group when both are set. The version group admits only numbers and
/// dots, so a prerelease is written as its core (the App Store's rule for CFBundleShortVersionString).
enum XcodeGenDetection {
    static let specFiles = ["project.yml", "project.yaml", "ios/project.yml", "ios/project.yaml", "iosApp/project.yml", "iosApp/project.yaml"]

    struct Setting {
        var field: VersionField
        var key: String
        var indent: String
        var value: String
        var line: Int
    }

    /// The entries for the first XcodeGen spec found, and notes for what could not be told apart.
    static func detect(_ files: ProjectFiles, notes: inout [String]) -> [FileEntry] {
        for path in specFiles {
            guard let text = files.readableText(path), text.contains("targets:") else { continue }
            let settings = versionSettings(text)
            guard !settings.isEmpty else { continue }
            // The one line setting each field.
            var chosen: [Setting] = []
            for field in [VersionField.marketing, .iosBuild] {
                let lines = settings.filter { $0.field == field }
                guard let first = lines.first else { continue }
                if lines.count == 1 {
                    chosen.append(first)
                } else {
                    notes.append("\(path) sets \(first.key) on lines \(lines.map { String($0.line) }.joined(separator: ", ")), and a regex entry writes one line: set it once, in the project's settings.base (XcodeGen gives it to every target), and run relctl init again")
                }
            }
            guard !chosen.isEmpty else { return [] }
            // One entry per file (the config lists a file once): both values in one pattern, in the order of the file.
            let options: FileOptions
            if chosen.count == 2 {
                let ordered = chosen.sorted { $0.line < $1.line }
                let first = linePattern(ordered[0], group: ordered[0].field == .marketing ? "version" : "build")
                let second = linePattern(ordered[1], group: ordered[1].field == .marketing ? "version" : "build")
                options = FileOptions(pattern: "^" + first + "\\n(?:.*\\n)*?" + second + "$")
            } else {
                options = FileOptions(field: chosen[0].field, pattern: "^" + linePattern(chosen[0], group: "version") + "$")
            }
            return [FileEntry(path: path, format: .regex, options: options)]
        }
        return []
    }

    /// `<indent>KEY: "?(?<group>…)"?` for one setting line (no anchors).
    static func linePattern(_ s: Setting, group: String) -> String {
        let indent = s.indent.isEmpty ? "" : (s.indent.allSatisfy { $0 == " " } ? " {\(s.indent.count)}" : s.indent.replacingOccurrences(of: "\t", with: "\\t"))
        return "\(indent)\(s.key): *[\"']?(?<\(group)>[0-9]+(?:\\.[0-9]+){0,2})[\"']?[ \\t]*(?:#.*)?"
    }

    /// Every `MARKETING_VERSION: 1.2.3` / `CURRENT_PROJECT_VERSION: 45` line with a literal value.
    static func versionSettings(_ text: String) -> [Setting] {
        var found: [Setting] = []
        var number = 0
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            number += 1
            let line = raw.hasSuffix("\r") ? raw.dropLast() : raw
            let indent = line.prefix { $0 == " " || $0 == "\t" }
            let rest = line.dropFirst(indent.count)
            for (key, field) in [("MARKETING_VERSION", VersionField.marketing), ("CURRENT_PROJECT_VERSION", .iosBuild)] {
                guard rest.hasPrefix(key + ":") else { continue }
                var value = rest.dropFirst(key.count + 1).drop { $0 == " " }
                if let hash = value.firstIndex(of: "#") { value = value[..<hash] }
                var v = String(value).trimmingSpaces
                if v.count >= 2, (v.first == "\"" && v.last == "\"") || (v.first == "'" && v.last == "'") { v = String(v.dropFirst().dropLast()) }
                guard !v.isEmpty, v.allSatisfy({ $0.isNumber || $0 == "." }), v.first!.isNumber else { continue }
                found.append(Setting(field: field, key: key, indent: String(indent), value: v, line: number))
            }
        }
        return found
    }
}
