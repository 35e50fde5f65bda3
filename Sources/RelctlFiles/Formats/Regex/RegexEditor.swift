import Foundation
import RelctlCore

/// Any text file: exactly one match of `pattern`, whose named group `version` is the value of `field`, and whose
/// optional named group `build` is the build number (`"(?<version>[0-9.]+) \\((?<build>[0-9]+)\\)"` for
/// `40.0.5 (73)`; it gets the shared build number, Android's when the platforms count separately).
/// The pattern is an ICU regular expression (NSRegularExpression) with `^`/`$` matching at line breaks.
///
/// A value is written only if the pattern still matches the new text with that value in its group, so a sync never
/// leaves a file the next sync refuses. A pattern that admits only `X.Y.Z` gets the core of a prerelease
/// (`4.2.0` for `4.2.0-beta.1`): the full version is tried first, then the core.
package struct RegexEditor: VersionEditor {
    package var pattern: String
    package var field: VersionField
    /// Where the pattern is written (the config file and the line of `pattern`), for the error when it runs too long.
    package var source: DiagnosticLocation?

    package init(pattern: String, field: VersionField = .marketing, source: DiagnosticLocation? = nil) {
        self.pattern = pattern
        self.field = field
        self.source = source
    }

    /// Validates the pattern; `path` names the config file in the error.
    package static func validate(pattern: String, path: String, line: Int?) throws(FileEditError) {
        do {
            _ = try compile(pattern)
        } catch {
            throw FileEditError(path: path, line: line, message: "invalid regex pattern: \(error.localizedDescription)")
        }
        if let nested = RegexGuard.nestedRepetition(in: pattern) {
            throw FileEditError(path: path, line: line,
                                message: "regex pattern repeats a group that holds only a repetition, \(nested): matching it can take time exponential in the line's length",
                                hint: "drop the outer repetition: the repeated item alone matches the same text")
        }
        guard pattern.contains("(?<version>") else {
            throw FileEditError(path: path, line: line, message: "regex pattern has no (?<version>…) group",
                                hint: "wrap the version part in (?<version>…), e.g. VERSION = \"(?<version>[0-9.]+)\"; a build number goes in (?<build>…)")
        }
    }

    static func compile(_ pattern: String) throws -> NSRegularExpression {
        try NSRegularExpression(pattern: pattern, options: [.anchorsMatchLines])
    }

    package func parse(_ text: String, path: String) throws(FileEditError) -> any ParsedVersionFile {
        try RegexEditor.validate(pattern: pattern, path: path, line: nil)
        let compiled: NSRegularExpression
        do { compiled = try RegexEditor.compile(pattern) } catch {
            throw FileEditError(path: path, line: nil, message: "invalid regex pattern")
        }
        let matcher = Matcher(regex: compiled, field: field, capturesBuild: pattern.contains("(?<build>"))
        guard let found = matcher.matches(text) else {
            throw FileEditError(path: source?.path ?? path, line: source?.line,
                                message: "regex pattern \(pattern) ran over its step budget on \(path) (catastrophic backtracking) and was stopped",
                                hint: "make the pattern linear: anchor it with ^ and avoid nested or overlapping repetitions like (a+)+ or (a|aa)+")
        }
        if found.count > 1 {
            let lines = found.map { String(($0.version ?? $0.build)!.line) }
            throw FileEditError(path: path, line: (found[1].version ?? found[1].build)?.line,
                                message: "pattern matches \(found.count) times (lines \(lines.joined(separator: ", "))), expected exactly one",
                                hint: "make the pattern more specific, e.g. anchor it with ^")
        }
        return Parsed(text: text, path: path, pattern: pattern, field: field, matcher: matcher,
                      locations: found.flatMap { [$0.version, $0.build].compactMap { $0 } })
    }

    /// Whether the file, written with a prerelease, would still match: false when the pattern admits only `X.Y.Z`
    /// (such a file holds the core of a prerelease, like an iOS file).
    package func admitsPrerelease(_ text: String) -> Bool {
        (try? parse(text, path: ""))?.keepsPrerelease ?? true
    }

    /// The compiled pattern and what its groups are. Every run costs a pass over the whole file (a second or so
    /// for 50 MB), so a parsed file runs it once to find the values, and once per new text it must check.
    struct Matcher: @unchecked Sendable {
        /// NSRegularExpression is immutable and safe to share between threads.
        let regex: NSRegularExpression
        let field: VersionField
        let capturesBuild: Bool

        /// The groups of every match: (version location, build location); nil when the pass went over `RegexGuard`'s
        /// step budget and was stopped.
        func matches(_ text: String) -> [(version: VersionLocation?, build: VersionLocation?)]? {
            var lines = LineCounter(text)
            func location(_ match: NSTextCheckingResult, _ group: String, _ field: VersionField) -> VersionLocation? {
                let ns = match.range(withName: group)
                guard ns.location != NSNotFound, let r = Range(ns, in: text) else { return nil }
                let start = text.utf8.distance(from: text.startIndex, to: r.lowerBound)
                let end = text.utf8.distance(from: text.startIndex, to: r.upperBound)
                return VersionLocation(field: field, value: String(text[r]), line: lines.line(of: start), range: start..<end,
                                       context: group == "build" ? "build" : "regex")
            }
            let range = NSRange(text.startIndex..., in: text)
            var found: [NSTextCheckingResult] = []
            var ticks = 0
            var exceeded = false
            let budget = range.length + RegexGuard.extraTicks(range.length)
            regex.enumerateMatches(in: text, options: [.reportProgress], range: range) { match, _, stop in
                if let match { found.append(match); return }
                ticks += 1
                if ticks > budget { exceeded = true; stop.pointee = true }
            }
            if exceeded { return nil }
            return found.compactMap { match in
                let pair = (location(match, "version", field), capturesBuild ? location(match, "build", .build) : nil)
                return pair.0 == nil && pair.1 == nil ? nil : pair
            }
        }
    }

    struct Parsed: ParsedVersionFile {
        let text: String
        let path: String
        let pattern: String
        let field: VersionField
        let matcher: Matcher
        let locations: [VersionLocation]
        /// What each new text checked so far gave, so the plans of one run check each text once.
        let checked = CheckedTexts()

        /// Whether the pattern still matches exactly once with `edits` applied, its version group holding `value`.
        private func stillMatches(after edits: [TextEdit], holding value: String) -> Bool {
            checked.answer(edits) {
                // The original text passed within the budget; a text that does not is taken as not matching.
                guard let after = matcher.matches(applying(edits, to: text)) else { return false }
                return after.count == 1 && after[0].version?.value == value
            }
        }

        func edits(for target: VersionTarget) throws(FileEditError) -> [TextEdit] {
            let version = locations.first { $0.field == field }
            let build = locations.first { $0.field == .build }
            if version == nil && build == nil && (target.value(for: field) != nil || target.value(for: .build) != nil) {
                throw FileEditError(path: path, line: nil, message: "pattern \(pattern) does not match",
                                    hint: "check the pattern against the file")
            }
            var edits: [TextEdit] = []
            if let build, let newBuild = target.value(for: .build), newBuild != build.value {
                edits.append(TextEdit(range: build.range, replacement: newBuild))
            }
            if let version, let newValue = target.value(for: field) {
                // The full value first; a pattern that admits only X.Y.Z gets the core of a prerelease.
                let core = VersionParts(newValue).core
                var candidates = [newValue]
                if field == .marketing && core != newValue { candidates.append(core) }
                let chosen = candidates.first { candidate in
                    stillMatches(after: edits + [TextEdit(range: version.range, replacement: candidate)], holding: candidate)
                }
                guard let chosen else {
                    throw FileEditError(path: path, line: version.line,
                                        message: "the pattern would not match \(candidates.map { "\"\($0)\"" }.joined(separator: " or ")) written in place of \"\(version.value)\", so the next sync could not find it",
                                        hint: "widen the (?<version>…) group of the pattern, e.g. (?<version>[0-9A-Za-z.+-]+)")
                }
                if chosen != version.value { edits.append(TextEdit(range: version.range, replacement: chosen)) }
            }
            return edits
        }

        /// Whether the file, written with a prerelease, would still match: false when the pattern admits only `X.Y.Z`.
        var keepsPrerelease: Bool? {
            guard field == .marketing, let version = locations.first(where: { $0.field == field && $0.context == "regex" }) else {
                return true
            }
            let candidate = VersionParts(version.value).core + "-rc.1"
            return stillMatches(after: [TextEdit(range: version.range, replacement: candidate)], holding: candidate)
        }
    }

    /// The answers of `Parsed.stillMatches`, by the edits that made the text.
    final class CheckedTexts: @unchecked Sendable {
        private let lock = NSLock()
        private var answers: [[TextEdit]: Bool] = [:]

        func answer(_ edits: [TextEdit], _ compute: () -> Bool) -> Bool {
            lock.lock()
            if let known = answers[edits] { lock.unlock(); return known }
            lock.unlock()
            let value = compute()
            lock.lock()
            answers[edits] = value
            lock.unlock()
            return value
        }
    }
}

/// Line numbers of byte offsets of one text, counted as the offsets grow (a smaller one counts again from the start),
/// without building a table of every line: a 50 MB file of empty lines has 50 million of them.
struct LineCounter {
    let text: String
    private var offset = 0
    private var line = 1

    init(_ text: String) { self.text = text }

    mutating func line(of target: Int) -> Int {
        if target < offset { offset = 0; line = 1 }
        var newlines = 0
        let from = offset
        let counted = text.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
            for i in from..<min(target, bytes.count) where bytes[i] == 0x0A { newlines += 1 }
            return true
        }
        if counted == nil {
            let utf8 = text.utf8
            let start = utf8.index(utf8.startIndex, offsetBy: from)
            newlines = utf8[start..<utf8.index(start, offsetBy: target - from)].reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
        }
        line += newlines
        offset = target
        return line
    }
}
