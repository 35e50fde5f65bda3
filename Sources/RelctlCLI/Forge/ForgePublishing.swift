#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import RelctlCore
import RelctlGit

/// The forge release after a push: made (or updated), or, when the forge fails, said exactly (the tag is published,
/// the release object is not) with the command that finishes it, and remembered so the next `relctl release --push`
/// retries it. The tags still to publish are in `.git/relctl-forge-pending`, one a line.
enum ForgePublishing {
    static let pendingFile = "relctl-forge-pending"

    /// Publishes the release object of `release.tag`, pushed to `remote`. Returns its URL, nil when no forge is in
    /// play or no token is set (a warning then, naming `release.tag` and `alsoTags` for the advice); throws the one
    /// line saying what exists and how to finish.
    static func publish(_ release: ForgeReleases.Release, repository: Repository, remote: String, config: Config,
                        context: CommandContext, alsoTags: [String] = []) throws(Problem) -> String? {
        let output = context.output
        switch ForgeReleases.resolve(config: config, remoteURL: repository.remoteURL(remote), environment: context.environment) {
        case .off:
            return nil
        case .unavailable(let why):
            // Said with its advice (run publish-release): not retried by every later run.
            forget(release.tag, gitDir: repository.gitDir)
            let also = alsoTags.isEmpty ? "" : " (then the same for \(alsoTags.joined(separator: ", ")))"
            output.warning(why.replacingOccurrences(of: "<tag>'", with: "\(release.tag)'\(also)")
                .replacingOccurrences(of: "<tag>", with: release.tag))
            return nil
        case .target(let target):
            let faults = FaultInjection(context.environment)
            do {
                let outcome = try ForgeReleases.publish(release, to: target, environment: context.environment, step: faults.step)
                forget(release.tag, gitDir: repository.gitDir)
                output.message("\(outcome.action) the \(target.name) release \(release.tag): \(outcome.url)")
                return outcome.url
            } catch {
                remember(release.tag, gitDir: repository.gitDir)
                throw Problem("\(release.tag) is released and on '\(remote)' (the commit and the tag), but its \(target.name) release was not made: \(error.message); fix the cause and run 'relctl publish-release \(release.tag)' (the next 'relctl release --push' also retries it)", kind: .forge)
            }
        }
    }

    /// Before a release's push: its tags are remembered as pending while a forge release is to be made, so a run
    /// killed after the tag is on the remote (before or during the forge's requests) has its release made by the
    /// next `relctl release --push`; a release made (or a warning given) forgets it.
    static func rememberBeforePush(_ tags: [String], repository: Repository, remote: String, config: Config,
                                   environment: [String: String]) {
        guard case .target = ForgeReleases.resolve(config: config, remoteURL: repository.remoteURL(remote), environment: environment) else { return }
        for tag in tags { remember(tag, gitDir: repository.gitDir) }
    }

    /// The forge releases of several tags pushed together (`release --all --push`: one per project), each with its
    /// own body: every one tried, whatever the others do. Returns each tag's URL (absent: none made) and the failures'
    /// lines (each naming the tag, what exists and the `publish-release` that finishes it).
    static func publishAll(_ releases: [(release: ForgeReleases.Release, config: Config)], repository: Repository,
                           remote: String, context: CommandContext) -> (urls: [String: String], failures: [String]) {
        var urls: [String: String] = [:]
        var failures: [String] = []
        var warned = false
        for (index, item) in releases.enumerated() {
            let resolution = ForgeReleases.resolve(config: item.config, remoteURL: repository.remoteURL(remote), environment: context.environment)
            if case .unavailable = resolution {
                // One warning for them all (the same cause), naming every tag.
                if !warned {
                    _ = try? publish(item.release, repository: repository, remote: remote, config: item.config, context: context,
                                     alsoTags: releases[(index + 1)...].map(\.release.tag))
                } else {
                    forget(item.release.tag, gitDir: repository.gitDir)
                }
                warned = true
                continue
            }
            do {
                if let url = try publish(item.release, repository: repository, remote: remote, config: item.config, context: context) {
                    urls[item.release.tag] = url
                }
            } catch {
                failures.append(error.message)
            }
        }
        return (urls, failures)
    }

    /// Whether a forge release is in play for `remote` (a forge known, releases not turned off).
    static func applies(repository: Repository, remote: String, config: Config, environment: [String: String]) -> Bool {
        if case .off = ForgeReleases.resolve(config: config, remoteURL: repository.remoteURL(remote), environment: environment) { return false }
        return true
    }

    /// The release of a tag made by an earlier run, from what the repository holds: the changelog section at the
    /// tag (else the tag's message), prerelease when the version has one, latest unless a higher stable release
    /// exists among the tags (the run's one listing, `TagListing`: a maintenance release).
    static func release(
        of tag: String, repository: Repository, config: Config, root: String, tags: TagListing
    ) throws -> ForgeReleases.Release {
        let config = self.config(of: tag, in: config)
        guard let reference = try repository.tag(named: tag), let commit = try repository.commit(of: reference) else {
            throw Problem("tag \(tag) does not exist here; fetch it (git fetch --tags) or name a release tag (git tag --list)")
        }
        let version = self.version(of: tag, format: config.tagFormat)
        var body: String?
        if let path = config.changelogPath {
            let relative = LexicalPath.relative(LexicalPath.join(root, path), to: repository.workdir ?? root) ?? path
            if let blob = try repository.blobIDs(at: [relative], in: commit)[0] {
                body = section(of: version, in: String(decoding: try repository.blobBytes(blob), as: UTF8.self))
            }
        }
        if body == nil, let message = try repository.tagMessage(reference) {
            body = notes(fromTagMessage: message, tag: tag)
        }
        guard let body else {
            throw Problem("the changelog at \(tag) (\(config.changelogPath ?? "none configured")) has no section for \(version) and \(tag) is not an annotated tag with notes; make the release by hand on the forge")
        }
        let parsed = try? SemanticVersion.parse(version)
        var latest = true
        if let parsed, parsed.isStable {
            for name in try tags.names(repository) where name != tag {
                if let other = try? SemanticVersion.parse(self.version(of: name, format: config.tagFormat)), other.isStable, other > parsed {
                    latest = false
                    break
                }
            }
        }
        return ForgeReleases.Release(tag: tag, title: tag, body: normalized(body), prerelease: version.contains("-"), latest: latest)
    }

    /// The config a tag was released under: in a repository with `projects`, the project whose `tagFormat` the tag
    /// fits (`consumer-v1.1.0` → consumer's changelog and format), else `config` itself.
    static func config(of tag: String, in config: Config) -> Config {
        let fits = { (format: String) in
            let version = self.version(of: tag, format: format)
            return version != tag && (try? SemanticVersion.parse(version)) != nil
        }
        if fits(config.tagFormat) && config.projects.isEmpty { return config }
        // The longest prefix first: `app-v{version}` before `v{version}`.
        let projects = config.projects.sorted { $0.tagFormat.count > $1.tagFormat.count }
        return projects.first { fits($0.tagFormat) }?.config ?? config
    }

    /// The version a tag names under `format` (`v{version}` → `v1.3.0` is `1.3.0`); the tag itself when it does not fit.
    static func version(of tag: String, format: String) -> String {
        guard let range = format.range(of: "{version}") else { return tag }
        let prefix = String(format[..<range.lowerBound])
        var suffix = String(format[range.upperBound...])
        guard tag.hasPrefix(prefix) else { return tag }
        var rest = String(tag.dropFirst(prefix.count))
        if suffix.contains("{build}") {
            // `v{version}.{build}`, `v{version}+{build}`: the build is the last part.
            suffix = String(suffix.prefix { $0 != "{" })
            if let cut = suffix.isEmpty ? nil : rest.range(of: suffix, options: .backwards) { rest = String(rest[..<cut.lowerBound]) }
            return rest
        }
        return rest.hasSuffix(suffix) ? String(rest.dropLast(suffix.count)) : rest
    }

    /// The `## <version> …` section of a changelog (`## [1.3.0](…)`, `## 1.3.0 (date)`, `## [1.3.0] - date`), up to the
    /// next `## ` heading; nil when there is none.
    static func section(of version: String, in changelog: String) -> String? {
        let lines = changelog.replacingOccurrences(of: "\r\n", with: "\n").split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(where: { line in
            guard line.hasPrefix("## ") else { return false }
            var heading = line.dropFirst(3).drop { $0 == " " || $0 == "[" }
            guard heading.hasPrefix(version) else { return false }
            heading = heading.dropFirst(version.count)
            return heading.first.map { " ]()".contains($0) } ?? true
        }) else { return nil }
        let end = lines[(start + 1)...].firstIndex { $0.hasPrefix("## ") } ?? lines.endIndex
        return lines[start..<end].joined(separator: "\n")
    }

    /// The notes of a release just made, as `publish-release` reads them back: the changelog section when the release
    /// wrote it to the changelog (a prerelease may not), else the tag's notes.
    static func body(of plan: ReleasePlan, workspace: Workspace) -> String {
        if let section = plan.changelogSection, let path = workspace.config.changelogPath,
           plan.changedPaths.contains(LexicalPath.relative(LexicalPath.join(workspace.root, path), to: workspace.repository.workdir ?? workspace.root) ?? path) {
            return normalized(section)
        }
        return normalized(notes(fromTagMessage: plan.tagMessage, tag: plan.tag))
    }

    /// A release tag's message without its first line (the tag's name) and the blank line after it, nor a signature.
    static func notes(fromTagMessage message: String, tag: String) -> String {
        var text = message
        if let signature = text.range(of: "-----BEGIN PGP SIGNATURE-----") ?? text.range(of: "-----BEGIN SSH SIGNATURE-----") {
            text = String(text[..<signature.lowerBound])
        }
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        if lines.first.map(String.init) == tag { lines.removeFirst() }
        while lines.first?.isEmpty == true { lines.removeFirst() }
        return lines.joined(separator: "\n")
    }

    /// The body as sent: no trailing blank lines, one final line break (the same for a release and a rerun).
    static func normalized(_ body: String) -> String {
        var text = Substring(body)
        while let last = text.last, last.isWhitespace { text = text.dropLast() }
        return text + "\n"
    }

    // MARK: Pending

    static func pending(gitDir: String) -> [String] {
        guard let data = FileManager.default.contents(atPath: gitDir + "/" + pendingFile) else { return [] }
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init).filter { !$0.isEmpty }
    }

    static func remember(_ tag: String, gitDir: String) {
        let tags = pending(gitDir: gitDir)
        guard !tags.contains(tag) else { return }
        write(tags + [tag], gitDir: gitDir)
    }

    static func forget(_ tag: String, gitDir: String) {
        let tags = pending(gitDir: gitDir)
        guard tags.contains(tag) else { return }
        write(tags.filter { $0 != tag }, gitDir: gitDir)
    }

    private static func write(_ tags: [String], gitDir: String) {
        let path = gitDir + "/" + pendingFile
        if tags.isEmpty {
            try? FileManager.default.removeItem(atPath: path)
        } else {
            try? Data((tags.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        }
    }

    /// What `retryPending` did: whether one failed again, and the URL of each release it made.
    struct Retry {
        var failed = false
        var urls: [String: String] = [:]
    }

    /// `relctl release --push`: the forge releases an earlier run could not make (a forge failure, or a run killed
    /// after the tag's push), made now, for the tags on `remote` (a tag not pushed yet waits for the push that
    /// publishes it). A failure is said as an error; the release goes on.
    static func retryPending(repository: Repository, remote: String, config: Config, root: String, tags listing: TagListing,
                             context: CommandContext) -> Retry {
        let tags = pending(gitDir: repository.gitDir)
        guard !tags.isEmpty else { return Retry() }
        let remoteRefs = try? repository.remoteReferences(remote, environment: context.environment)
        var retry = Retry()
        var failed = false
        for tag in tags {
            guard let local = try? repository.tag(named: tag) else {
                // Deleted here since (a release undone): nothing to publish.
                forget(tag, gitDir: repository.gitDir)
                continue
            }
            guard let remoteRefs, remoteRefs["refs/tags/\(tag)"] == local.target else { continue }
            context.output.message("the forge release of \(tag) was not made by an earlier run: making it now")
            do {
                let release = try release(of: tag, repository: repository, config: config, root: root, tags: listing)
                retry.urls[tag] = try publish(release, repository: repository, remote: remote, config: self.config(of: tag, in: config), context: context)
            } catch let failure as Problem where failure.kind == .forge {
                context.output.error(failure.message)
                failed = true
            } catch let failure as Problem {
                context.output.error("the forge release of \(tag) was not made: \(failure.rendered())")
                failed = true
            } catch {
                context.output.error("the forge release of \(tag) was not made: \(error)")
                failed = true
            }
        }
        retry.failed = failed
        return retry
    }

    /// After a push that published `tags` made by an earlier run (a base released here and never pushed): their
    /// forge releases, as when that run had pushed them. Returns the failures' lines.
    static func publishPushed(_ tags: [String], repository: Repository, remote: String, config: Config, root: String,
                              listing: TagListing, context: CommandContext) -> [String] {
        var failures: [String] = []
        guard !tags.isEmpty, applies(repository: repository, remote: remote, config: config, environment: context.environment) else { return [] }
        for tag in tags {
            do {
                let release = try release(of: tag, repository: repository, config: config, root: root, tags: listing)
                _ = try publish(release, repository: repository, remote: remote, config: self.config(of: tag, in: config), context: context)
            } catch let failure as Problem where failure.kind == .forge {
                failures.append(failure.message)
            } catch {
                remember(tag, gitDir: repository.gitDir)
                failures.append("\(tag) is on '\(remote)', but its forge release was not made: \((error as? Problem)?.message ?? "\(error)")")
            }
        }
        return failures
    }
}
