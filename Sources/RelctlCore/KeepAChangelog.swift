/// A changelog kept in the Keep a Changelog style (https://keepachangelog.com/en/1.1.0/): an
/// `## [Unreleased]` heading (any case, bracketed or not, with or without a link) above its releases,
/// and often link reference definitions at the bottom:
///
/// ```
/// ## [Unreleased]
///
/// ### Added
///
/// - Offline mode.
///
/// ## [1.2.0] - 2024-01-02
/// …
/// [unreleased]: https://github.com/o/r/compare/v1.2.0...HEAD
/// [1.2.0]: https://github.com/o/r/compare/v1.1.0...v1.2.0
/// ```
///
/// A release turns the Unreleased section into the release's section, leaving a fresh, empty
/// `## [Unreleased]` on top (see ``releasing(_:)``). Only the bytes that say something new change:
/// line endings (CRLF), a byte-order mark, a missing final newline and every other line stay as they were.
struct KeepAChangelog {
    private let bytes: [UInt8]
    private let lines: [ChangelogFile.Line]
    /// `\r\n` when the file's first line ends so.
    private let newline: String
    /// The `## [Unreleased]` line.
    private let unreleased: Int
    private let unreleasedHeading: ChangelogHeading
    /// The Unreleased section's body is the lines `unreleased + 1 ..< bodyEnd`: up to the next `#` or `##`
    /// heading, or, when it is the last section, up to the link definitions at the end of the file.
    private let bodyEnd: Int
    /// The newest release heading (the first one below the Unreleased section).
    private let newestRelease: ChangelogHeading?
    /// Link definitions outside the Unreleased section's body and outside code blocks.
    private let definitions: [(line: Int, definition: LinkReferenceDefinition)]
    /// The list marker the file uses (`-` when it has no list yet, as Keep a Changelog writes).
    private let bullet: Character

    /// `nil` unless the first `##` heading that is either Unreleased or a release is Unreleased.
    init?(_ text: String) {
        let bytes = Array(text.utf8)
        let lines = ChangelogFile.lineRanges(bytes)

        var found: (Int, ChangelogHeading)?
        for (index, line) in lines.enumerated() where !line.inFence {
            guard let heading = ChangelogHeading(Self.text(bytes, line.content)[...]) else { continue }
            if heading.isUnreleased { found = (index, heading); break }
            if heading.versionPrefix != nil { return nil }
        }
        guard let (unreleased, unreleasedHeading) = found else { return nil }

        let isDefinition = { (line: ChangelogFile.Line) in
            !line.inFence && LinkReferenceDefinition(Self.text(bytes, line.content)[...]) != nil
        }
        var bodyEnd = lines.count
        if let next = lines.indices.dropFirst(unreleased + 1).first(where: { Self.isSectionBreak(bytes, lines[$0]) }) {
            bodyEnd = next
        } else {
            // The last section: its body stops at the definitions that close the file.
            var index = lines.count - 1
            while index > unreleased, Self.isBlank(bytes, lines[index]) || isDefinition(lines[index]) {
                if !Self.isBlank(bytes, lines[index]) { bodyEnd = index }
                index -= 1
            }
        }

        self.bytes = bytes
        self.lines = lines
        self.newline = ChangelogFile.usesCRLF(bytes) ? "\r\n" : "\n"
        self.unreleased = unreleased
        self.unreleasedHeading = unreleasedHeading
        self.bodyEnd = bodyEnd
        newestRelease = lines[bodyEnd...].lazy.filter { !$0.inFence }
            .compactMap { ChangelogHeading(Self.text(bytes, $0.content)[...]) }
            .first { $0.versionPrefix != nil }
        definitions = lines.indices.filter { ($0 <= unreleased || $0 >= bodyEnd) && !lines[$0].inFence }
            .compactMap { index in LinkReferenceDefinition(Self.text(bytes, lines[index].content)[...]).map { (index, $0) } }
        bullet = lines.lazy.filter { !$0.inFence }
            .compactMap { line -> Character? in
                let content = bytes[line.content]
                guard content.count >= 2, content.dropFirst().first == 0x20,
                      let marker = content.first, [UInt8(ascii: "-"), UInt8(ascii: "*"), UInt8(ascii: "+")].contains(marker),
                      content.dropFirst(2).contains(where: { $0 != 0x20 && $0 != 0x09 }) else { return nil }
                return Character(Unicode.Scalar(marker))
            }
            .first ?? "-"
    }

    // MARK: Releasing

    /// The file after `release`, and the release's section as it stands in it:
    ///
    /// - Under the Unreleased heading, the release heading in the file's own style (``ReleaseHeadingStyle``,
    ///   from its newest release heading: `## [1.3.0] - 2026-11-30`); the Unreleased heading stays on top,
    ///   with nothing under it.
    /// - The hand-written entries of the Unreleased section become the release's, kept byte for byte. The
    ///   generated entries of a group go at the end of the hand-written `###` subsection of the same title
    ///   (any case: a `"groups"` title `Added` fills `### Added`); groups without one follow the hand-written
    ///   text, in their configured order. Nothing at all: `No user-facing changes.`
    /// - Links follow the file's own: an `[unreleased]` compare link (a definition or the heading's inline
    ///   link) now starts at the new tag; a file with link definitions gets a definition for the new
    ///   version, next to the others, comparing the previous tag with the new one in the URL style of its
    ///   newest compare link (GitHub `compare/A...B`, GitLab `-/compare/A...B`; origin's when the file has
    ///   none). Labels keep their case. The previous tag is the release's base tag, else the one the
    ///   `[unreleased]` link starts at.
    func releasing(_ release: ChangelogRelease) -> ChangelogUpdate {
        let style = headingStyle
        let previousTag = release.previousTag ?? unreleasedCompareLink.map(\.fromRef).flatMap { $0 == "HEAD" ? nil : $0 }
        let template = compareTemplate(links: release.links)
        let link = previousTag.flatMap { from in template?.url(from: from, to: release.tag) }
        let heading = style.heading(version: release.version, date: release.date, link: style.inlineLink ? link : nil)

        var edits = bodyEdits(release, heading: heading)
        let section = sectionText(heading: nil, edits: edits)
        edits += linkEdits(tag: release.tag)
        if style.bracketed, !style.inlineLink, let link, !hasDefinition(style.label(release.version)) {
            edits += newDefinition(label: style.label(release.version), url: link)
        }
        return ChangelogUpdate(text: applying(edits), section: section)
    }

    /// The Unreleased section as a release would fill it (for `relctl changelog --unreleased`): the file's own
    /// heading line, then the hand-written and generated entries, merged as ``releasing(_:)`` merges them.
    func unreleasedPreview(_ release: ChangelogRelease) -> String {
        sectionText(heading: Self.text(bytes, lines[unreleased].content), edits: bodyEdits(release, heading: nil))
    }

    /// The newest release heading's style, or Keep a Changelog's (bracketed like the Unreleased heading).
    private var headingStyle: ReleaseHeadingStyle {
        if let newestRelease { return ReleaseHeadingStyle(of: newestRelease) }
        return .keepAChangelog(bracketed: unreleasedHeading.bracketed, inlineLink: unreleasedHeading.link != nil)
    }

    private var unreleasedDefinition: (line: Int, definition: LinkReferenceDefinition)? {
        definitions.first { $0.definition.label.lowercased() == "unreleased" }
    }

    private var versionDefinitions: [(line: Int, definition: LinkReferenceDefinition)] {
        definitions.filter { ChangelogHeading.versionPrefix(of: $0.definition.label) != nil }
    }

    /// Where the Unreleased changes are compared from: the `[unreleased]` definition, or the heading's inline link.
    private var unreleasedCompareLink: CompareLink? {
        unreleasedDefinition.flatMap { CompareLink($0.definition.url) } ?? unreleasedHeading.link.flatMap(CompareLink.init)
    }

    /// The file's newest compare link (the newest release's, then the Unreleased one), else origin's style.
    private func compareTemplate(links: RemoteLinks?) -> CompareLink? {
        let newest = newestRelease.flatMap { heading in
            heading.link.flatMap(CompareLink.init)
                ?? definitions.first { $0.definition.label.lowercased() == heading.label.lowercased() }
                    .flatMap { CompareLink($0.definition.url) }
        }
        return newest ?? versionDefinitions.lazy.compactMap { CompareLink($0.definition.url) }.first
            ?? unreleasedCompareLink ?? links.flatMap(CompareLink.init)
    }

    private func hasDefinition(_ label: String) -> Bool {
        definitions.contains { $0.definition.label.lowercased() == label.lowercased() }
    }

    // MARK: Edits

    /// Replace `length` bytes at `offset` with `text` (written with `\n`; the file's line ending is applied).
    private struct Edit {
        var offset: Int
        var length = 0
        var text: String
    }

    /// The release heading (when given) and the generated entries, inserted into the Unreleased section.
    private func bodyEdits(_ release: ChangelogRelease, heading: String?) -> [Edit] {
        let groups = ChangelogRenderer.renderedGroups(release.commits, settings: release.settings,
                                                      links: release.links, bullet: bullet,
                                                      closedIssues: release.closedIssues)
        let body = (unreleased + 1)..<bodyEnd

        // The hand-written `###` subsections, each with its last line that is not blank.
        var subsections: [(title: String, heading: Int, last: Int)] = []
        var lastWritten: Int?
        for index in body where !Self.isBlank(bytes, lines[index]) {
            lastWritten = index
            if !lines[index].inFence, let title = Self.subsectionTitle(Self.text(bytes, lines[index].content)) {
                subsections.append((title, index, index))
            } else if !subsections.isEmpty {
                subsections[subsections.count - 1].last = index
            }
        }

        var merged: [Int: String] = [:]
        var separate: [(title: String, entries: String)] = []
        for group in groups {
            let title = Self.comparable(group.title)
            if let index = subsections.firstIndex(where: { Self.comparable($0.title) == title }) {
                merged[index, default: ""] += group.entries
            } else {
                separate.append(group)
            }
        }

        var edits: [Edit] = []
        if let heading { edits.append(Edit(offset: lines[unreleased].content.upperBound, text: "\n\n" + heading)) }
        for (index, subsection) in subsections.enumerated() {
            guard let entries = merged[index] else { continue }
            let gap = subsection.last == subsection.heading ? "\n\n" : "\n"
            edits.append(Edit(offset: lines[subsection.last].content.upperBound, text: gap + String(entries.dropLast())))
        }
        var tail = ""
        for group in separate {
            tail += "\n\n### " + group.title + "\n\n" + group.entries.dropLast()
        }
        if lastWritten == nil, groups.isEmpty { tail = "\n\nNo user-facing changes." }
        let anchor = lastWritten ?? unreleased
        if !tail.isEmpty { edits.append(Edit(offset: lines[anchor].content.upperBound, text: tail)) }
        // What now ends the section is followed by a blank line (the last edit is the one at the anchor).
        let endsSection = !tail.isEmpty || merged.keys.contains { subsections[$0].last == anchor }
        if endsSection, anchor + 1 < lines.count, !Self.isBlank(bytes, lines[anchor + 1]), var last = edits.last {
            edits.removeLast()
            last.text += "\n"
            edits.append(last)
        }
        return edits
    }

    /// The `[unreleased]` compare links (definition and inline) start at `tag` now.
    private func linkEdits(tag: String) -> [Edit] {
        var edits: [Edit] = []
        let encoded = RemoteLinks.percentEncoded(tag)
        if let (index, definition) = unreleasedDefinition, let link = CompareLink(definition.url) {
            let start = lines[index].content.lowerBound + definition.urlOffsets.lowerBound + link.fromOffsets.lowerBound
            edits.append(Edit(offset: start, length: link.fromOffsets.count, text: encoded))
        }
        if let url = unreleasedHeading.link, let offsets = unreleasedHeading.linkOffsets, let link = CompareLink(url) {
            let start = lines[unreleased].content.lowerBound + offsets.lowerBound + link.fromOffsets.lowerBound
            edits.append(Edit(offset: start, length: link.fromOffsets.count, text: encoded))
        }
        return edits
    }

    /// A definition for the new release, beside the definitions the file has (none: nothing added). Newest
    /// first as Keep a Changelog lists them: after `[unreleased]`, or before the newest version's; a list
    /// that puts `[unreleased]` after the versions (oldest first) gets it just before `[unreleased]`.
    /// Spaced like the version definitions (aligned URLs stay aligned).
    private func newDefinition(label: String, url: String) -> [Edit] {
        let versions = versionDefinitions
        guard let model = (versions.first ?? unreleasedDefinition)?.definition else { return [] }
        let head = "[" + label + "]:"
        let spacing = model.spacing == " " || model.spacing.contains("\t") ? model.spacing
            : String(repeating: " ", count: max(1, model.label.count + 3 + model.spacing.count - head.count))
        let line = head + spacing + url
        if let (index, _) = unreleasedDefinition {
            if let first = versions.first, first.line < index {
                return [Edit(offset: lines[index].start, text: line + "\n")]
            }
            return [Edit(offset: lines[index].content.upperBound, text: "\n" + line)]
        }
        return [Edit(offset: lines[versions[0].line].start, text: line + "\n")]
    }

    /// The bytes with `edits` applied (stable for edits at one offset), as a string.
    private func applying(_ edits: [Edit]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + edits.reduce(0) { $0 + $1.text.utf8.count + 8 })
        var position = 0
        for edit in edits.enumerated().sorted(by: { ($0.element.offset, $0.offset) < ($1.element.offset, $1.offset) }).map(\.element) {
            out += bytes[position..<edit.offset]
            out += Array(edit.text.replacingNewlines(with: newline).utf8)
            position = edit.offset + edit.length
        }
        out += bytes[position...]
        return String(decoding: out, as: UTF8.self)
    }

    /// The release's section (or, with `heading`, the Unreleased preview) as the edited body reads: `\n`
    /// line endings, no blank lines first, one blank line at the end.
    private func sectionText(heading: String?, edits: [Edit]) -> String {
        let start = lines[unreleased].content.upperBound
        let end = bodyEnd < lines.count ? lines[bodyEnd].start : bytes.count
        var text = ""
        var position = start
        for edit in edits.enumerated().sorted(by: { ($0.element.offset, $0.offset) < ($1.element.offset, $1.offset) }).map(\.element)
            where edit.offset >= start && edit.offset <= end {
            text += Self.text(bytes, position..<edit.offset) + edit.text
            position = edit.offset + edit.length
        }
        text += Self.text(bytes, position..<end)
        var rows = text.replacingNewlines(with: "\n").split(separator: "\n", omittingEmptySubsequences: false)
        while let first = rows.first, first.allSatisfy({ $0 == " " || $0 == "\t" }) { rows.removeFirst() }
        while let last = rows.last, last.allSatisfy({ $0 == " " || $0 == "\t" }) { rows.removeLast() }
        let body = rows.joined(separator: "\n")
        guard let heading else { return body + "\n\n" }
        return heading + "\n\n" + (body.isEmpty ? "" : body + "\n\n")
    }

    // MARK: Lines

    private static func text(_ bytes: [UInt8], _ range: Range<Int>) -> String {
        String(decoding: bytes[range], as: UTF8.self)
    }

    private static func isBlank(_ bytes: [UInt8], _ line: ChangelogFile.Line) -> Bool {
        bytes[line.content].allSatisfy { $0 == 0x20 || $0 == 0x09 }
    }

    /// A `#` or `##` heading outside code blocks: the end of a section.
    private static func isSectionBreak(_ bytes: [UInt8], _ line: ChangelogFile.Line) -> Bool {
        guard !line.inFence else { return false }
        let content = bytes[line.content]
        let marks = content.prefix(while: { $0 == 0x23 })
        guard marks.count == 1 || marks.count == 2 else { return false }
        let next = content.dropFirst(marks.count).first
        return next == nil || next == 0x20 || next == 0x09
    }

    /// The title of a `### ` heading.
    private static func subsectionTitle(_ line: String) -> String? {
        guard line.hasPrefix("### ") || line.hasPrefix("###\t") else { return nil }
        return String(line.dropFirst(4))
    }

    /// A title as headings are matched: trimmed, closing `#`s and a colon dropped, in lower case.
    private static func comparable(_ title: String) -> String {
        var text = Substring(title)
        while let last = text.last, last == " " || last == "\t" || last == "#" || last == ":" { text = text.dropLast() }
        while let first = text.first, first == " " || first == "\t" { text = text.dropFirst() }
        return text.lowercased()
    }
}
