import RelctlCore

/// What a run of `relctl release` did (or, in a dry run, would do), in every form it is shown: the text on the
/// terminal, the one JSON object of `--json`, and the step outputs and job summary of a CI.
struct ReleaseReport {
    var version: String?
    var previousVersion: String?
    var bump: Bump
    var tag: String?
    var commit: String?
    /// Paths relative to the root of the files the release commit holds.
    var files: [String] = []
    var changelog: String?
    var pushed: Bool
    var majorPending: Bool
    var dryRun: Bool
    /// A major release stopped by `"onMajor": "halt"`; only such a report carries `halted` (true).
    var halted = false
    /// Set when nothing was released: why (or nil when no reason is known); only such a report carries `reason`.
    var reason: String?? = .none
    /// The branch's track and a prerelease's counter (see ReleaseTrack.swift).
    var track = ReleaseTrack()
    var prereleaseNumber: UInt64?
    /// The build numbers the release's files hold, for the store builds that follow (nil: no file carries one).
    var iosBuild: String?
    var androidBuild: String?
    /// The release object on GitHub or GitLab made (or updated) for the tag (Forge/ForgePublishing.swift). In `--json`
    /// as `release_url` (the name `$GITHUB_OUTPUT` uses) and, for the scripts written before it, `releaseUrl`.
    var releaseURL: String?

    /// A release: planned (`commit` nil, a dry run) or made.
    init(_ plan: ReleasePlan, commit: String?, pushed: Bool, dryRun: Bool) {
        version = plan.version
        previousVersion = plan.previousVersion
        bump = plan.bump
        tag = plan.tag
        self.commit = commit
        files = plan.changedPaths
        changelog = plan.changelogSection
        self.pushed = pushed
        majorPending = plan.notice != nil
        self.dryRun = dryRun
        track = plan.track
        prereleaseNumber = plan.prereleaseNumber
        iosBuild = plan.iosBuild
        androidBuild = plan.androidBuild
    }

    /// A major release halted before it was made: the version, bump and tag it would have, no commit and no
    /// changelog, and `files` only the marker the halt writes (a dry run: would write).
    init(halted plan: ReleasePlan, dryRun: Bool) {
        version = plan.version
        previousVersion = plan.previousVersion
        bump = plan.bump
        tag = plan.tag
        files = plan.markerWrite.map { [plan.relativePath($0)] } ?? []
        pushed = false
        majorPending = true
        self.dryRun = dryRun
        halted = true
        track = plan.track
        prereleaseNumber = plan.prereleaseNumber
    }

    /// No release due, but the last one (`tag`, made here) was or would be published.
    init(publishing tag: String, analysis: ReleaseAnalysis, pushed: Bool, majorPending: Bool, dryRun: Bool) {
        version = analysis.current?.description
        if tag == analysis.reachablePrereleaseTag, let prerelease = analysis.reachablePrerelease {
            // The channel's last prerelease, made here and not yet pushed.
            version = prerelease.version
            track = analysis.track
            prereleaseNumber = prerelease.number
        }
        bump = .none
        self.tag = tag
        commit = analysis.headCommit
        self.pushed = pushed
        self.majorPending = majorPending
        self.dryRun = dryRun
    }

    /// No release due.
    init(nothingDue analysis: ReleaseAnalysis, majorPending: Bool, dryRun: Bool) {
        previousVersion = analysis.current?.description
        bump = .none
        pushed = false
        self.majorPending = majorPending
        self.dryRun = dryRun
        reason = .some(analysis.reason)
        track = analysis.track
    }

    // MARK: JSON

    var json: JSONOutput {
        var members: [(String, JSONOutput)] = [
            ("schemaVersion", .int(1)),
            ("version", .optional(version)),
            ("previousVersion", .optional(previousVersion)),
            ("bump", .string(bump.description)),
            ("tag", .optional(tag)),
            ("commit", .optional(commit)),
            ("files", .array(files.map { .string($0) })),
            ("changelog", .optional(changelog)),
            ("pushed", .bool(pushed)),
            ("majorPending", .bool(majorPending)),
            ("dryRun", .bool(dryRun)),
        ] + Self.trackJSON(track, prereleaseNumber: prereleaseNumber)
            + [("iosBuild", .optional(iosBuild)), ("androidBuild", .optional(androidBuild)),
               ("releaseUrl", .optional(releaseURL)), ("release_url", .optional(releaseURL))]
        if halted { members.append(("halted", .bool(true))) }
        if case .some(let reason) = reason { members.append(("reason", .optional(reason))) }
        return .object(members)
    }

    // MARK: CI

    /// `version`, `bump`, `tag`, `major_pending`, `prerelease`, `channel`, `ios_build`, `android_build` and `release_url` for the later
    /// steps of the job (empty when there is none), and
    /// `halted=true` after a halt.
    var ciOutputs: [(name: String, value: String)] {
        [("version", version ?? ""), ("bump", bump.description), ("tag", tag ?? ""), ("major_pending", "\(majorPending)")]
            + [("prerelease", "\(track.isPrerelease)"), ("channel", track.channel?.name ?? "")]
            + [("ios_build", iosBuild ?? ""), ("android_build", androidBuild ?? ""), ("release_url", releaseURL ?? "")]
            + (halted ? [("halted", "true")] : [])
    }

    /// `channel`, `prerelease` (the counter) and `range` of `--json` in next, status, changelog and release: null on a
    /// stable release and outside a maintenance branch.
    static func trackJSON(_ track: ReleaseTrack, prereleaseNumber: UInt64?) -> [(String, JSONOutput)] {
        [("channel", .optional(track.channel?.name)),
         ("prerelease", prereleaseNumber.map { .int(Int($0)) } ?? .null),
         ("range", .optional(track.range?.description))]
    }

    /// The note a prerelease of a major release prints instead of the banner: the decision comes with the final.
    static func majorLaterNotice(_ plan: ReleasePlan) -> String {
        let final = VersionParts(plan.version).core
        return "\(plan.version) is a prerelease of a major release: no \(MajorReleaseMarker.fileName) and no halt now; the stable \(final) will be major and its release writes the marker (min_supported_version stays as it is)"
    }

    /// `beta (prerelease 2)`, `maintenance 1.4.x`, or both; nil for a stable release from a main branch.
    static func trackLine(_ track: ReleaseTrack, prereleaseNumber: UInt64?) -> String? {
        var parts: [String] = []
        if let channel = track.channel {
            parts.append("\(channel)" + (prereleaseNumber.map { " (prerelease \($0))" } ?? ""))
        }
        if track.maintenance {
            parts.append("maintenance branch" + (track.range.map { ", range \($0)" } ?? ""))
        }
        return parts.isEmpty ? nil : parts.joined(separator: "; ")
    }

    /// The job summary of a halt: what would have been released, and what to do next.
    var ciHaltSummary: String {
        let version = version ?? ""
        var text = "### relctl halted before major release \(version)\n\n"
        text += "- bump: **\(bump)** (from \(previousVersion ?? "no previous release"))\n- tag: \(MarkdownCodeSpan.make(tag ?? "")) (not created)\n"
        text += "- written: \(files.map(MarkdownCodeSpan.make).joined(separator: ", ")) (not committed)\n"
        text += "\n> [!CAUTION]\n> **Major release \(version) halted.** Nothing was released and `min_supported_version` was NOT "
            + "changed. Review the breaking changes, then run `\(MajorReleaseNotice.confirmCommand)`.\n"
        return text + "\n"
    }

    /// The job summary of a release made: version, bump, tag, files, and the major-release warning.
    func ciSummary(notice: MajorReleaseNotice?) -> String {
        var text = "### relctl released \(version ?? "")\n\n"
        text += "- bump: **\(bump)** (from \(previousVersion ?? "no previous release"))\n- tag: \(MarkdownCodeSpan.make(tag ?? ""))\(pushed ? " (pushed)" : "")\n"
        text += "- files: \(files.map(MarkdownCodeSpan.make).joined(separator: ", "))\n"
        if let line = Self.trackLine(track, prereleaseNumber: prereleaseNumber) { text += "- channel: \(line)\n" }
        if let notice {
            let raise = notice.floor.raiseCommands(version: notice.version).map { "`\($0)`" }
            text += "\n> [!WARNING]\n> **Major release \(notice.version).** `min_supported_version` was NOT changed. Raise it only after "
                + "the new build is live in \(notice.floor.storesText()): "
                + (raise.isEmpty ? "configure a version gate first (no `gate` in `.relctl.json`; see the README's \"Version gate\") " : raise.joined(separator: ", then ") + " ")
                + "(or keep it: `\(MajorReleaseNotice.keepCommand)`)\n"
        }
        return text + "\n"
    }

    // MARK: Text

    /// `released 1.3.0 (minor) as v1.3.0: commit …, 3 files (…)`, on stderr after a release.
    var releasedLine: String {
        "released \(version ?? "") (\(bump)) as \(tag ?? ""): commit \((commit ?? "").prefix(12)), \(files.count) file\(files.count == 1 ? "" : "s") (\(files.joined(separator: ", ")))"
    }

    /// The plan a dry run prints: the version and why, each file's diff, the changelog section, the commit and tag
    /// messages.
    static func dryRunText(_ plan: ReleasePlan, analysis: ReleaseAnalysis, push: Bool, remote: String) -> String {
        var text = dryRunHeader(plan, analysis: analysis, push: push, remote: remote)
        text += "\nfiles:\n"
        if plan.writes.isEmpty { text += "  (none)\n" }
        for write in plan.writes {
            text += "  \(plan.relativePath(write))\(plan.diffBase(write) == nil ? " (new)" : "")\n"
        }
        text += "\n"
        for write in plan.writes {
            text += UnifiedDiff.render(old: plan.diffBase(write), new: write.newBytes, path: plan.relativePath(write))
        }
        if let section = plan.changelogSection {
            text += "\nchangelog section:\n\n" + section
        }
        text += "\ncommit message:\n" + indented(plan.commitMessage)
        text += "\ntag \(plan.tag) message:\n" + indented(plan.tagMessage)
        return text
    }

    /// The plan a dry run of a halted major release prints: the version and why, then the halt and the one file
    /// the real run writes, `.major-release-pending`, as its diff against the work tree (where it lands).
    static func haltedDryRunText(_ plan: ReleasePlan, analysis: ReleaseAnalysis, push: Bool, remote: String) -> String {
        var text = dryRunHeader(plan, analysis: analysis, push: push, remote: remote)
        text += "\nhalted: onMajor is \"halt\", so the real run stops before the release (exit 3); it writes only\n"
        if let write = plan.markerWrite {
            if write.oldBytes == write.newBytes {
                text += "  \(plan.relativePath(write)) (already written by a halt: left as it is)\n"
            } else {
                text += "  \(plan.relativePath(write))\(write.oldBytes == nil ? " (new)" : "")\n\n"
                text += UnifiedDiff.render(old: write.oldBytes, new: write.newBytes, path: plan.relativePath(write))
            }
        }
        text += "\nno version file, changelog, commit or tag; 'relctl release --dry-run --confirm-major' shows the release\n"
        return text
    }

    /// The first lines of every dry-run plan: the version, tag and branch, and the commits behind the version.
    private static func dryRunHeader(_ plan: ReleasePlan, analysis: ReleaseAnalysis, push: Bool, remote: String) -> String {
        var text = "relctl release --dry-run: nothing will be changed\n\n"
        if let current = analysis.current {
            text += "version:  \(plan.version) (\(plan.bump) bump from \(current))\n"
        } else {
            text += "version:  \(plan.version) (first release: initialVersion, no release tag yet)\n"
        }
        text += "tag:      \(plan.tag)\n"
        if let line = trackLine(plan.track, prereleaseNumber: plan.prereleaseNumber) { text += "channel:  \(line)\n" }
        if let note = plan.buildNote { text += "builds:   \(note)\n" }
        text += "branch:   \(plan.branch ?? "(detached HEAD)")\(push ? ", pushed to '\(remote)'" : "")\n\n"
        let commits = analysis.commits.commits
        let counted = commits.filter(\.counted)
        text += "why: \(counted.count) of \(commits.count) commit\(commits.count == 1 ? "" : "s") since \(analysis.baseTag ?? "the start") count toward the release\n"
        // Appended piece by piece: an interpolation per line of a 1,000-commit release cost 4 million instructions.
        for commit in counted.reversed() {
            text += "  "
            text.append(contentsOf: commit.sha.prefix(7))
            text += " "
            text += commit.bump.description
            text += "  "
            text += commit.summary
            text += "\n"
        }
        return text
    }

    /// Each line indented by two spaces (blank lines stay empty), trailing blank lines dropped.
    static func indented(_ text: String) -> String {
        var lines = text.lineFeedSeparatedLines()
        while lines.last?.trimmingCharacters(in: .whitespaces).isEmpty == true { lines.removeLast() }
        var out = ""
        out.reserveCapacity(text.utf8.count + 2 * lines.count + 1)
        for (index, line) in lines.enumerated() {
            if index > 0 { out += "\n" }
            if !line.isEmpty { out += "  "; out += line }
        }
        return out + "\n"
    }
}
