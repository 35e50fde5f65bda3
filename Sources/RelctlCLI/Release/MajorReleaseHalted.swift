import RelctlCore

/// `"onMajor": "halt"` stopped a major release before any write: exit 3 until rerun with `--confirm-major`.
struct MajorReleaseHalted: Diagnostic {
    let version: String

    var message: String {
        "halted before major release \(version) (onMajor is \"halt\"); nothing was changed. Review the breaking changes, then rerun with --confirm-major"
    }
}
