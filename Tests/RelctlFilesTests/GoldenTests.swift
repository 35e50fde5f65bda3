import Foundation
import Testing
@testable import RelctlFiles
import RelctlCore
import RelctlTestSupport

/// One golden case: `Fixtures/<dir>/<name>.before` edited with `target` must equal `.after` exactly.
struct GoldenCase: CustomTestStringConvertible, Sendable {
    var dir: String
    var name: String
    var entry: FileEntry
    var target: VersionTarget
    /// 1-based lines of `.before` that are expected to change (empty: no edits at all).
    var changedLines: [Int]

    var testDescription: String { "\(dir)/\(name)" }

    init(_ dir: String, _ name: String, _ format: FileFormat, options: FileOptions = FileOptions(),
         marketing: String? = nil, ios: String? = nil, android: String? = nil, changed: [Int]) {
        self.dir = dir
        self.name = name
        self.entry = FileEntry(path: "\(dir)/\(name)", format: format, options: options)
        self.target = VersionTarget(marketing: marketing, iosBuild: ios, androidBuild: android)
        self.changedLines = changed
    }
}

enum Fixtures {
    static let root = FixtureFiles.root

    static func text(_ dir: String, _ file: String) throws -> String {
        let data = try Data(contentsOf: root.appendingPathComponent(dir).appendingPathComponent(file))
        return String(decoding: data, as: UTF8.self)
    }
}

/// Lines (1-based, split on "\n" so "\r" stays part of a line) that differ between two texts of equal line count.
func changedLines(_ a: String, _ b: String) -> [Int]? {
    let la = Array(a.utf8).split(separator: 0x0A, omittingEmptySubsequences: false)
    let lb = Array(b.utf8).split(separator: 0x0A, omittingEmptySubsequences: false)
    guard la.count == lb.count else { return nil }
    return zip(la, lb).enumerated().filter { $0.element.0 != $0.element.1 }.map { $0.offset + 1 }
}

@Suite struct GoldenTests {
    static let cases: [GoldenCase] = [
        GoldenCase("expo", "managed-json5", .expo, marketing: "1.5.0", ios: "58", android: "58", changed: [6, 13, 18]),
        GoldenCase("expo", "number-build-no-final-newline", .expo, marketing: "6.3.0", ios: "15", android: "18", changed: [4, 6, 9]),
        GoldenCase("expo", "no-version", .expo, ios: "8", android: "8", changed: [6, 7]),
        GoldenCase("json", "package", .json, marketing: "1.5.0-beta.1", changed: [3]),
        GoldenCase("expo-js", "literals", .expoJS, marketing: "2.2.0", ios: "42", android: "42", changed: [10, 13, 17]),
        GoldenCase("expo-js", "marker", .expoJS, marketing: "3.1.0", android: "30100", changed: [2, 10]),
        GoldenCase("pbxproj", "react-native", .pbxproj, marketing: "1.5.0", ios: "12", changed: [62, 65, 74, 76]),
        GoldenCase("pbxproj", "flutter", .pbxproj, marketing: "2.0.0", ios: "5", changed: []),
        GoldenCase("pbxproj", "native-two-apps-extension", .pbxproj, marketing: "2.4.0", ios: "301",
                   changed: [],  // filled by count check below: 6 configurations × 2 keys
        ),
        GoldenCase("plist", "react-native-indirection", .plist, marketing: "1.5.0", ios: "12", changed: []),
        GoldenCase("plist", "literal-crlf-no-final-newline", .plist, marketing: "1.1.0", ios: "2", changed: [9, 11]),
        GoldenCase("xcconfig", "build", .xcconfig, marketing: "4.3.0", ios: "89", changed: [5, 6]),
        GoldenCase("gradle", "groovy-comment-and-flavors", .gradle, marketing: "1.1.0", android: "2", changed: [18, 19]),
        GoldenCase("gradle", "kotlin-trailing-comment", .gradle, marketing: "0.2.0-beta.1", android: "9", changed: [8, 9]),
        GoldenCase("gradle", "groovy-crlf-no-final-newline", .gradle, marketing: "3.0.0", android: "300", changed: [3, 4]),
        GoldenCase("gradle", "kotlin-property-delegate", .gradle, marketing: "1.5.0", android: "42", changed: [13]),
        GoldenCase("properties", "app-version", .properties,
                   options: FileOptions(versionNameKey: "APP_VERSION_NAME", versionCodeKey: "APP_VERSION_CODE"),
                   marketing: "10.3.0", android: "4083", changed: [3, 4]),
        GoldenCase("properties", "code-only", .properties, options: FileOptions(versionCodeKey: "APP_VERSION_CODE"),
                   marketing: "2.1.0", android: "8", changed: [4]),
        GoldenCase("properties", "kotlin-delegate", .properties, options: FileOptions(versionCodeKey: "VERSION_CODE"),
                   marketing: "1.5.0", android: "42", changed: [4]),
        GoldenCase("pubspec", "anchor", .pubspec, marketing: "1.95.0", ios: "129", android: "129", changed: [6]),
        GoldenCase("pubspec", "zero-padded", .pubspec, options: FileOptions(padBuildNumber: true),
                   marketing: "2.9.4", android: "20904", changed: [2]),
        GoldenCase("pubspec", "no-build-number", .pubspec, marketing: "0.2.0", android: "7", changed: [2]),
        GoldenCase("pbxproj", "project-level-settings", .pbxproj, marketing: "2.1.0", ios: "15", changed: [64, 65, 75, 76, 102, 104, 111, 113]),
        GoldenCase("xcconfig", "build-only", .xcconfig, marketing: "7.1.0", ios: "1208", changed: [3]),
        GoldenCase("xcconfig", "kmp-no-spaces", .xcconfig, marketing: "1.4.0", ios: "8", changed: [6, 7]),
        GoldenCase("regex", "display-with-build", .regex,
                   options: FileOptions(pattern: #"Courier (?<version>[0-9]+\.[0-9]+\.[0-9]+) \((?<build>[0-9]+)\)"#),
                   marketing: "40.1.0", ios: "74", changed: [3]),
        GoldenCase("regex", "core-only-pattern", .regex, options: FileOptions(pattern: #"marketingVersion = "(?<version>[0-9.]+)""#),
                   marketing: "4.2.0-beta.1", changed: [5]),
        GoldenCase("regex", "swift-constant", .regex, options: FileOptions(pattern: #"static let version = "(?<version>[0-9.]+)""#),
                   marketing: "2.4.0", changed: [3]),
    ]

    @Test(arguments: cases)
    func golden(_ c: GoldenCase) throws {
        let before = try Fixtures.text(c.dir, c.name + ".before")
        let after = try Fixtures.text(c.dir, c.name + ".after")
        let editor = c.entry.editor
        let edits = try editor.edits(before, path: c.entry.path, target: c.target)
        let result = applying(edits, to: before)
        #expect(result == after, "edited \(c.dir)/\(c.name) differs from .after")
        #expect(Array(result.utf8) == Array(after.utf8))

        // Applying the same target again gives no edits.
        let again = try editor.edits(result, path: c.entry.path, target: c.target)
        #expect(again.isEmpty, "second pass still edits: \(again)")

        // Only the expected bytes differ: each edit replaces just a value token on the expected lines.
        let lines = try #require(changedLines(before, result))
        if c.name == "native-two-apps-extension" {
            #expect(lines.count == 12) // Orbit, OrbitLite, OrbitWidget × Debug/Release × 2 keys
            #expect(edits.count == 12)
        } else {
            #expect(lines == c.changedLines)
        }
        let bytes = Array(before.utf8)
        for edit in edits {
            let old = String(decoding: bytes[edit.range], as: UTF8.self)
            #expect(!old.contains("\n") && !old.contains(" ") && !old.contains("\t"), "edit touches more than a token: \(old)")
        }

        // Reading the result reports the target values on every editable location.
        for location in try editor.read(result, path: c.entry.path) where location.indirection == nil {
            guard let expected = c.target.value(for: location.field) else { continue }
            var value = location.value
            if c.entry.options.padBuildNumber && location.field == .build { value = String(Int(value) ?? -1) }
            // An X.Y.Z pattern holds the core of a prerelease.
            let wanted = c.name == "core-only-pattern" && location.field == .marketing ? VersionParts(expected).core : expected
            #expect(value == wanted, "\(location.field) at line \(location.line)")
        }
    }
}
