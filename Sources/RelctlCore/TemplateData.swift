/// The data templates get (documented in the README's "Templates"), and relctl's default templates.
public enum TemplateData {
    /// relctl's changelog section as a template: rendering it on ``changelog(_:)`` gives
    /// ``ChangelogRenderer/section(version:previousTag:tag:date:commits:settings:links:closedIssues:)`` byte for byte.
    public static let defaultChangelogTemplate = """
        ## {{#compareURL}}[{{version}}]({{compareURL}}){{/compareURL}}{{^compareURL}}{{version}}{{/compareURL}} ({{date}})

        {{#groups}}
        ### {{title}}

        {{#commits}}
        * {{#scope}}**{{scope}}:** {{/scope}}{{linkedDescription}} ({{#url}}[{{shortSha}}]({{url}}){{/url}}{{^url}}{{shortSha}}{{/url}}){{#issues}}{{#first}}, closes {{/first}}{{^first}} {{/first}}[#{{number}}]({{url}}){{/issues}}
        {{#details}}
          {{.}}
        {{/details}}
        {{/commits}}

        {{/groups}}
        {{^groups}}
        No user-facing changes.

        {{/groups}}
        """ + "\n"

    /// The default with `"changelog": {"authors": true}`: each entry followed by ` by @alice` (` by @alice, @bob`)
    /// when its authors are known; an entry without them is as in the default. Parsed at each use, not held in a
    /// global: LeakSanitizer reports a parsed template's nodes reachable only from a global as leaked.
    public static var changelogTemplateWithAuthors: Template { try! Template(changelogTemplateWithAuthorsSource) }

    /// The source of ``changelogTemplateWithAuthors``.
    public static let changelogTemplateWithAuthorsSource: String = {
        let entry = "[#{{number}}]({{url}}){{/issues}}\n"
        let parts = defaultChangelogTemplate.split(separator: entry, maxSplits: 1, omittingEmptySubsequences: false)
        return String(parts[0] + "[#{{number}}]({{url}}){{/issues}}"
            + "{{#authors}}{{#first}} by {{/first}}{{^first}}, {{/first}}@{{login}}{{/authors}}\n" + parts[1])
    }()

    /// The store notes as a template: rendering it on ``storeNotes(version:entries:more:emptyText:)`` gives
    /// ``StoreNotes/render(_:limit:emptyText:)`` when nothing is cut.
    public static let defaultStoreNotesTemplate = """
        {{#entries}}
        • {{text}}
        {{/entries}}
        {{#more}}
        {{more}}
        {{/more}}
        {{^entries}}
        {{emptyText}}
        {{/entries}}
        """ + "\n"

    /// A release's changelog data:
    /// - `version`, `date` (`YYYY-MM-DD`), `tag`, `previousTag` (null for a first release), `compareURL` (null
    ///   without links or a previous tag), `repositoryURL` (null when origin is no known forge);
    /// - `groups`: the non-empty headings in order, each `{title, breaking, commits}`;
    /// - each commit: `type`, `scope` (empty when none), `description` (as written, on one line),
    ///   `linkedDescription` (with `(#12)`/`(!12)` linked when the forge is known), `summary` (the first line),
    ///   `sha`, `shortSha` (7 characters), `url` (null without links), `breaking` (listed as a breaking change),
    ///   `details` (the breaking change's footer lines when they differ from the description), `issues`
    ///   (`{number, url, first}` for `Closes #12`, linked only), `authors` (`{login, url, first}` each, the forge
    ///   accounts of the commit's authors when the forge's API told them, else empty).
    public static func changelog(_ release: ChangelogRelease) -> TemplateValue {
        let links = release.links
        let groups = ChangelogRenderer.grouped(release.commits.reversed(), settings: release.settings).map { title, entries in
            TemplateValue.object([
                "title": .string(ChangelogRenderer.oneLine(title)),
                "breaking": .bool(title == release.settings.breakingChangesTitle && entries.first?.1 == true),
                "commits": .list(entries.map { commit($0.0, breaking: $0.1, links: links,
                                                      issues: release.closedIssues[$0.0.sha] ?? [],
                                                      authors: release.authors[$0.0.sha] ?? []) }),
            ])
        }
        var compare: TemplateValue = .null
        if let links, let previous = release.previousTag { compare = .string(links.compareURL(from: previous, to: release.tag)) }
        return .object([
            "version": .string(ChangelogRenderer.oneLine(release.version)),
            "date": .string(ChangelogRenderer.oneLine(release.date)),
            "tag": .string(release.tag),
            "previousTag": release.previousTag.map { .string($0) } ?? .null,
            "compareURL": compare,
            "repositoryURL": links.map { .string($0.baseURL) } ?? .null,
            "groups": .list(groups),
        ])
    }

    static func commit(_ commit: AnalyzedCommit, breaking: Bool, links: RemoteLinks?, issues: [Int],
                       authors: [String] = []) -> TemplateValue {
        let message = commit.message
        let description = ChangelogRenderer.oneLine(message?.description ?? commit.summary)
        var details: [TemplateValue] = []
        if breaking, let message {
            for text in message.breakingChanges where text != message.description {
                for detail in text.split(whereSeparator: \.isNewline) where !detail.allSatisfy(\.isWhitespace) {
                    details.append(.string(String(detail)))
                }
            }
        }
        let linkedIssues: [TemplateValue] = links.map { links in
            issues.enumerated().map { index, number in
                .object(["number": .string(String(number)), "url": .string(links.issueURL(String(number))), "first": .bool(index == 0)])
            }
        } ?? []
        return .object([
            "type": .string(message?.normalizedType ?? ""),
            "scope": .string(message?.scope.map(ChangelogRenderer.oneLine) ?? ""),
            "description": .string(description),
            "linkedDescription": .string(links?.linkingReferences(in: description) ?? description),
            "summary": .string(commit.summary),
            "sha": .string(commit.sha),
            "shortSha": .string(String(commit.sha.prefix(7))),
            "url": links.map { .string($0.commitURL(commit.sha)) } ?? .null,
            "breaking": .bool(breaking),
            "details": .list(details),
            "issues": .list(linkedIssues),
            "authors": .list(authors.enumerated().map { index, login in
                .object(["login": .string(login), "url": links.map { .string($0.userURL(login)) } ?? .null, "first": .bool(index == 0)])
            }),
        ])
    }

    /// Store notes data: `version`, `entries` (`{type, text, description, scope, sha}`), `more` (the closing line
    /// `…and 3 more fixes` without its line break, empty when nothing is left out), `emptyText`.
    public static func storeNotes(version: String, entries: [StoreNotes.Entry], more: String, emptyText: String) -> TemplateValue {
        .object([
            "version": .string(version),
            "entries": .list(entries.map { entry in
                .object(["type": .string(entry.type), "text": .string(entry.text),
                         "description": .string(entry.commit.message?.description ?? entry.text),
                         "scope": .string(entry.commit.message?.scope ?? ""), "sha": .string(entry.commit.sha)])
            }),
            "more": .string(more),
            "emptyText": .string(emptyText),
        ])
    }
}

extension StoreNotes {
    /// The notes rendered with `template`, cut as ``render(_:limit:emptyText:)`` cuts: the most entries (from the
    /// first) whose text with the closing line (`more`) fits in `limit`; when not even one fits, the text of the
    /// first entry alone is shortened.
    public static func render(_ entries: [Entry], limit: Int, emptyText: String, version: String, template: Template) -> String {
        func text(_ kept: Int) -> String {
            let more = kept < entries.count ? String(closingLine(entries[kept...].map(\.type)).dropLast()) : ""
            return template.render(TemplateData.storeNotes(version: version, entries: Array(entries[..<kept]),
                                                           more: more, emptyText: emptyText))
        }
        for kept in stride(from: entries.count, through: 1, by: -1) {
            let made = text(kept)
            if characterCount(made) <= limit { return made }
        }
        let made = text(min(1, entries.count))
        return characterCount(made) <= limit ? made : shortened(made, to: limit - 1) + "…"
    }
}
