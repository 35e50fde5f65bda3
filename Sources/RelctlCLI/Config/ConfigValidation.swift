/// The config loader as a function of text, for the fuzz harness (`RelctlFuzzing`): what `relctl` reports for a
/// `.relctl.json` holding `text`, before any repository is looked at.
package enum ConfigValidation {
    /// nil when `text` is a valid config; else the line (when the error has one) and the message.
    package static func problem(in text: String, path: String = Config.fileName) -> (line: Int?, message: String)? {
        do {
            _ = try Config.parse(text, path: path)
            return nil
        } catch {
            return (error.location?.line, error.message)
        }
    }
}
