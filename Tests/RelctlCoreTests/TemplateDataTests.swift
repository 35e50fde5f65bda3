import Testing
import RelctlTestSupport
@testable import RelctlCore

private func analyzed(_ messages: [String]) -> [AnalyzedCommit] {
    let raw = messages.enumerated().reversed().map { RawCommit(sha: sha(String(100 + $0.offset)), message: $0.element) }
    return CommitAnalyzer.analyze(raw, rules: .default).commits
}

@Suite("Template data: the default templates are relctl's output, byte for byte")
struct TemplateDataTests {
    static let corpora: [[String]] = [
        [],
        ["chore: nothing user-facing", "docs: readme"],
        ["feat(api)!: tokens expire after 1 hour\n\nBREAKING CHANGE: clients must refresh tokens;\n\nsee the migration guide.",
         "feat(ui): dark mode (#45)\n\nCloses #12\nFixes #13", "docs: readme", "fix: crash on launch", "perf(db): faster queries",
         "fix!: drop iOS 15", "random words", "feat: <b>html</b> & \"quotes\" stay", "fix(日本): Größe 🎉",
         "feat: multi\r\nline? no: a one-line description"],
        ["feat: a", "Revert \"feat: old thing\"\n\nThis reverts commit 0123456789abcdef0123456789abcdef01234567."],
    ]
    static let remotes: [String?] = [nil, "git@github.com:acme/app.git", "https://gitlab.example.org/g/s/app.git"]

    @Test(arguments: 0..<corpora.count, 0..<remotes.count)
    func changelogTemplateIsTheRenderer(corpus: Int, remote: Int) throws {
        let template = try Template(TemplateData.defaultChangelogTemplate)
        let commits = analyzed(Self.corpora[corpus])
        for previousTag in [nil, "v1.2.0"] {
            var release = ChangelogRelease(version: "1.3.0", previousTag: previousTag, tag: "v1.3.0", date: "2026-11-29",
                                           commits: commits, settings: .default,
                                           links: Self.remotes[remote].flatMap(RemoteLinks.parse))
            if release.links != nil, let first = commits.last { release.closedIssues = [first.sha: [12, 13]] }
            let expected = release.section
            release.template = template
            #expect(release.section == expected)
        }
    }

    @Test func storeNotesTemplateIsTheRenderer() throws {
        let template = try Template(TemplateData.defaultStoreNotesTemplate)
        let fixes = (0..<40).map { "fix: corrige le bogue n°\($0)" }
        for messages in [[], ["refactor: x"], ["feat: dark mode", "fix: Größe"], fixes, fixes + ["feat: new"]] {
            let entries = StoreNotes.entries(analyzed(messages), types: StoreNotes.defaultTypes)
            for limit in [500, 4000] {
                #expect(StoreNotes.render(entries, limit: limit, emptyText: "Nothing new.", version: "1.0.0", template: template)
                        == StoreNotes.render(entries, limit: limit, emptyText: "Nothing new."), "\(messages.count) \(limit)")
            }
        }
    }

    @Test func aCustomChangelogTemplateSeesTheData() throws {
        let template = try Template("""
            {{! relctl's data, every field }}
            # {{tag}} ({{date}}){{#previousTag}} since {{.}}{{/previousTag}}
            {{#repositoryURL}}repo: {{.}}{{/repositoryURL}}
            {{#groups}}
            {{title}}{{#breaking}} (!){{/breaking}}
            {{#commits}}
            - {{type}}|{{scope}}|{{description}}|{{shortSha}}|{{breaking}}{{#issues}} #{{number}}{{/issues}}
            {{/commits}}
            {{/groups}}

            """)
        var release = ChangelogRelease(version: "2.0.0", previousTag: "v1.0.0", tag: "v2.0.0", date: "2026-12-01",
                                       commits: analyzed(["feat(ui)!: new look", "fix: Größe (#4)", "docs: x"]),
                                       settings: .default, links: RemoteLinks.parse("git@github.com:acme/app.git"))
        release.closedIssues = [sha("101"): [7]]
        release.template = template
        #expect(release.section == """
            # v2.0.0 (2026-12-01) since v1.0.0
            repo: https://github.com/acme/app
            Breaking changes (!)
            - feat|ui|new look|1000000|true
            Bug fixes
            - fix||Größe (#4)|1010000|false #7

            """)
    }
}
