import Foundation
import RelctlCore

/// `.major-release-pending` at the repository root: the decision a major release leaves open (raising
/// `min_supported_version` once the new build is live in both stores), committed with the release.
enum MajorReleaseMarker {
    static let fileName = ".major-release-pending"

    /// The banner a major release prints (bold red where the terminal or the CI log shows colour, never with
    /// `NO_COLOR`) and the CI's warning annotation.
    static func announce(_ notice: MajorReleaseNotice, context: CommandContext) {
        let noColor = !(context.environment["NO_COLOR"] ?? "").isEmpty
        let colored = !noColor && (context.output.colorErr || context.ci?.logShowsColor == true)
        context.output.message(notice.banner(colored: colored))
        if let annotation = context.ci?.majorReleaseWarning(notice) { context.output.message(annotation) }
    }
}

extension CIProvider {
    /// The CI's warning annotation for a major release: its version as the title, the instruction as the text.
    func majorReleaseWarning(_ notice: MajorReleaseNotice) -> String? {
        warningAnnotation(title: "Major release \(notice.version)", message: notice.instruction)
    }
}

extension Workspace {
    /// The decision a past major release left open, from `.major-release-pending` at the root.
    var pendingMajor: MajorReleaseNotice? {
        guard let data = FileManager.default.contents(atPath: LexicalPath.join(root, MajorReleaseMarker.fileName)) else { return nil }
        return MajorReleaseNotice.parse(String(decoding: data, as: UTF8.self))
    }

    /// While the marker exists, every command says so in one line (and as the CI's warning annotation).
    func remindOfPendingMajor(_ context: CommandContext) {
        guard FileManager.default.fileExists(atPath: LexicalPath.join(root, MajorReleaseMarker.fileName)) else { return }
        guard let notice = pendingMajor else {
            context.output.warning("\(MajorReleaseMarker.fileName) is not readable; a major release decision may be pending (check the file)")
            return
        }
        context.output.warning("major release \(notice.version) is pending: min_supported_version is unchanged; raise it only once \(notice.version) is live in both stores (\(MajorReleaseNotice.raiseCommand(version: notice.version)))")
        if let annotation = context.ci?.majorReleaseWarning(notice) { context.output.message(annotation) }
    }
}
