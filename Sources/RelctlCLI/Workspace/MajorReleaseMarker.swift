#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
import RelctlCore
import RelctlGit
import VersionGate

/// `.major-release-pending` at the repository root: the decision a major release leaves open (raising
/// `min_supported_version` once the new build is live in the app's stores), committed with the release.
enum MajorReleaseMarker {
    static let fileName = ".major-release-pending"

    /// The banner a major release prints (bold red where the terminal or the CI log shows colour, never with
    /// `NO_COLOR`) and the CI's warning annotation. `halted`: the release stops here (`"onMajor": "halt"`).
    static func announce(_ notice: MajorReleaseNotice, halted: Bool = false, context: CommandContext) {
        let noColor = !(context.environment["NO_COLOR"] ?? "").isEmpty
        let colored = !noColor && (context.output.colorErr || context.ci?.logShowsColor == true)
        let banner = notice.banner(colored: false, halted: halted)
        if colored { context.output.coloredLines(banner, .boldRed) } else { context.output.message(banner) }
        if let annotation = context.ci?.majorReleaseWarning(notice, halted: halted) { context.output.message(annotation) }
    }
}

extension CIProvider {
    /// The CI's warning annotation for a major release: its version as the title, the instruction as the text;
    /// `halted`: "Major release 3.0.0 halted" and what to do before it is released.
    func majorReleaseWarning(_ notice: MajorReleaseNotice, halted: Bool = false) -> String? {
        let said = MajorReleaseMarker.annotation(notice, halted: halted)
        return warningAnnotation(title: said.title, message: said.message)
    }
}

extension MajorReleaseMarker {
    /// The title and text of a major release's CI annotation.
    static func annotation(_ notice: MajorReleaseNotice, halted: Bool) -> Output.Annotation {
        let title = "Major release \(notice.version)\(notice.floor.project.map { " of \($0)" } ?? "")"
        return halted
            ? Output.Annotation(title: title + " halted", message: MajorReleaseNotice.haltInstruction(version: notice.version))
            : Output.Annotation(title: title, message: notice.instruction)
    }
}

/// `.major-release-pending` as this run found it at the root: read once when the workspace opens (`Workspace.open`)
/// and handed to the reminder, status, the release's planner and preflight, and the gate decisions, which
/// read nothing of it again.
struct PendingMajor {
    /// The marker's absolute path.
    let path: String
    /// Its bytes in the work tree (empty when it exists but cannot be read).
    let bytes: [UInt8]
    /// What it records; nil when it is not a marker relctl can read.
    let notice: MajorReleaseNotice?
    /// What HEAD holds at its path; nil: nothing (the marker is not committed).
    let committed: [UInt8]?
    /// The release it records was not made: its tag does not exist and the marker is not committed as it is (a
    /// halt leaves it untracked, or modified over an older one). relctl commits a marker only with its release, so
    /// a committed marker whose tag a shallow clone did not fetch is a release made, not a halt.
    let halted: Bool

    /// Whether the work tree holds the marker as HEAD does.
    var isCommitted: Bool { committed == bytes }

    /// The marker under `root`, or nil when there is none.
    static func read(root: String, repository: Repository, relativePath: String = MajorReleaseMarker.fileName) -> PendingMajor? {
        let path = LexicalPath.join(root, relativePath)
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        let bytes = FileManager.default.contents(atPath: path).map { Array($0) }
        let notice = bytes.flatMap { MajorReleaseNotice.parse(String(decoding: $0, as: UTF8.self)) }
        var committed: [UInt8]?
        if let head = try? repository.headCommit(), let blob = (try? repository.blobIDs(at: [relativePath], in: head))?.first ?? nil {
            committed = try? repository.blobBytes(blob)
        }
        let tagged = notice.map { (try? repository.referenceTarget("refs/tags/\($0.tag)")) != nil } ?? false
        let halted = notice != nil && !tagged && committed != bytes
        return PendingMajor(path: path, bytes: bytes ?? [], notice: notice, committed: committed, halted: halted)
    }
}

extension Workspace {
    /// The stores the app ships to, from the formats of its version files: an Xcode project, Info.plist or
    /// .xcconfig ships to the App Store; a Gradle file, gradle.properties or version catalog to Google Play; an
    /// Expo or Flutter app to both. Empty when no file tells (then messages say "every store the app ships to").
    var stores: [StorePlatform] {
        var found = Set<StorePlatform>()
        for entry in config.files {
            switch entry.format {
            case .pbxproj, .plist, .xcconfig: found.insert(.ios)
            case .gradle, .properties, .versionCatalog: found.insert(.android)
            case .expo, .expoJS, .pubspec: found.formUnion([.ios, .android])
            case .json, .regex: break
            }
        }
        return StorePlatform.allCases.filter(found.contains)
    }

    /// What deciding the floor after major release `version` takes here: the app's stores, and whether the gate
    /// is configured and its latest_version reaches `version` (what `relctl gate raise-min` checks, so that each
    /// command printed works when followed). An unreadable document counts as ready: raise-min then says what is
    /// wrong with it.
    func floorDecision(for version: String) -> FloorDecision {
        guard config.gate != nil else { return FloorDecision(stores: stores, gate: .notConfigured, project: project?.name) }
        let values: GateConfig?
        do {
            values = try LoadedGateDocument.load(config, root: root).config(for: nil)
        } catch {
            return FloorDecision(stores: stores, gate: .ready, project: project?.name)
        }
        let reaches = values?.latestVersion.map { !($0 < GateVersion(version)) } ?? false
        return FloorDecision(stores: stores, gate: reaches ? .ready : .latestBelow, project: project?.name)
    }

    /// While the marker exists, every command says so in one line (and as the CI's warning annotation): a release
    /// halted before it was made (unless `halted` is false), or the decision on min_supported_version after it.
    func remindOfPendingMajor(_ context: CommandContext, halted remindsOfHalt: Bool = true) {
        guard let pending = pendingMajor else { return }
        guard let notice = pending.notice else {
            context.output.warning("not readable; a major release decision may be pending",
                                   at: DiagnosticLocation(path: markerRelativePath), hint: "check the file")
            return
        }
        if pending.halted && !remindsOfHalt { return }
        let annotation = MajorReleaseMarker.annotation(notice, halted: pending.halted)
        if pending.halted {
            let version = notice.version
            let what = "major release \(version)\(project.map { " of \($0.name)" } ?? "") is halted, not released: review the breaking changes in \(markerRelativePath), then run \(floorDecision(for: version).confirmCommand)"
            context.output.emit(Problem(what, hint: "or delete the file if \(version) is not to be released", severity: .warning), annotation: annotation)
        } else {
            let floor = floorDecision(for: notice.version)
            let what = "major release \(notice.version)\(project.map { " of \($0.name)" } ?? "") is pending: min_supported_version is unchanged; \(floor.raiseSentence(version: notice.version))"
            context.output.emit(Problem(what, hint: "or keep it: \(floor.keepCommand)", severity: .warning), annotation: annotation)
        }
    }
}
