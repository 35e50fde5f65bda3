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

/// What preflight makes of `.major-release-pending` (as the workspace read it at open, `PendingMajor`).
///
/// A committed marker of another major release is a decision nobody has taken yet: a new major release would
/// replace it and the first decision would be lost, so the new one is refused (a dry run too) until the first is
/// decided with `relctl gate raise-min` or `relctl gate keep-min`, each of which removes the marker in a commit.
///
/// A halt leaves the marker in the work tree, so relctl's own marker for this very release (the release it
/// records, as the halt left it) is part of the release, not a dirty tree: the rerun leaves it, `--confirm-major`
/// commits it. Any other uncommitted marker — of another version, edited by hand, written before newer commits, or
/// of a release that is not major — is a problem even with `--allow-dirty`: committing it would record a decision
/// nobody reviewed.
enum MajorReleaseMarkerCheck {
    enum Verdict: Equatable {
        /// Committed as it is (and of no other major release), or deleted (an ordinary uncommitted change).
        case notInvolved
        /// relctl's own marker for this release.
        case own
        /// Any other marker: the one-line problem with its fix.
        case problem(String)
    }

    /// `entry`: the marker's line in the work tree's status (nil: committed as it is). `floor`: what deciding a
    /// major release's floor takes in this app (`Workspace.floorDecision`), for the fix of a second major release.
    static func verdict(_ plan: ReleasePlan, pending: PendingMajor?, entry: StatusEntry?,
                        floor: (String) -> FloorDecision) -> Verdict {
        let name = plan.markerRelativePath
        if plan.markerWrite != nil, let committed = pending?.committed {
            guard let earlier = MajorReleaseNotice.parse(String(decoding: committed, as: UTF8.self)) else {
                return .problem("\(name) is committed but is not a marker relctl can read, and major release \(plan.version) would replace it; find the decision it records (git log -- \(name)), record it or remove the file in a commit (git rm \(name)), then rerun relctl release")
            }
            if earlier.version != plan.version {
                return .problem(secondMajor(earlier: earlier.version, plan.version, floor: floor(earlier.version)))
            }
        }
        guard let entry, let pending else { return .notInvolved }
        let bytes = pending.bytes
        if let write = plan.markerWrite, write.newBytes == bytes { return .own }
        let fix = entry.untracked
            ? "delete it (relctl writes it again when it halts a major release) and rerun relctl release"
            : "restore it (git checkout HEAD -- \(name)) and rerun relctl release"
        guard let written = pending.notice else {
            return .problem("\(name) is not a marker relctl wrote (it is not the marker's JSON); \(fix)")
        }
        if plan.markerWrite == nil || written.version != plan.version {
            return .problem("\(name) is the marker of major release \(written.version), but this release is \(plan.version) (\(plan.bump)); \(fix)")
        }
        // The same release, its marker written when the gate stood elsewhere: still the halt's own marker.
        if let notice = plan.notice, written.recordsSameRelease(as: notice) { return .own }
        return .problem("\(name) is not the marker relctl writes for \(plan.version) (edited by hand, or written before newer commits); \(fix)")
    }

    /// A second major release while the first one's floor decision is pending: refused, with the commands that
    /// decide the first one (as this app needs them) and the rerun.
    static func secondMajor(earlier: String, _ version: String, floor: FloorDecision) -> String {
        let raise = floor.raiseCommands(version: earlier)
        let decide = raise.isEmpty
            ? "record it with \(MajorReleaseNotice.keepCommand) (no version gate is configured, so there is no minimum to raise)"
            : "once \(earlier) is live in \(floor.storesText()), \(raise.joined(separator: ", then ")); or keep the minimum: \(MajorReleaseNotice.keepCommand)"
        return "major release \(earlier) still waits for its decision on min_supported_version (\(MajorReleaseMarker.fileName)), and major release \(version) would replace it; decide \(earlier) first — \(decide) — then rerun relctl release"
    }
}
