import Testing
@testable import RelctlCore

@Suite("Conventional commit header")
struct ConventionalHeaderTests {
    @Test func parsesFullHeader() throws {
        let message = try #require(ConventionalCommitParser.parse("feat(parser)!: add arrays"))
        #expect(message.type == "feat")
        #expect(message.scope == "parser")
        #expect(message.hasBreakingMarker)
        #expect(message.description == "add arrays")
        #expect(message.body == nil)
        #expect(message.footers.isEmpty)
        #expect(message.breakingChanges == ["add arrays"])
        #expect(message.isBreaking)
    }

    @Test func parsesMinimalHeader() throws {
        let message = try #require(ConventionalCommitParser.parse("fix: correct typo"))
        #expect(message == ConventionalMessage(type: "fix", description: "correct typo"))
        #expect(!message.isBreaking)
        #expect(message.breakingChanges.isEmpty)
    }

    @Test(arguments: [
        ("FEAT: shout", "FEAT", "feat", nil as String?),
        ("Fix(API): x", "Fix", "fix", "API"),
        ("build-deps(npm_x): y", "build-deps", "build-deps", "npm_x"),
        ("ci2: z", "ci2", "ci2", nil),
        ("feat(scope with spaces): d", "feat", "feat", "scope with spaces"),
        ("feat(a/b,c): d", "feat", "feat", "a/b,c"),
        ("feat_x: d", "feat_x", "feat_x", nil),
    ])
    func keepsTypeAndScopeAsWritten(header: String, type: String, normalized: String, scope: String?) throws {
        let message = try #require(ConventionalCommitParser.parse(header))
        #expect(message.type == type)
        #expect(message.normalizedType == normalized)
        #expect(message.scope == scope)
        #expect(message.normalizedScope == scope?.lowercased())
    }

    @Test(arguments: [
        "",
        "feat:no space",
        "feat:",
        "feat: ",
        "feat:   ",
        "feat():  empty scope",
        "feat(): x",
        "feat((a)): nested",
        "feat(a(b)): nested",
        "feat(a: unterminated",
        "feat!(scope): wrong order",
        "feat!!: double bang",
        " feat: leading space",
        "\tfeat: leading tab",
        "feat : space before colon",
        "1feat: digit first",
        "-feat: dash first",
        "feat\u{00E9}: non-ascii type",
        "Merge branch 'main' into dev",
        "Revert \"feat: x\"",
        "fixup! feat: x",
        "feat(scope) : x",
        "feat(scope)x: y",
        "just a sentence",
        ": no type",
    ])
    func rejectsMalformedHeaders(_ message: String) {
        #expect(ConventionalCommitParser.parse(message) == nil)
    }

    @Test func descriptionIsTrimmed() throws {
        let message = try #require(ConventionalCommitParser.parse("feat:   spaced out   \t"))
        #expect(message.description == "spaced out")
    }

    @Test func descriptionMayContainColonsAndParentheses() throws {
        let message = try #require(ConventionalCommitParser.parse("fix(x): handle a: b (c) !"))
        #expect(message.description == "handle a: b (c) !")
        #expect(!message.hasBreakingMarker)
    }
}

@Suite("Conventional commit body and footers")
struct ConventionalBodyFooterTests {
    @Test func separatesBodyAndFooters() throws {
        let text = """
        fix: prevent racing of requests

        Introduce a request id and a reference to latest request. Dismiss
        incoming responses other than from latest request.

        Remove timeouts which were used to mitigate the racing issue but are
        obsolete now.

        Reviewed-by: Z
        Refs: #123
        """
        let message = try #require(ConventionalCommitParser.parse(text))
        #expect(message.body == """
        Introduce a request id and a reference to latest request. Dismiss
        incoming responses other than from latest request.

        Remove timeouts which were used to mitigate the racing issue but are
        obsolete now.
        """)
        #expect(message.footers == [Footer(token: "Reviewed-by", value: "Z"), Footer(token: "Refs", value: "#123")])
        #expect(!message.isBreaking)
    }

    @Test func bodyWithoutFooters() throws {
        let message = try #require(ConventionalCommitParser.parse("docs: x\n\nJust a body.\nSecond line.\n"))
        #expect(message.body == "Just a body.\nSecond line.")
        #expect(message.footers.isEmpty)
    }

    @Test func footersWithoutBody() throws {
        let message = try #require(ConventionalCommitParser.parse("docs: x\n\nRefs #123\nAcked-by: A <a@b.c>"))
        #expect(message.body == nil)
        #expect(message.footers == [
            Footer(token: "Refs", value: "123", usesHashSeparator: true),
            Footer(token: "Acked-by", value: "A <a@b.c>"),
        ])
    }

    @Test func breakingChangeFooter() throws {
        let message = try #require(ConventionalCommitParser.parse("""
        feat: allow provided config object to extend other configs

        BREAKING CHANGE: `extends` key in config file is now used for extending other config files
        """))
        #expect(!message.hasBreakingMarker)
        #expect(message.isBreaking)
        #expect(message.breakingChanges == ["`extends` key in config file is now used for extending other config files"])
        #expect(message.footers.first?.isBreakingChange == true)
    }

    @Test func breakingChangeHyphenatedFooter() throws {
        let message = try #require(ConventionalCommitParser.parse("chore: drop node 6\n\nBREAKING-CHANGE: use JS features not available in Node 6."))
        #expect(message.isBreaking)
        #expect(message.breakingChanges == ["use JS features not available in Node 6."])
    }

    @Test func bangAndFooterTogetherUseFooterText() throws {
        let message = try #require(ConventionalCommitParser.parse("feat!: x\n\nBREAKING CHANGE: details"))
        #expect(message.hasBreakingMarker)
        #expect(message.breakingChanges == ["details"])
    }

    @Test func severalBreakingFooters() throws {
        let message = try #require(ConventionalCommitParser.parse("feat: x\n\nBREAKING CHANGE: one\nBREAKING-CHANGE: two"))
        #expect(message.breakingChanges == ["one", "two"])
    }

    @Test func emptyBreakingFooterFallsBackToDescription() throws {
        let message = try #require(ConventionalCommitParser.parse("feat: new api\n\nBREAKING CHANGE:"))
        #expect(message.isBreaking)
        #expect(message.breakingChanges == ["new api"])
    }

    @Test(arguments: [
        "feat: x\n\nbreaking change: lowercase is not breaking",
        "feat: x\n\nBreaking-Change: mixed case is not breaking",
        "feat: x\n\nbreaking-change: lowercase hyphen",
        "feat: x\n\nThis is a BREAKING CHANGE: in the body text",
        "feat: x\n\nBREAKING CHANGE without colon",
        "feat: x\n\nBREAKING CHANGE:no space",
        "feat: x\n\nBREAKING  CHANGE: two spaces",
        "feat: x\nBREAKING CHANGE",
    ])
    func notBreaking(_ text: String) throws {
        let message = try #require(ConventionalCommitParser.parse(text))
        #expect(!message.isBreaking)
        #expect(message.breakingChanges.isEmpty)
        #expect(message.footers.filter(\.isBreakingChange).isEmpty)
    }

    @Test func aBreakingChangeLineIsNeverDemotedToBody() throws {
        // Missing a major is the costly mistake: like conventional-changelog's parser, a BREAKING CHANGE line
        // at the start of a paragraph counts, and the paragraphs after it carry on its value.
        let message = try #require(ConventionalCommitParser.parse("feat: x\n\nBREAKING CHANGE: looks like a footer\n\nbut this paragraph is prose."))
        #expect(message.body == nil)
        #expect(message.isBreaking)
        #expect(message.breakingChanges == ["looks like a footer\n\nbut this paragraph is prose."])
    }

    @Test func multiLineFooterValues() throws {
        let message = try #require(ConventionalCommitParser.parse("""
        feat: new config

        Body.

        BREAKING CHANGE: the config format changed;
          migrate with `relctl migrate`
          and re-run.
        Refs: #1
        Co-authored-by: A
        """))
        #expect(message.body == "Body.")
        #expect(message.footers.map(\.token) == ["BREAKING CHANGE", "Refs", "Co-authored-by"])
        #expect(message.breakingChanges == ["the config format changed;\n  migrate with `relctl migrate`\n  and re-run."])
        #expect(message.footers[1].value == "#1")
    }

    @Test func footerValueOnFollowingLines() throws {
        let message = try #require(ConventionalCommitParser.parse("feat: x\n\nBREAKING CHANGE:\n  the value\n  spans lines"))
        #expect(message.breakingChanges == ["the value\n  spans lines"])
    }

    @Test func severalFooterParagraphs() throws {
        let message = try #require(ConventionalCommitParser.parse("fix: x\n\nbody\n\nRefs #1\n\nBREAKING CHANGE: y\nSigned-off-by: S"))
        #expect(message.body == "body")
        #expect(message.footers == [
            Footer(token: "Refs", value: "1", usesHashSeparator: true),
            Footer(token: "BREAKING CHANGE", value: "y"),
            Footer(token: "Signed-off-by", value: "S"),
        ])
        #expect(message.isBreaking)
    }

    @Test func footerParagraphMustStartWithFooter() throws {
        let message = try #require(ConventionalCommitParser.parse("fix: x\n\nsee below\nRefs: #1"))
        #expect(message.body == "see below\nRefs: #1")
        #expect(message.footers.isEmpty)
    }

    @Test(arguments: ["fix: x\n\nhttp://example.com/a", "fix: x\n\nNote:missing space", "fix: x\n\nWith space: not a token", "fix: x\n\nRefs#1", "fix: x\n\nRefs #"])
    func linesThatAreNotFooters(_ text: String) throws {
        let message = try #require(ConventionalCommitParser.parse(text))
        #expect(message.footers.isEmpty)
        #expect(message.body != nil)
    }

    @Test func bodyWithoutBlankLineIsTolerated() throws {
        let message = try #require(ConventionalCommitParser.parse("fix: x\nimmediately a body"))
        #expect(message.body == "immediately a body")
    }

    @Test func blankLinesAroundBodyAreDropped() throws {
        let message = try #require(ConventionalCommitParser.parse("fix: x\n\n\n\n  indented body\n\n\nmore\n\n\n"))
        #expect(message.body == "  indented body\n\n\nmore")
    }
}

@Suite("Conventional commit robustness")
struct ConventionalRobustnessTests {
    @Test func crlfIsNormalized() throws {
        let text = "feat(api)!: x\r\n\r\nbody line 1\r\nbody line 2\r\n\r\nBREAKING CHANGE: y\r\nRefs: #2\r\n"
        let message = try #require(ConventionalCommitParser.parse(text))
        #expect(message.description == "x")
        #expect(message.body == "body line 1\nbody line 2")
        #expect(message.footers == [Footer(token: "BREAKING CHANGE", value: "y"), Footer(token: "Refs", value: "#2")])
        #expect(ConventionalCommitParser.parse(text.replacingCRLF()) == message)
    }

    @Test func trailingWhitespaceIsIgnored() throws {
        let message = try #require(ConventionalCommitParser.parse("fix: x   \n  \t\nbody  \n \nRefs: 1 \t\n\n"))
        #expect(message.description == "x")
        #expect(message.body == "body")
        #expect(message.footers == [Footer(token: "Refs", value: "1")])
    }

    @Test(arguments: ["", "\n", "\r\n", "   ", "\n\n  \n"])
    func emptyOrBlankMessages(_ text: String) {
        #expect(ConventionalCommitParser.parse(text) == nil)
    }

    @Test func decodesInvalidUTF8Lossily() throws {
        var bytes = Array("feat: caf".utf8) + [0xE9] + Array("\n\nbody ".utf8) + [0xFF, 0xFE, 0xC3]
        let text = ConventionalCommitParser.decode(bytes)
        #expect(text == "feat: caf\u{FFFD}\n\nbody \u{FFFD}\u{FFFD}\u{FFFD}")
        let message = try #require(ConventionalCommitParser.parse(bytes: bytes))
        #expect(message.description == "caf\u{FFFD}")
        #expect(message.body == "body \u{FFFD}\u{FFFD}\u{FFFD}")
        bytes = [0xC0, 0x80, 0xED, 0xA0, 0x80, 0xF4, 0x90, 0x80, 0x80]
        #expect(ConventionalCommitParser.parse(bytes: bytes) == nil)
        #expect(ConventionalCommitParser.decode([]) == "")
    }

    @Test func summaryIsFirstLine() {
        #expect(ConventionalCommitParser.summary(of: "feat: x  \r\nbody") == "feat: x")
        #expect(ConventionalCommitParser.summary(of: "") == "")
        #expect(ConventionalCommitParser.summary(of: "one line") == "one line")
        #expect(ConventionalCommitParser.summary(of: "\nsecond") == "second", "git's subject skips leading blank lines")
    }

    @Test func oneMegabyteMessages() throws {
        let line = String(repeating: "x", count: 99) + "\n"
        let body = String(repeating: line, count: 10_500)
        let parsed = try #require(ConventionalCommitParser.parse("feat: big\n\n" + body + "\nRefs: #1"))
        #expect(parsed.body?.utf8.count == body.utf8.count - 1)
        #expect(parsed.footers == [Footer(token: "Refs", value: "#1")])

        // One huge header line, one huge footer value and a single huge line of non-footer text.
        let huge = String(repeating: "ab ", count: 350_000)
        #expect(ConventionalCommitParser.parse("fix: " + huge)?.description == String(huge.dropLast()))
        #expect(ConventionalCommitParser.parse("fix: x\n\nRefs: " + huge)?.footers.first?.value.utf8.count == huge.utf8.count - 1)
        #expect(ConventionalCommitParser.parse(huge) == nil)
        #expect(ConventionalCommitParser.parse("fix: x\n\n" + String(repeating: "\n", count: 1_000_000)) == ConventionalMessage(type: "fix", description: "x"))
        let manyFooters = String(repeating: "Refs: #1\n", count: 100_000)
        #expect(ConventionalCommitParser.parse("fix: x\n\n" + manyFooters)?.footers.count == 100_000)
    }
}

private extension String {
    func replacingCRLF() -> String {
        String(decoding: Array(utf8).filter { $0 != 0x0D }, as: UTF8.self)
    }
}

@Suite("Breaking-change footers that run on")
struct BreakingFooterContinuationTests {
    @Test func aParagraphAfterTheBreakingFooterBelongsToIt() throws {
        let message = "feat: x\n\nBREAKING CHANGE: config.yml is no longer read.\n\nMigrate by renaming it.\n"
        let parsed = try #require(ConventionalCommitParser.parse(message))
        #expect(parsed.isBreaking)
        #expect(parsed.breakingChanges == ["config.yml is no longer read.\n\nMigrate by renaming it."])
        #expect(parsed.body == nil)
    }

    @Test func cherryPickNoteDoesNotHideTheBreakingChange() throws {
        let message = "fix(api): drop v1\n\nThe old endpoint is gone.\n\nBREAKING CHANGE: /v1 returns 410\n\n(cherry picked from commit 0123456789abcdef0123456789abcdef01234567)\n"
        let parsed = try #require(ConventionalCommitParser.parse(message))
        #expect(parsed.isBreaking)
        #expect(parsed.body == "The old endpoint is gone.")
    }

    @Test func squashBodyWithABreakingLineInTheMiddle() throws {
        let message = "feat: bundle (#12)\n\n* feat: a\n\nBREAKING CHANGE: tokens expire\n\n* fix: b\n"
        let parsed = try #require(ConventionalCommitParser.parse(message))
        #expect(parsed.isBreaking)
        #expect(parsed.body == "* feat: a")
    }

    @Test func aFooterLookingLineInTheBodyIsStillBody() throws {
        let message = "feat: x\n\nNote: this is prose.\n\nMore prose.\n"
        let parsed = try #require(ConventionalCommitParser.parse(message))
        #expect(!parsed.isBreaking)
        #expect(parsed.footers.isEmpty)
        #expect(parsed.body == "Note: this is prose.\n\nMore prose.")
    }

    @Test func leadingBlankLinesBeforeTheHeader() throws {
        let parsed = try #require(ConventionalCommitParser.parse("\n\n  \nfeat(ui): kept verbatim\n\nbody\n"))
        #expect(parsed.type == "feat")
        #expect(parsed.body == "body")
        #expect(ConventionalCommitParser.summary(of: "\n\nfeat(ui): kept verbatim\n") == "feat(ui): kept verbatim")
        #expect(ConventionalCommitParser.summary(of: "  indented\n") == "  indented")
    }
}

@Suite("Version overflow")
struct VersionOverflowTests {
    @Test func aComponentAtItsMaximumGivesNoVersionInsteadOfCrashing() throws {
        let current = try #require(SemanticVersion("1.18446744073709551615.0"))
        #expect(VersionPolicy.next(current: current, bump: .minor, initialVersion: SemanticVersion(major: 1, minor: 0, patch: 0), majorOnZero: false) == nil)
        #expect(VersionPolicy.next(current: current, bump: .patch, initialVersion: SemanticVersion(major: 1, minor: 0, patch: 0), majorOnZero: false)?.description == "1.18446744073709551615.1")
    }
}
