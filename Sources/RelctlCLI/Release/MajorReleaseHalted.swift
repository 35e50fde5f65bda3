import RelctlCore

extension Problem {
    /// `"onMajor": "halt"` (the default) stopped a major release: only `.major-release-pending` was written (a dry
    /// run writes nothing), exit 3 until rerun with `--confirm-major`. A dry run ends with the same line as the real run.
    static func majorReleaseHalted(version: String) -> Problem {
        Problem(
            "halted before major release \(version) (onMajor is \"halt\"): nothing is released; review the breaking changes in \(MajorReleaseMarker.fileName), then rerun with --confirm-major",
            kind: .haltedForMajor
        )
    }
}
