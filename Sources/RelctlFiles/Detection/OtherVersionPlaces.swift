#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import RelctlCore
import RelctlJSON

/// `relctl init`, after detection: the other tracked files that hold the app's version string. A file of a format
/// relctl edits, with the version where that format keeps it (a `.properties` key, a JSON `…version` key, an Info.plist's
/// CFBundleShortVersionString, an `.xcconfig`'s MARKETING_VERSION), is added; any other (an Android string resource
/// `values/version.xml`, a Settings bundle's `Root.plist`, desktop packaging files) is named with a `regex` entry that
/// matches that line alone, ready to paste into `files`.
///
/// Only git's tracked files are read (the paths come from the index), each at most `maxSize` bytes, text only (no
/// NUL byte); dependencies, build output and generated folders are skipped, and so are lockfiles, changelogs and
/// documentation, where a version is history, not a setting.
package enum OtherVersionPlaces {
    package struct Place: Sendable, Equatable {
        package var path: String
        package var line: Int
        /// The file's other lines holding the version (a config lists a file once, and a regex entry writes one line).
        package var otherLines: [Int] = []
        /// The `files` entry to paste, as one line of JSON; nil when no pattern matches that line alone.
        package var suggestion: String?
    }

    package struct Found: Sendable {
        /// Files added in a format relctl knows.
        package var added: [FileEntry] = []
        /// Files named, each with a regex entry to paste.
        package var named: [Place] = []
    }

    package static let maxSize = 256 * 1024
    /// Folder names never looked into.
    static let skippedFolders: Set<String> = [
        "node_modules", "Pods", "build", ".gradle", "vendor", "Carthage", "DerivedData", ".build", ".dart_tool",
        ".symlinks", "xcuserdata", ".idea", ".yarn", ".pnpm-store", "bower_components", "dist", "out", "generated",
        "third_party", "third-party", "ThirdParty", "external", "fastlane", ".github", "docs", "doc",
    ]
    /// File names never read: lockfiles and what records history.
    static let skippedNames: Set<String> = [
        "package-lock.json", "yarn.lock", "pnpm-lock.yaml", "Podfile.lock", "Gemfile.lock", "pubspec.lock",
        "Package.resolved", "Cartfile.resolved", "gradle-wrapper.properties", "composer.lock", "Cargo.lock",
        ".relctl.json", ".relctl-sync", "bun.lockb", "versions.properties",
    ]
    static let skippedExtensions: Set<String> = [
        "png", "jpg", "jpeg", "gif", "webp", "ico", "icns", "pdf", "zip", "jar", "aar", "so", "a", "dylib", "ttf", "otf",
        "woff", "woff2", "mp3", "mp4", "mov", "wav", "keystore", "jks", "p12", "mobileprovision", "car", "lock", "md",
        "markdown", "rst", "adoc", "txt", "html", "htm", "css", "svg", "map", "snap", "pbxproj", "xcscheme", "storyboard",
        "xib", "strings", "stringsdict", "lproj", "log", "csv", "tsv", "sum",
    ]

    /// `tracked`: the index's files (root-relative path, size); `entries`: what detection kept (never listed again).
    /// `build`: the app's build number, for a version code key beside the version in a `.properties` file.
    package static func find(version: String, build: String?, tracked: [(path: String, size: Int)], entries: [FileEntry],
                             files: ProjectFiles) -> Found {
        var found = Found()
        // "1.0" is every XML prolog and plist header; a version without a dot is any number.
        guard version.contains("."), version != "1.0", version.first?.isNumber == true else { return found }
        let needle = Array(version.utf8)
        let listed = Set(entries.map(\.path))
        for file in tracked where file.size > 0 && file.size <= maxSize && !listed.contains(file.path) {
            let components = file.path.split(separator: "/")
            guard let name = components.last.map(String.init),
                  !components.dropLast().contains(where: { skippedFolders.contains(String($0)) }),
                  !skippedNames.contains(name), !name.uppercased().hasPrefix("CHANGELOG"), !name.uppercased().hasPrefix("RELEASE"),
                  !skippedExtensions.contains(name.split(separator: ".").last.map { $0.lowercased() } ?? "") else { continue }
            guard worthReading(file.path, name: name, folders: components.dropLast()) else { continue }
            guard let data = FileManager.default.contents(atPath: files.absolute(file.path)) else { continue }
            let bytes = [UInt8](data)
            guard !bytes.contains(0), let lines = matchingLines(bytes, needle: needle), !lines.isEmpty,
                  let text = String(bytes: bytes, encoding: .utf8) else { continue }
            if let entry = knownEntry(file.path, text: text, version: version, build: build) {
                found.added.append(entry)
                continue
            }
            // One entry per file: the first line a pattern tells apart, the others named.
            let chosen = lines.lazy.compactMap { line in suggestion(file.path, text: text, line: line, version: version).map { (line, $0) } }.first
            let line = chosen?.0 ?? lines[0]
            found.named.append(Place(path: file.path, line: line, otherLines: lines.filter { $0 != line }, suggestion: chosen?.1))
        }
        return found
    }

    static let sourceExtensions: Set<String> = [
        "swift", "kt", "java", "m", "mm", "h", "c", "cc", "cpp", "hpp", "ts", "tsx", "js", "jsx", "mjs", "cjs", "dart",
        "py", "rb", "go", "rs", "cs", "scala", "groovy", "vue", "svelte",
    ]

    /// Source code is read only when its name speaks of versions or configuration (`AppVersion.kt`, `config.ts`,
    /// `BuildConstants.swift`), and in an Android `res/` folder only the `values*` folders: a large app has thousands of
    /// sources and layouts, and init reads only what may set the version.
    static func worthReading(_ path: String, name: String, folders: ArraySlice<Substring>) -> Bool {
        if let res = folders.lastIndex(of: "res"), res + 1 < folders.endIndex, !folders[res + 1].hasPrefix("values") { return false }
        let ext = name.split(separator: ".").last.map { $0.lowercased() } ?? ""
        guard sourceExtensions.contains(ext) else { return true }
        let lower = name.lowercased()
        return ["version", "config", "constant", "buildinfo", "appinfo"].contains { lower.contains($0) }
    }

    /// The 1-based lines holding `needle` as a whole version (not inside `11.2.3`, `1.2.30` or `v1.2.3-rc`'s digits).
    static func matchingLines(_ bytes: [UInt8], needle: [UInt8]) -> [Int]? {
        var lines: [Int] = []
        var line = 1
        var i = 0
        let n = needle.count
        func isVersionByte(_ b: UInt8) -> Bool { (b >= 0x30 && b <= 0x39) || b == UInt8(ascii: ".") || (b | 0x20 >= 0x61 && b | 0x20 <= 0x7A) }
        while i + n <= bytes.count {
            if bytes[i] == 0x0A { line += 1; i += 1; continue }
            if bytes[i] == needle[0], Array(bytes[i..<i + n]) == needle,
               i == 0 || !isVersionByte(bytes[i - 1]) || bytes[i - 1] == UInt8(ascii: "v") && (i < 2 || !isVersionByte(bytes[i - 2])),
               i + n == bytes.count || !(bytes[i + n] >= 0x30 && bytes[i + n] <= 0x39) && !(bytes[i + n] == UInt8(ascii: ".") && i + n + 1 < bytes.count && bytes[i + n + 1] >= 0x30 && bytes[i + n + 1] <= 0x39) {
                if lines.last != line { lines.append(line) }
                i += n
                continue
            }
            i += 1
        }
        return lines
    }

    /// An entry in a format relctl edits, when the file keeps the version where that format looks for it.
    static func knownEntry(_ path: String, text: String, version: String, build: String?) -> FileEntry? {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        if name.hasSuffix(".properties") {
            var nameKey: String?
            var codeKey: String?
            for line in text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
                let trimmed = String(line).trimmingSpaces
                guard !trimmed.hasPrefix("#"), !trimmed.hasPrefix("!"),
                      let separator = trimmed.firstIndex(where: { $0 == "=" || $0 == ":" }) else { continue }
                let key = String(trimmed[..<separator]).trimmingSpaces
                let value = String(trimmed[trimmed.index(after: separator)...]).trimmingSpaces
                if value == version, nameKey == nil, !key.contains(" ") { nameKey = key }
                let lower = key.lowercased()
                if let build, value == build, codeKey == nil, lower.contains("code") || lower.contains("build") { codeKey = key }
            }
            guard let nameKey else { return nil }
            let entry = FileEntry(path: path, format: .properties, options: FileOptions(versionNameKey: nameKey, versionCodeKey: codeKey))
            return readsBack(entry, text: text, version: version) ? entry : nil
        }
        if name.hasSuffix(".json"), let root = try? JSONDocument.parse(text, allowJSON5: false) {
            guard let keyPath = versionKeyPath(root, version: version, prefix: []) else { return nil }
            let entry = FileEntry(path: path, format: .json, options: FileOptions(keyPath: keyPath == ["version"] ? nil : keyPath))
            return readsBack(entry, text: text, version: version) ? entry : nil
        }
        if name.hasSuffix(".plist") {
            let entry = FileEntry(path: path, format: .plist)
            return readsBack(entry, text: text, version: version) ? entry : nil
        }
        if name.hasSuffix(".xcconfig") {
            let entry = FileEntry(path: path, format: .xcconfig)
            return readsBack(entry, text: text, version: version) ? entry : nil
        }
        return nil
    }

    /// Whether the entry's editor reads `version` as a literal marketing version, and nothing it cannot write.
    static func readsBack(_ entry: FileEntry, text: String, version: String) -> Bool {
        guard let locations = try? entry.editor.read(text, path: entry.path) else { return false }
        return locations.contains { $0.field == .marketing && $0.indirection == nil && $0.value == version }
            && locations.allSatisfy { $0.indirection == nil }
    }

    /// The key path (objects only) of a string equal to `version` under a key naming a version (`version`,
    /// `appVersion`, `version_name`), not inside dependency lists.
    static func versionKeyPath(_ node: JSONNode, version: String, prefix: [String]) -> [String]? {
        for member in node.objectMembers ?? [] {
            if ["dependencies", "devDependencies", "peerDependencies", "optionalDependencies", "engines", "overrides", "resolutions"].contains(member.key) { continue }
            if member.value.stringValue == version, member.key.lowercased().contains("version") { return prefix + [member.key] }
            if member.value.objectMembers != nil, prefix.count < 4,
               let found = versionKeyPath(member.value, version: version, prefix: prefix + [member.key]) { return found }
        }
        return nil
    }

    /// A `regex` entry (one line of JSON) whose pattern matches line `line` alone, with the version in its group;
    /// nil when the line's text around the version is not enough to tell it from the others.
    static func suggestion(_ path: String, text: String, line: Int, version: String) -> String? {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard line - 1 < lines.count else { return nil }
        var content = String(lines[line - 1])
        if content.hasSuffix("\r") { content.removeLast() }
        guard let range = content.range(of: version) else { return nil }
        let before = String(content[..<range.lowerBound]).drop { $0 == " " || $0 == "\t" }
        let after = String(content[range.upperBound...])
        // The text after the version up to its first few characters (a closing quote or tag) keeps the match tight.
        let tail = String(after.prefix { $0 != " " && $0 != "\t" }.prefix(12))
        let group = "(?<version>[0-9]+(?:\\.[0-9]+)+(?:-[0-9A-Za-z.]+)?)"
        let pattern = "^[ \\t]*" + escaped(String(before)) + group + escaped(tail)
        let editor = RegexEditor(pattern: pattern)
        guard let locations = try? editor.read(text, path: path), locations.count == 1,
              locations[0].value == version, locations[0].line == line else { return nil }
        return regexEntry(path: path, pattern: pattern)
    }

    /// A `regex` entry for `files`, as one line of JSON to paste.
    static func regexEntry(path: String, pattern: String) -> String {
        "{\"path\": " + JSONDocument.quote(path) + ", \"format\": \"regex\", \"pattern\": " + JSONDocument.quote(pattern) + "}"
    }

    /// `text` with every ICU regex metacharacter escaped.
    static func escaped(_ text: String) -> String {
        var out = ""
        for c in text {
            if "\\^$.|?*+()[]{}".contains(c) { out.append("\\") }
            out.append(c)
        }
        return out
    }
}

