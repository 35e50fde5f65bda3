/// What `.major-release-pending` records after a major release: the store minimum
/// (`min_supported_version`) was deliberately left alone, and a human has to decide when to raise it.
public struct MajorReleaseNotice: Sendable, Equatable {
    /// One breaking commit of the release.
    public struct BreakingChange: Sendable, Equatable {
        public var sha: String
        /// The commit's first line.
        public var summary: String
        /// The `BREAKING CHANGE` footer text when it says more than the description; `nil` otherwise.
        public var detail: String?

        public init(sha: String, summary: String, detail: String? = nil) {
            self.sha = sha
            self.summary = summary
            self.detail = detail
        }
    }

    /// The version of the JSON layout written by ``json()``.
    public static let schemaVersion = 1

    public var version: String
    public var previousVersion: String?
    public var tag: String
    /// ISO 8601 date-time, passed in by the caller.
    public var date: String
    public var breakingChanges: [BreakingChange]
    /// The decision a human has to take, in order, on one line (``decision(version:)``).
    public var decision: String
    /// The commands that record each step of the decision (``Commands/init(version:)``).
    public var commands: Commands
    public var instruction: String

    /// The commands that record the decision: `release` makes the halted release, then `raiseMin` raises the
    /// floor once the version is live in both stores, or `keepMin` keeps it with a reason.
    public struct Commands: Sendable, Equatable {
        public var release: String
        public var raiseMin: String
        public var keepMin: String

        public init(release: String, raiseMin: String, keepMin: String) {
            self.release = release
            self.raiseMin = raiseMin
            self.keepMin = keepMin
        }

        /// The commands for `version`.
        public init(version: String) {
            self.init(release: MajorReleaseNotice.confirmCommand, raiseMin: MajorReleaseNotice.raiseCommand(version: version),
                      keepMin: MajorReleaseNotice.keepCommand)
        }
    }

    /// `decision`, `commands` and `instruction` default to ``decision(version:)``, ``Commands/init(version:)`` and
    /// ``instruction(version:)``.
    public init(version: String, previousVersion: String?, tag: String, date: String,
                breakingChanges: [BreakingChange], decision: String? = nil, commands: Commands? = nil,
                instruction: String? = nil) {
        self.version = version
        self.previousVersion = previousVersion
        self.tag = tag
        self.date = date
        self.breakingChanges = breakingChanges
        self.decision = decision ?? Self.decision(version: version)
        self.commands = commands ?? Commands(version: version)
        self.instruction = instruction ?? Self.instruction(version: version)
    }

    /// The command that makes a major release halted by `"onMajor": "halt"`.
    public static let confirmCommand = "relctl release --confirm-major"

    /// The command that raises the store minimum, once the version is live in both stores.
    public static func raiseCommand(version: String) -> String { "relctl gate raise-min \(version) --confirm-live" }

    /// The command that resolves the decision without raising the store minimum.
    public static let keepCommand = "relctl gate keep-min --reason \"<why>\""

    /// The human instruction after the release, on one line.
    public static func instruction(version: String) -> String {
        "Major release \(version): min_supported_version was NOT changed. "
            + "Raise it only after confirming that the new build is live in both stores "
            + "(App Store and Google Play), then run: \(raiseCommand(version: version)) "
            + "(or keep it: \(keepCommand))"
    }

    /// The human instruction when `"onMajor": "halt"` stopped the release, on one line.
    public static func haltInstruction(version: String) -> String {
        "Major release \(version) halted: nothing was released and min_supported_version was NOT changed. "
            + "Review the breaking changes in .major-release-pending, then run: \(confirmCommand)"
    }

    /// The decision, in order: the release itself, then the store minimum once the release is live.
    public static func decision(version: String) -> String {
        "Release \(version) only after reviewing its breaking changes (\(confirmCommand) when relctl halted it). "
            + "Then, once \(version) is live in both stores (App Store and Google Play), either raise "
            + "min_supported_version to \(version), which blocks every older build, or keep it and say why."
    }

    /// The counted breaking commits of `commits` (newest first, as ``CommitAnalysis/commits``),
    /// oldest first.
    public static func breakingChanges(in commits: [AnalyzedCommit]) -> [BreakingChange] {
        commits.reversed().compactMap { commit in
            guard commit.counted, let message = commit.message, message.isBreaking else { return nil }
            let details = message.breakingChanges.filter { $0 != message.description }
            return BreakingChange(sha: commit.sha, summary: commit.summary,
                                  detail: details.isEmpty ? nil : details.joined(separator: "\n\n"))
        }
    }

    // MARK: JSON

    /// Pretty-printed JSON (2-space indent, keys in a fixed order, trailing newline).
    public func json() -> String {
        func string(_ text: String?) -> String { text.map { JSONDocument.quote($0) } ?? "null" }
        var out = "{\n"
        out += "  \"schemaVersion\": \(Self.schemaVersion),\n"
        out += "  \"version\": \(string(version)),\n"
        out += "  \"previousVersion\": \(string(previousVersion)),\n"
        out += "  \"tag\": \(string(tag)),\n"
        out += "  \"date\": \(string(date)),\n"
        if breakingChanges.isEmpty {
            out += "  \"breakingChanges\": [],\n"
        } else {
            out += "  \"breakingChanges\": [\n"
            for (index, change) in breakingChanges.enumerated() {
                out += "    {\n"
                out += "      \"sha\": \(string(change.sha)),\n"
                out += "      \"summary\": \(string(change.summary)),\n"
                out += "      \"detail\": \(string(change.detail))\n"
                out += index == breakingChanges.count - 1 ? "    }\n" : "    },\n"
            }
            out += "  ],\n"
        }
        out += "  \"decision\": \(string(decision)),\n"
        out += "  \"commands\": {\n"
        out += "    \"release\": \(string(commands.release)),\n"
        out += "    \"raiseMin\": \(string(commands.raiseMin)),\n"
        out += "    \"keepMin\": \(string(commands.keepMin))\n"
        out += "  },\n"
        out += "  \"instruction\": \(string(instruction))\n"
        out += "}\n"
        return out
    }

    /// The notice written by ``json()``; `nil` when `text` is not strict JSON, has another
    /// `schemaVersion`, or lacks a field or has one of the wrong type. Unknown keys are ignored. `decision` and
    /// `commands` may be missing (a marker written before they existed): they get their defaults.
    public static func parse(_ text: String) -> MajorReleaseNotice? {
        guard let root = try? JSONDocument.parse(text, allowJSON5: false), root.objectMembers != nil,
              root.member("schemaVersion")?.intValue == schemaVersion,
              let version = root.member("version")?.stringValue,
              let previous = root.member("previousVersion"),
              previous.isNull || previous.stringValue != nil,
              let tag = root.member("tag")?.stringValue,
              let date = root.member("date")?.stringValue,
              let items = root.member("breakingChanges")?.arrayValue,
              let instruction = root.member("instruction")?.stringValue else { return nil }
        var changes: [BreakingChange] = []
        for item in items {
            guard let sha = item.member("sha")?.stringValue,
                  let summary = item.member("summary")?.stringValue,
                  let detail = item.member("detail"),
                  detail.isNull || detail.stringValue != nil else { return nil }
            changes.append(BreakingChange(sha: sha, summary: summary, detail: detail.stringValue))
        }
        var decision: String?
        if let node = root.member("decision") {
            guard let text = node.stringValue else { return nil }
            decision = text
        }
        var commands: Commands?
        if let node = root.member("commands") {
            guard node.objectMembers != nil, let release = node.member("release")?.stringValue,
                  let raiseMin = node.member("raiseMin")?.stringValue,
                  let keepMin = node.member("keepMin")?.stringValue else { return nil }
            commands = Commands(release: release, raiseMin: raiseMin, keepMin: keepMin)
        }
        return MajorReleaseNotice(version: version, previousVersion: previous.stringValue, tag: tag, date: date,
                                  breakingChanges: changes, decision: decision, commands: commands,
                                  instruction: instruction)
    }

    // MARK: Human output

    /// The loudest warning relctl prints: a box of `!` and `=` lines; bold red on every line when `colored`.
    /// `halted`: `"onMajor": "halt"` stopped the release, and the box says so first, with the command that makes
    /// it. Ends with a newline. Control characters in the fields are shown as `?`.
    public func banner(colored: Bool, halted: Bool = false) -> String {
        let version = Self.printable(version)
        let width = 72
        let bang = String(repeating: "!", count: width)
        let rule = String(repeating: "=", count: width)
        var origin = "tag \(Self.printable(tag))"
        if let previousVersion { origin = "from \(Self.printable(previousVersion)), " + origin }
        let count = breakingChanges.count
        let haltLines = [
            "!!",
            "!!  HALTED: nothing is released yet (no commit, no tag). Review the",
            "!!  breaking changes in .major-release-pending, then release with:",
            "!!      \(Self.confirmCommand)",
            "!!",
            rule,
        ]
        let lines = [
            bang,
            bang,
            "!!",
            "!!  MAJOR RELEASE \(version)  (\(origin))",
            "!!",
            rule,
        ] + (halted ? haltLines : []) + [
            "!!",
            "!!  min_supported_version has NOT been changed.",
            "!!",
            "!!  DECISION NEEDED: raise it only after confirming that \(version)",
            "!!  is live in BOTH stores (App Store and Google Play).",
            "!!",
            "!!  Then run:",
            "!!      \(Self.raiseCommand(version: version))",
            "!!  or keep it, saying why:",
            "!!      \(Self.keepCommand)",
            "!!",
            "!!  \(count) breaking change\(count == 1 ? "" : "s") in this release.",
            "!!",
            rule,
            bang,
            bang,
        ]
        let bold = "\u{1B}[1;31m", reset = "\u{1B}[0m"
        return lines.map { colored ? bold + $0 + reset : $0 }.joined(separator: "\n") + "\n"
    }

    /// `text` with C0/C1 control characters and DEL replaced by `?` (no terminal escapes from a field).
    static func printable(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            let v = scalar.value
            out.append(v < 0x20 || (v >= 0x7F && v < 0xA0) ? "?" : scalar)
        }
        return String(out)
    }
}
