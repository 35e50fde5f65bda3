/// What a broken rule does: an error fails the lint (exit 2), a warning is shown and passes, off is not checked.
package enum LintSeverity: String, Sendable, Hashable {
    case error, warning, off
}
