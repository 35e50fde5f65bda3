import Synchronization
#if canImport(Glibc)
import Glibc
#endif
import RelctlCLI
import RelctlCore
import RelctlJSON
import RelctlFiles
import VersionGate

/// The fuzz harnesses: each takes any bytes, must never crash, and checks what must hold for every input. A broken
/// property stops the process (`fatalError`), which libFuzzer and the seeded driver both report as a crash, unless
/// a test collects it (`reportingBrokenProperties`).
package enum FuzzHarness {
    package static func run(_ target: FuzzTarget, _ bytes: [UInt8]) {
        switch target {
        case .conventionalCommit: conventionalCommit(bytes)
        case .semver: semver(bytes)
        case .json: json(bytes)
        case .editors: editors(bytes)
        case .config: config(bytes)
        }
    }

    /// The id the classifiers are compared on.
    static let commitID = CommitID(hex: String(repeating: "a", count: 40))!

    /// Where a broken property goes, per thread: none (libFuzzer, the seeded driver) stops the process, which both
    /// report as a crash; the test suite collects them for the one test instead (`SeededFuzzTests`), on the thread
    /// that runs it. (Not a `@TaskLocal`: its synchronous `withValue` crashed in `swift_task_localValuePush` under
    /// AddressSanitizer in the optimised test build.)
    private static let reporters = Mutex<[UInt: @Sendable (String) -> Void]>([:])

    /// Runs `body` with every broken property on this thread going to `report` instead of stopping the process.
    package static func reportingBrokenProperties<T>(to report: @escaping @Sendable (String) -> Void,
                                                     _ body: () throws -> T) rethrows -> T {
        let thread = UInt(pthread_self())
        reporters.withLock { $0[thread] = report }
        defer { _ = reporters.withLock { $0.removeValue(forKey: thread) } }
        return try body()
    }

    static func check(_ condition: @autoclosure () -> Bool, _ what: @autoclosure () -> String) {
        guard !condition() else { return }
        let thread = UInt(pthread_self())
        guard let report = reporters.withLock({ $0[thread] }) else { fatalError("fuzz property broken: \(what())") }
        report("fuzz property broken: \(what())")
    }

    /// The parser reads bytes and text alike; a header it accepts has a type; the streaming classifier's byte-level
    /// path agrees with the general one; the linter runs on anything.
    static func conventionalCommit(_ bytes: [UInt8]) {
        let fromBytes = ConventionalCommitParser.parse(bytes: bytes)
        let text = String(decoding: bytes, as: UTF8.self)
        let fromText = ConventionalCommitParser.parse(text)
        if Array(text.utf8) == bytes {
            check(fromBytes == fromText, "parse(bytes:) and parse(_:) disagree on \(text.debugDescription)")
        }
        if let message = fromBytes { check(!message.type.isEmpty, "a conventional header without a type: \(text.debugDescription)") }
        for rules in [ReleaseRules.default, ReleaseRules(ignoreMerges: false, ignoreFixups: false)] {
            var general = CommitAnalyzer.classify(RawCommit(sha: String(repeating: "a", count: 40), message: text,
                                                            parentCount: 2), rules: rules)
            general.dropBodyAndFooters()
            let bytewise = ASCIIClassifier.classify(message: text, parentCount: 2, id: Self.commitID, rules: rules)
            check(general == bytewise, "ASCIIClassifier and CommitAnalyzer disagree on \(text.debugDescription)")
        }
        _ = CommitLinter.lint(text, settings: LintSettings())
        _ = CommitLinter.lintTitle(text, settings: LintSettings())
        terminalText(text)
    }

    /// What relctl prints of a text holds no control character a terminal acts on, and `--json` holds none either
    /// and reads back to the text.
    static func terminalText(_ text: String) {
        let shown = Array(TerminalText.escaped(text).unicodeScalars)
        for (i, scalar) in shown.enumerated() where TerminalText.isEscaped(scalar) {
            check(scalar == "\r" && i + 1 < shown.count && shown[i + 1] == "\n", "raw U+\(String(scalar.value, radix: 16)) printed from \(text.debugDescription)")
        }
        let json = JSONOutput.string(text).rendered()
        check(!json.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }, "raw control in JSON \(json.debugDescription)")
        let back = try? JSONDocument.parse(json, allowJSON5: false).stringValue
        check(back == text, "JSON \(json.debugDescription) reads back as \(String(describing: back).debugDescription)")
    }

    /// A version reads back from its own text; precedence is a strict order; tag names round-trip.
    static func semver(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        let halves = text.split(separator: "\u{0}", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        let versions = halves.compactMap(SemanticVersion.init)
        for version in versions {
            check(SemanticVersion(version.description) == version, "\(version) does not read back")
            check(!(version < version), "\(version) < itself")
            let tag = TagFormat.default.tagName(for: version)
            check(TagFormat.default.version(fromTag: tag) == version, "tag \(tag) does not read back")
        }
        if versions.count == 2 {
            let (a, b) = (versions[0], versions[1])
            check(!(a < b && b < a), "\(a) and \(b) are each below the other")
            if !(a < b) && !(b < a) { check(a.hasSamePrecedence(as: b), "\(a) and \(b) are unordered") }
        }
        if let version = try? SemanticVersion.parse(text) { check(version == SemanticVersion(text), "parse and init disagree on \(text.debugDescription)") }
    }

    /// JSON is JSON5; an error names a line of the text. Both sides agree: the app library (VersionGate) accepts
    /// exactly the strict JSON the one parser (RelctlJSON) accepts, and reads the same values, or refuses with the
    /// same error, as the tree that `relctl gate` converts for it (the gate document is parsed once).
    static func json(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        let lines = lineCount(bytes)
        var strict = false
        let library = Result { () throws(GateDocumentError) in try GateJSON.parse(text) }
        do {
            let tree = try JSONDocument.parse(text, allowJSON5: false)
            strict = true
            let converted = Result { () throws(GateDocumentError) in try GateJSON(tree) }
            // Too deep for the library: it refuses while parsing (naming a column too), the tree's conversion after.
            let columnless = library.mapError { GateDocumentError($0.message, line: $0.line) }
            check(converted == columnless, "the gate library reads \(text.debugDescription) as \(library), the converted tree as \(converted)")
        } catch {
            check(error.line >= 1 && error.line <= lines + 1, "JSON error at line \(error.line) of \(lines)")
            // The library refuses too: for the same reason, or earlier, for nesting deeper than its limit.
            let refusal = GateDocumentError(error.message, line: error.line, column: error.column)
            var libraryRefusal: String?
            if case .failure(let refused) = library { libraryRefusal = refused.message }
            check(library == .failure(refusal) || libraryRefusal == "nesting deeper than \(GateJSON.maximumDepth) levels",
                  "the parser refuses \(text.debugDescription) with \(refusal), the gate library says \(library)")
        }
        do {
            _ = try JSONDocument.parse(text, allowJSON5: true)
        } catch {
            check(!strict, "valid JSON refused as JSON5: \(text.debugDescription) (\(error.message))")
            check(error.line >= 1 && error.line <= lines + 1, "JSON5 error at line \(error.line) of \(lines)")
        }
    }

    /// The first byte picks a format, the rest is the file. Whatever an editor reads, its edits apply to the text, the
    /// edited text reads again, and a second sync to the same version changes nothing.
    static func editors(_ bytes: [UInt8]) {
        guard let (editor, text) = editorAndText(bytes) else { return }
        let format = FileFormat.allCases[Int(bytes[0]) % FileFormat.allCases.count]
        guard let parsed = try? editor.parse(text, path: "fuzz") else { return }
        for location in parsed.locations {
            check(location.range.lowerBound >= 0 && location.range.upperBound <= text.utf8.count, "\(format) location \(location.range) outside the text")
        }
        let target = VersionTarget(marketing: "9.8.7", iosBuild: "42", androidBuild: "43")
        guard let edits = try? parsed.edits(for: target) else { return }
        for edit in edits {
            check(edit.range.lowerBound >= 0 && edit.range.upperBound <= text.utf8.count, "\(format) edit \(edit.range) outside the text")
        }
        let written = applying(edits, to: text)
        let again: any ParsedVersionFile
        do {
            again = try editor.parse(written, path: "fuzz")
        } catch {
            fatalError("fuzz property broken: \(format) cannot read what it wrote: \(error.message)\n\(written.debugDescription)")
        }
        if let second = try? again.edits(for: target) {
            check(second.isEmpty, "\(format): a second sync to the same version edits again: \(second)\n\(written.debugDescription)")
        }
    }

    /// Whether the editor the first byte picks reads the rest with at least one version location.
    static func editorParses(_ bytes: [UInt8]) -> Bool {
        guard let (editor, text) = editorAndText(bytes), let parsed = try? editor.parse(text, path: "fuzz") else { return false }
        return !parsed.locations.isEmpty
    }

    static func editorAndText(_ bytes: [UInt8]) -> (any VersionEditor, String)? {
        guard let first = bytes.first else { return nil }
        let formats = FileFormat.allCases
        let format = formats[Int(first) % formats.count]
        var options = FileOptions()
        // The high bit of the first byte picks each format's other options.
        let other = first & 0x80 != 0
        switch format {
        case .json where other: options.keyPath = ["expo", "version"]
        case .pbxproj where other, .plist where other, .xcconfig where other: options.only = .build
        case .pubspec where other: options.padBuildNumber = true
        default: break
        }
        if format == .versionCatalog {
            options.versionNameKey = "versionName"
            options.versionCodeKey = "versionCode"
        }
        if format == .regex {
            options.pattern = !other ? #"^VERSION = "(?<version>[0-9.]+)""# : #"(?<version>[0-9]+\.[0-9]+\.[0-9]+) \((?<build>[0-9]+)\)"#
        }
        return (format.unit.editor(options, readFile: nil), String(decoding: bytes.dropFirst(), as: UTF8.self))
    }

    /// The most lines `bytes` can have: a parser may count a CR, a LF or a CRLF as a line break (`"\r\n"` is one
    /// Swift `Character`, so splitting the text on `"\n"` would miss it).
    static func lineCount(_ bytes: [UInt8]) -> Int {
        bytes.reduce(1) { $0 + ($1 == 0x0A || $1 == 0x0D ? 1 : 0) }
    }

    /// The loader never crashes; an error with a line names a line of the text.
    static func config(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        let lines = lineCount(bytes)
        if let problem = ConfigValidation.problem(in: text) {
            check(!problem.message.isEmpty, "an empty config error")
            if let line = problem.line { check(line >= 1 && line <= lines + 1, "config error at line \(line) of \(lines)") }
        }
    }
}
