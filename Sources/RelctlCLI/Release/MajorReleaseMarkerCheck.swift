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

/// What preflight makes of an uncommitted `.major-release-pending`. A halt leaves the marker in the work tree, so
/// relctl's own marker for this very release (the bytes it writes for it now, as the halt left them) is part of the
/// release, not a dirty tree: the rerun leaves it, `--confirm-major` commits it. Any other uncommitted marker — of
/// another version, edited by hand, written before newer commits, or of a release that is not major — is a problem
/// even with `--allow-dirty`: committing it would record a decision nobody reviewed.
enum MajorReleaseMarkerCheck {
    enum Verdict: Equatable {
        /// Committed as it is, or deleted (a deletion is an ordinary uncommitted change).
        case notInvolved
        /// relctl's own marker for this release.
        case own
        /// Any other marker: the one-line problem with its fix.
        case problem(String)
    }

    /// `entry`: the marker's line in the work tree's status (nil: committed as it is).
    static func verdict(_ plan: ReleasePlan, entry: StatusEntry?) -> Verdict {
        guard let entry else { return .notInvolved }
        let name = MajorReleaseMarker.fileName
        guard let bytes = FileManager.default.contents(atPath: LexicalPath.join(plan.root, name)).map({ Array($0) }) else {
            return .notInvolved
        }
        if let write = plan.markerWrite, write.newBytes == bytes { return .own }
        let fix = entry.untracked
            ? "delete it (relctl writes it again when it halts a major release) and rerun relctl release"
            : "restore it (git checkout HEAD -- \(name)) and rerun relctl release"
        guard let written = MajorReleaseNotice.parse(String(decoding: bytes, as: UTF8.self)) else {
            return .problem("\(name) is not a marker relctl wrote (it is not the marker's JSON); \(fix)")
        }
        if plan.markerWrite == nil || written.version != plan.version {
            return .problem("\(name) is the marker of major release \(written.version), but this release is \(plan.version) (\(plan.bump)); \(fix)")
        }
        return .problem("\(name) is not the marker relctl writes for \(plan.version) (edited by hand, or written before newer commits); \(fix)")
    }
}
