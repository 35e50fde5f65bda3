import Testing
import RelctlTestSupport
@testable import RelctlCore

/// `messages` oldest first, analysed; newest first as the analysis gives them. Shas 0000001, 0000002, … in order.
private func analyzed(_ messages: [String]) -> [AnalyzedCommit] {
    let raw = messages.enumerated().reversed().map { RawCommit(sha: sha("000000" + String($0.offset + 1)), message: $0.element) }
    return CommitAnalyzer.analyze(raw, rules: .default).commits
}

@Suite("Changelog links: pull requests, merge requests, issues")
struct ChangelogLinksTests {
    let github = RemoteLinks.parse("git@github.com:acme/app.git")!
    let enterprise = RemoteLinks.parse("https://x-access-token:SECRET@github.acme.example:8443/mobile/app.git")!
    let gitlab = RemoteLinks.parse("git@gitlab.example.org:group/sub/app.git")!

    @Test func githubEnterpriseHostsAreGitHub() throws {
        #expect(enterprise.forge == .github)
        #expect(enterprise.baseURL == "https://github.acme.example:8443/mobile/app")
        let ssh = try #require(RemoteLinks.parse("git@github.corp.example:mobile/app.git"))
        #expect(ssh.baseURL == "https://github.corp.example/mobile/app")
        #expect(ssh.commitURL("abc") == "https://github.corp.example/mobile/app/commit/abc")
        // GitHub's shapes: exactly owner/repo.
        #expect(RemoteLinks.parse("https://github.corp.example/a/b/c") == nil)
        #expect(RemoteLinks.parse("https://git.corp.example/mobile/app") == nil)
    }

    @Test func pullRequestAndIssueURLs() {
        #expect(github.pullRequestURL("45") == "https://github.com/acme/app/pull/45")
        #expect(github.issueURL("12") == "https://github.com/acme/app/issues/12")
        #expect(enterprise.pullRequestURL("45") == "https://github.acme.example:8443/mobile/app/pull/45")
        #expect(enterprise.issueURL("12") == "https://github.acme.example:8443/mobile/app/issues/12")
        #expect(gitlab.pullRequestURL("7") == "https://gitlab.example.org/group/sub/app/-/merge_requests/7")
        #expect(gitlab.issueURL("12") == "https://gitlab.example.org/group/sub/app/-/issues/12")
    }

    @Test func referencesInDescriptions() {
        #expect(github.linkingReferences(in: "dark mode (#45)") == "dark mode ([#45](https://github.com/acme/app/pull/45))")
        #expect(github.linkingReferences(in: "a (#1) and b (#22)")
                == "a ([#1](https://github.com/acme/app/pull/1)) and b ([#22](https://github.com/acme/app/pull/22))")
        // GitHub has no `!` references; not parenthesised, not digits, a leading zero: left as they are.
        for text in ["wow (!45)", "see #45", "(#)", "(#12a)", "(#045)", "(#45", "ünïcödé (#x) 🎉", "plain text"] {
            #expect(github.linkingReferences(in: text) == text, "\(text)")
        }
        #expect(gitlab.linkingReferences(in: "sync (!7)") == "sync ([!7](https://gitlab.example.org/group/sub/app/-/merge_requests/7))")
        #expect(gitlab.linkingReferences(in: "crash (#12)") == "crash ([#12](https://gitlab.example.org/group/sub/app/-/issues/12))")
        #expect(enterprise.linkingReferences(in: "Größe (#9)") == "Größe ([#9](https://github.acme.example:8443/mobile/app/pull/9))")
    }

    @Test func closingKeywords() {
        #expect(IssueReferences.closed(in: "fix: crash\n\nCloses #12") == [12])
        #expect(IssueReferences.closed(in: "fix: crash\n\nThe body.\n\nFixes: #12, #13\nResolves #14 and #12.\ncloses #15") == [12, 13, 14, 15])
        #expect(IssueReferences.closed(in: "fix: crash\n\nFixed #3; Resolved #4\nclose #5\nRESOLVE #6") == [3, 5, 6])
        // Not closing: the header, other repositories, mentions, words that only start alike.
        #expect(IssueReferences.closed(in: "fix: closes #12") == [])
        #expect(IssueReferences.closed(in: "feat: x\n\nCloses acme/other#12\nSee #4\nFixesx #5\nRefs: #6\nClosesmore #7") == [])
        #expect(IssueReferences.closed(in: "feat: x\n\nCloses https://github.com/acme/app/issues/12") == [])
        #expect(IssueReferences.closed(in: "feat: x") == [])
    }

    @Test func sectionLinksPullRequestsAndClosedIssues() {
        let commits = analyzed([
            "feat(ui): dark mode (#45)\n\nCloses #12\nFixes #13",
            "fix: crash on launch",
            "fix: wrong total (#46)",
        ])
        let issues = [sha("0000001"): [12, 13]]
        let text = ChangelogRenderer.section(version: "1.3.0", previousTag: "v1.2.0", tag: "v1.3.0", date: "2026-11-29",
                                             commits: commits, settings: .default, links: github, closedIssues: issues)
        let base = "https://github.com/acme/app"
        #expect(text == """
            ## [1.3.0](\(base)/compare/v1.2.0...v1.3.0) (2026-11-29)

            ### Features

            * **ui:** dark mode ([#45](\(base)/pull/45)) ([0000001](\(base)/commit/\(sha("0000001")))), closes [#12](\(base)/issues/12) [#13](\(base)/issues/13)

            ### Bug fixes

            * crash on launch ([0000002](\(base)/commit/\(sha("0000002"))))
            * wrong total ([#46](\(base)/pull/46)) ([0000003](\(base)/commit/\(sha("0000003"))))


            """)
        // The tag message: plain text, references kept as text.
        #expect(ReleaseNotes.tagMessage(version: "v1.3.0", section: text) == """
            v1.3.0

            Features:
            - ui: dark mode (#45) (0000001), closes #12 #13

            Bug fixes:
            - crash on launch (0000002)
            - wrong total (#46) (0000003)

            """)
        // Without links (origin unknown): as before, references as written and no closes.
        let plain = ChangelogRenderer.section(version: "1.3.0", previousTag: "v1.2.0", tag: "v1.3.0", date: "2026-11-29",
                                              commits: commits, settings: .default, links: nil, closedIssues: issues)
        #expect(plain.contains("* **ui:** dark mode (#45) (0000001)\n"))
        #expect(!plain.contains("closes"))
    }

    @Test func gitlabSection() {
        let commits = analyzed(["fix(sync): retry (!7)\n\nResolves #3"])
        let text = ChangelogRenderer.section(version: "1.0.1", previousTag: nil, tag: "v1.0.1", date: "2026-11-29",
                                             commits: commits, settings: .default, links: gitlab,
                                             closedIssues: [sha("0000001"): [3]])
        let base = "https://gitlab.example.org/group/sub/app"
        #expect(text == """
            ## 1.0.1 (2026-11-29)

            ### Bug fixes

            * **sync:** retry ([!7](\(base)/-/merge_requests/7)) ([0000001](\(base)/-/commit/\(sha("0000001")))), closes [#3](\(base)/-/issues/3)


            """)
    }
}
