#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
import RelctlCore

/// `.major-release-pending` at the repository root: the decision a major release leaves open (raising
/// `min_supported_version` once the new build is live in both stores), committed with the release.
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
        halted
            ? warningAnnotation(title: "Major release \(notice.version) halted", message: MajorReleaseNotice.haltInstruction(version: notice.version))
            : warningAnnotation(title: "Major release \(notice.version)", message: notice.instruction)
    }
}

extension Workspace {
    /// The decision a past major release left open, from `.major-release-pending` at the root.
    var pendingMajor: MajorReleaseNotice? {
        guard let data = FileManager.default.contents(atPath: LexicalPath.join(root, MajorReleaseMarker.fileName)) else { return nil }
        return MajorReleaseNotice.parse(String(decoding: data, as: UTF8.self))
    }

    /// Whether the pending major release was halted before it was made: its tag does not exist (yet).
    func isHalted(_ notice: MajorReleaseNotice) -> Bool {
        (try? repository.referenceTarget("refs/tags/\(notice.tag)")) == nil
    }

    /// While the marker exists, every command says so in one line (and as the CI's warning annotation): a release
    /// halted before it was made (unless `halted` is false), or the decision on min_supported_version after it.
    func remindOfPendingMajor(_ context: CommandContext, halted remindsOfHalt: Bool = true) {
        guard FileManager.default.fileExists(atPath: LexicalPath.join(root, MajorReleaseMarker.fileName)) else { return }
        guard let notice = pendingMajor else {
            context.output.warning("\(MajorReleaseMarker.fileName) is not readable; a major release decision may be pending (check the file)")
            return
        }
        let halted = isHalted(notice)
        if halted && !remindsOfHalt { return }
        if halted {
            context.output.warning("major release \(notice.version) is halted, not released: review the breaking changes in \(MajorReleaseMarker.fileName), then run \(MajorReleaseNotice.confirmCommand) (or delete the file if \(notice.version) is not to be released)")
        } else {
            context.output.warning("major release \(notice.version) is pending: min_supported_version is unchanged; raise it only once \(notice.version) is live in both stores (\(MajorReleaseNotice.raiseCommand(version: notice.version))), or keep it (\(MajorReleaseNotice.keepCommand))")
        }
        if let annotation = context.ci?.majorReleaseWarning(notice, halted: halted) { context.output.message(annotation) }
    }
}
