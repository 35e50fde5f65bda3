/// Something to say to every user, such as a feature switched off during an incident.
public struct GateNotice: Sendable, Hashable {
    /// `info` or `warning` (any text the document gives; `info` when it gives none).
    public var level: String
    public var text: String

    public init(level: String = "info", text: String) {
        self.level = level
        self.text = text
    }
}
