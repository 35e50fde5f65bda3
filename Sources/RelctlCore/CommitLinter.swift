/// Checks a commit message against Conventional Commits as relctl reads it: the header through
/// ``ConventionalCommitParser`` (the parser `relctl next` uses, so what passes here is what counts there), the
/// footers through its footer rule. Every problem says the line it is on and how to fix it.
package enum CommitLinter {
    /// The problems of one commit message. `parentCount` > 1, or a header git writes for a merge
    /// (``GitMergeMessage``): a merge, which relctl never counts (nothing to check). `releaseBranch`: the branch the commit is (or will be) on when that is a release branch, where a
    /// `fixup!` commit would stay for good; nil on any other branch, where `git rebase --autosquash` folds it away.
    package static func lint(_ message: String, settings: LintSettings, parentCount: Int = 1,
                             releaseBranch: String? = nil) -> [LintProblem] {
        guard parentCount <= 1 else { return [] }
        let text = CommitMessageLines(message)
        guard let headerIndex = text.lines.firstIndex(where: { !$0.isEmpty }) else {
            return report(settings, [(.headerFormat, 1, "the commit message is empty",
                                      "write a header like 'fix(login): keep the session after a restart'")])
        }
        let header = String(decoding: text.bytes[text.lines[headerIndex]], as: UTF8.self)
        let headerLine = headerIndex + 1
        if CommitAnalyzer.stripFixupPrefixes(header) != nil {
            // git commit --fixup repeats a header that was checked already; only a release branch keeps it.
            guard let releaseBranch else { return amendedMessageProblems(text, headerIndex: headerIndex, header: header, settings: settings) }
            return report(settings, [(.fixup, headerLine, "'\(header)' is a fixup commit on release branch '\(releaseBranch)', where it stays in the history for good",
                                      "squash it into the commit it fixes before it reaches '\(releaseBranch)': git rebase -i --autosquash, or amend that commit")])
        }
        if GitMergeMessage.isMergeHeader(header) { return [] }
        var found: [(LintRule, Int, String, String)] = []
        let isRevert = CommitAnalyzer.isRevertSummary(header) && CommitAnalyzer.revertReference(in: message) != nil
        if !isRevert {
            found += headerProblems(header, line: headerLine, settings: settings)
        }
        found += footerProblems(text, headerIndex: headerIndex, message: message)
        return report(settings, found)
    }

    /// An `amend!` commit (`git commit --fixup=amend:<commit>`) carries, after its header and a blank line, the
    /// message `git rebase --autosquash` gives the commit it amends: that message is checked, at its own lines.
    /// `fixup!` and `squash!` commits have nothing to check.
    private static func amendedMessageProblems(_ text: CommitMessageLines, headerIndex: Int, header: String,
                                               settings: LintSettings) -> [LintProblem] {
        guard header.hasPrefix("amend! "), headerIndex + 1 < text.lines.count,
              let start = text.lines[(headerIndex + 1)...].firstIndex(where: { !$0.isEmpty }) else { return [] }
        return lint(text.joined(start..<text.lines.count), settings: settings).map { problem in
            var problem = problem
            problem.line += start
            return problem
        }
    }

    /// The problems of a pull-request title: the header of the squash commit it will become.
    package static func lintTitle(_ title: String, settings: LintSettings) -> [LintProblem] {
        let header = title.trimmingASCIIWhitespace()
        guard !header.isEmpty else {
            return report(settings, [(.headerFormat, 1, "the title is empty", "write a title like 'feat(ui): dark mode'")])
        }
        return report(settings, headerProblems(header, line: 1, settings: settings))
    }

    private static func report(_ settings: LintSettings, _ found: [(LintRule, Int, String, String)]) -> [LintProblem] {
        found.compactMap { rule, line, message, hint in
            let severity = settings.severity(of: rule)
            return severity == .off ? nil : LintProblem(rule: rule, severity: severity, line: line, message: message, hint: hint)
        }
    }

    // MARK: Header

    private static func headerProblems(_ header: String, line: Int, settings: LintSettings) -> [(LintRule, Int, String, String)] {
        var found: [(LintRule, Int, String, String)] = []
        let length = header.count
        if length > settings.headerMaxLength {
            found.append((.headerMaxLength, line, "the header is \(length) characters long, more than \(settings.headerMaxLength)",
                          "shorten the description and move the details to the body, after a blank line"))
        }
        if let parsed = ConventionalCommitParser.parse(header) {
            let type = parsed.normalizedType
            if !settings.types.contains(type) {
                found.append((.typeEnum, line, "unknown type '\(parsed.type)' in '\(header)'", typeHint(type, settings)))
            }
            return found
        }
        found.append(malformedHeader(header, line: line, settings: settings))
        return found
    }

    /// Why a header the parser refuses is not conventional, and the header that would be.
    private static func malformedHeader(_ header: String, line: Int, settings: LintSettings) -> (LintRule, Int, String, String) {
        if header == "Squashed commit of the following:" {
            return (.headerFormat, line, "'\(header)' is the header 'git merge --squash' writes, so relctl ignores this commit and every change it squashes",
                    "write a header that sums them up, like 'feat(login): …'; the squashed messages can stay in the body")
        }
        let bytes = Array(header.utf8)
        var i = 0
        while i < bytes.count, bytes[i].isASCIILetter || (i > 0 && (bytes[i].isASCIIDigit || bytes[i] == 0x2D || bytes[i] == 0x5F)) { i += 1 }
        let type = String(decoding: bytes[..<i], as: UTF8.self)
        let plain = "start it with a type and a colon, like 'fix: …' or 'feat(scope): …'"
        guard i > 0 else {
            return (.headerFormat, line, "'\(header)' is not a conventional header (type(scope): description), so relctl ignores it", plain)
        }
        if i < bytes.count, bytes[i] == 0x28 /* ( */ {
            guard let close = bytes[i...].firstIndex(of: 0x29), close > i + 1, !bytes[(i + 1)..<close].contains(0x28) else {
                return (.headerFormat, line, "the scope of '\(header)' is empty or not closed", "write it like 'feat(ui): …', or leave out the parentheses")
            }
            i = close + 1
        }
        let hasScope = i > type.utf8.count
        if i < bytes.count, bytes[i] == 0x21 /* ! */ { i += 1 }
        guard i < bytes.count, bytes[i] == 0x3A /* : */ else {
            // `feat(ui) add`, `fix login`: a known type or a scope, then no colon.
            if i < bytes.count, bytes[i] == 0x20, hasScope || settings.types.contains(type.lowercased()),
               bytes[(i + 1)...].first != 0x28, bytes[(i + 1)...].first != 0x3A {
                let fixed = String(decoding: bytes[..<i], as: UTF8.self) + ": " + String(decoding: bytes[(i + 1)...], as: UTF8.self).trimmingASCIIWhitespace()
                return (.headerFormat, line, "no colon after '\(String(decoding: bytes[..<i], as: UTF8.self))' in '\(header)', so relctl ignores it", "write '\(fixed)'")
            }
            if i < bytes.count, bytes[i] == 0x20, bytes[(i + 1)...].first == 0x28 || bytes[(i + 1)...].first == 0x3A {
                return (.headerFormat, line, "'\(header)' has a space after the type '\(type)'", "write the type, scope and colon together: '\(type)(scope): …' or '\(type): …'")
            }
            return (.headerFormat, line, "'\(header)' is not a conventional header (type(scope): description), so relctl ignores it", plain)
        }
        let rest = bytes[(i + 1)...]
        if rest.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) {
            return (.subjectEmpty, line, "'\(header)' has no description after the colon", "say what the commit does: '\(String(decoding: bytes[...i], as: UTF8.self)) what changed'")
        }
        if rest.first != 0x20 {
            let fixed = String(decoding: bytes[...i], as: UTF8.self) + " " + String(decoding: rest, as: UTF8.self)
            return (.colonSpace, line, "no space after the colon in '\(header)', so relctl does not read it as conventional", "write '\(fixed)'")
        }
        return (.headerFormat, line, "'\(header)' is not a conventional header (type(scope): description), so relctl ignores it", plain)
    }

    private static func typeHint(_ type: String, _ settings: LintSettings) -> String {
        let known = settings.types.sorted()
        if let best = known.min(by: { editDistance($0, type) < editDistance($1, type) }),
           editDistance(best, type) <= max(1, min(2, type.count / 3)) || best.hasPrefix(type) || type.hasPrefix(best) {
            return "did you mean '\(best)'? Or add '\(type)' to \"lint\": {\"types\": [...]} in .relctl.json"
        }
        return "use one of \(known.joined(separator: ", ")), or add '\(type)' to \"lint\": {\"types\": [...]} in .relctl.json"
    }

    // MARK: Footers

    /// Texts of a breaking-change footer that say nothing breaks.
    private static let denials: Set<String> = ["none", "no", "n/a", "na", "nothing", "false", "-", "nope", "not breaking", "no breaking changes", "no breaking change"]

    private static func footerProblems(_ text: CommitMessageLines, headerIndex: Int, message: String) -> [(LintRule, Int, String, String)] {
        var found: [(LintRule, Int, String, String)] = []
        let lines = text.lines
        // Paragraphs after the header, as the parser splits them; the header's own paragraph is `glued`.
        var paragraphs: [Range<Int>] = []
        var index = headerIndex + 1
        while index < lines.count {
            if lines[index].isEmpty { index += 1; continue }
            let start = index
            while index < lines.count, !lines[index].isEmpty { index += 1 }
            paragraphs.append(start..<index)
        }
        func footer(_ line: Int) -> (token: String, value: String)? {
            ConventionalCommitParser.footerLine(text.bytes[lines[line]]).map {
                (String(decoding: $0.token, as: UTF8.self), String(decoding: $0.value, as: UTF8.self))
            }
        }
        func isBreaking(_ token: String) -> Bool { Footer(token: token, value: "").isBreakingChange }

        // Near misses of the breaking-change token, on any line after the header.
        for line in (headerIndex + 1)..<lines.count where !lines[line].isEmpty {
            if let miss = nearMissBreaking(String(decoding: text.bytes[lines[line]], as: UTF8.self)) {
                found.append((.breakingFooter, line + 1, miss.message, miss.hint))
            }
        }

        // Footers without a blank line before them.
        if let first = paragraphs.first, first.lowerBound == headerIndex + 1, let f = footer(first.lowerBound) {
            found.append((.footerLeadingBlank, first.lowerBound + 1, "the footer '\(f.token)' follows the header without a blank line, so git reads it as part of the subject",
                          "put a blank line between the header and the footers"))
        }
        for (position, paragraph) in paragraphs.enumerated() where footer(paragraph.lowerBound) == nil {
            let rest = paragraph.dropFirst()
            // A breaking-change footer inside a body paragraph is body text: the major release is lost.
            if let line = rest.first(where: { footer($0).map { isBreaking($0.token) } ?? false }) {
                found.append((.footerLeadingBlank, line + 1, "'\(footer(line)!.token):' has no blank line before it, so it is read as body text and the commit is not a breaking change",
                              "put a blank line before the footers"))
                continue
            }
            // Trailers glued to the last paragraph of the body (git's own trailer block needs the blank line too).
            guard position == paragraphs.count - 1, let start = rest.firstIndex(where: { footer($0) != nil }),
                  rest[start...].allSatisfy({ footer($0) != nil }) else { continue }
            found.append((.footerLeadingBlank, start + 1, "the footer '\(footer(start)!.token)' has no blank line before it, so it is read as body text",
                          "put a blank line before the footers"))
        }

        // A breaking-change footer that says nothing breaks still makes a major release.
        if let parsed = ConventionalCommitParser.parse(message) {
            for line in headerIndex..<lines.count {
                guard let f = footer(line), isBreaking(f.token) else { continue }
                var value = f.value.trimmingASCIIWhitespace().lowercased()
                while value.hasSuffix(".") { value.removeLast() }
                guard denials.contains(value) else { continue }
                if parsed.hasBreakingMarker {
                    found.append((.breakingContradiction, line + 1, "the header's '!' marks a breaking change but '\(f.token): \(f.value)' says nothing breaks; relctl counts it as breaking and releases a major version",
                                  "if nothing breaks, remove the '!' and the footer; if something does, say what in the footer"))
                } else {
                    found.append((.breakingContradiction, line + 1, "'\(f.token): \(f.value)' says nothing breaks, but any BREAKING CHANGE footer marks a breaking change and releases a major version",
                                  "remove the footer when nothing breaks"))
                }
            }
        }
        return found
    }

    /// A line that looks like a breaking-change footer and would not count as one: another case or spelling of
    /// the token (`Breaking change:`, `BREAKING CHANGES:`, `BREAKING_CHANGE:`, `breaking-change:`), or the right
    /// token without the space after the colon.
    static func nearMissBreaking(_ line: String) -> (message: String, hint: String)? {
        guard let colon = line.firstIndex(of: ":") else { return nil }
        let token = String(line[..<colon])
        guard token.count <= 24 else { return nil }
        let words = token.lowercased().split(whereSeparator: { $0 == " " || $0 == "-" || $0 == "_" })
        let joined = words.joined()
        guard ["breakingchange", "breakingchanges", "breaking"].contains(joined), words.first == "breaking" else { return nil }
        let after = line[line.index(after: colon)...]
        if token == "BREAKING CHANGE" || token == "BREAKING-CHANGE" {
            guard !after.isEmpty, !after.hasPrefix(" ") else { return nil }
            return ("'\(token):' needs a space after the colon to count as a breaking change", "write '\(token): \(after)'")
        }
        return ("'\(token):' is not a breaking-change footer (only 'BREAKING CHANGE:' or 'BREAKING-CHANGE:', in capitals, counts), so this commit does not make a major release",
                "write 'BREAKING CHANGE:\(after.hasPrefix(" ") ? "" : " ")\(after.prefix(40))'")
    }
}
