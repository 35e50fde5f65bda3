import RelctlJSON

/// What deciding the floor after a major release takes for one app: the stores it ships to (from its version files:
/// an iOS-only app has only the App Store to wait for) and where its version gate stands (none configured: there is
/// nothing to raise until one is; a latest below the release: `set-latest` must come before `raise-min`).
public struct FloorDecision: Sendable, Equatable {
    public enum Gate: Sendable, Equatable {
        /// No `gate` in the config: `relctl gate raise-min` would fail; say how to configure one.
        case notConfigured
        /// The gate's latest_version is below the release (or unset): `relctl gate set-latest` first.
        case latestBelow
        /// `relctl gate raise-min <version> --confirm-live` works as it is once the build is live.
        case ready
    }

    /// The stores the app ships to, App Store first; empty when its version files do not tell (then every store).
    public var stores: [StorePlatform]
    public var gate: Gate
    /// The project of a repository holding several apps (`projects` in .relctl.json) whose release this is: every
    /// command named carries `--project NAME`, and the banner and the marker name it. Nil for a repository of one app.
    public var project: String?

    public init(stores: [StorePlatform] = [.ios, .android], gate: Gate = .ready, project: String? = nil) {
        self.stores = StorePlatform.allCases.filter(stores.contains)
        self.gate = gate
        self.project = project
    }

    /// ` --project NAME`, or "" without a project.
    public var projectOption: String { project.map { " --project \($0)" } ?? "" }

    /// The command that makes a halted major release: `relctl release --confirm-major`, for a project
    /// `relctl release --project NAME --confirm-major`.
    public var confirmCommand: String {
        project.map { "relctl release --project \($0) --confirm-major" } ?? MajorReleaseNotice.confirmCommand
    }

    /// The command that resolves the decision without raising the store minimum (with `--project NAME` for a project).
    public var keepCommand: String {
        project.map { "relctl gate keep-min --project \($0) --reason \"<why>\"" } ?? MajorReleaseNotice.keepCommand
    }

    public static func storeName(_ platform: StorePlatform) -> String {
        platform == .ios ? "App Store" : "Google Play"
    }

    /// Where the build must be live: "the App Store", "Google Play", "both stores (App Store and Google Play)",
    /// "every store the app ships to". `loud`: "BOTH stores" for the banner.
    public func storesText(loud: Bool = false) -> String {
        switch stores {
        case [.ios]: return "the App Store"
        case [.android]: return "Google Play"
        case [.ios, .android]: return "\(loud ? "BOTH" : "both") stores (App Store and Google Play)"
        default: return "every store the app ships to"
        }
    }

    /// The command that raises the floor, and before it `set-latest` when the latest is below `version`; none
    /// without a gate.
    public func raiseCommands(version: String) -> [String] {
        switch gate {
        case .notConfigured: return []
        case .latestBelow: return [MajorReleaseNotice.setLatestCommand(version: version) + projectOption,
                                   MajorReleaseNotice.raiseCommand(version: version) + projectOption]
        case .ready: return [MajorReleaseNotice.raiseCommand(version: version) + projectOption]
        }
    }

    /// The raise, on one line: "raise it only once V is live in S, then run: A" (or "run, in order: A, then B"),
    /// or, without a gate, that there is nothing to raise yet and how to configure one.
    public func raiseSentence(version: String) -> String {
        let commands = raiseCommands(version: version)
        switch commands.count {
        case 0: return "no version gate is configured, so there is no minimum to raise yet: \(Self.gateHowTo); relctl status then names the command that raises it once \(version) is live in \(storesText())"
        case 1: return "raise it only once \(version) is live in \(storesText()), then run: \(commands[0])"
        default: return "raise it only once \(version) is live in \(storesText()), then run, in order: \(commands.joined(separator: ", then "))"
        }
    }

    /// How to configure a gate, in one clause (README, "Version gate").
    public static let gateHowTo = #"add "gate" to .relctl.json, such as "gate": {"document": "remoteconfig.template.json", "format": "firebase"} (see the README's "Version gate")"#
}

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
    /// floor once the version is live in the app's stores (after `setLatest` when the gate's latest is below it;
    /// nil when no gate is configured), or `keepMin` keeps it with a reason.
    public struct Commands: Sendable, Equatable {
        public var release: String
        public var setLatest: String?
        public var raiseMin: String?
        public var keepMin: String

        public init(release: String, setLatest: String? = nil, raiseMin: String?, keepMin: String) {
            self.release = release
            self.setLatest = setLatest
            self.raiseMin = raiseMin
            self.keepMin = keepMin
        }

        /// The commands for `version`, as `floor` needs them.
        public init(version: String, floor: FloorDecision = FloorDecision()) {
            let raise = floor.raiseCommands(version: version)
            self.init(release: floor.confirmCommand, setLatest: raise.count == 2 ? raise[0] : nil,
                      raiseMin: raise.last, keepMin: floor.keepCommand)
        }
    }

    /// The stores the app ships to and where its gate stood when the marker was written (`stores` in the JSON; the
    /// gate from `commands`).
    public var floor: FloorDecision

    /// `decision`, `commands` and `instruction` default to ``decision(version:floor:)``, ``Commands/init(version:floor:)``
    /// and ``instruction(version:floor:)``.
    public init(version: String, previousVersion: String?, tag: String, date: String,
                breakingChanges: [BreakingChange], floor: FloorDecision = FloorDecision(), decision: String? = nil,
                commands: Commands? = nil, instruction: String? = nil) {
        self.version = version
        self.previousVersion = previousVersion
        self.tag = tag
        self.date = date
        self.breakingChanges = breakingChanges
        self.floor = floor
        self.decision = decision ?? Self.decision(version: version, floor: floor)
        self.commands = commands ?? Commands(version: version, floor: floor)
        self.instruction = instruction ?? Self.instruction(version: version, floor: floor)
    }

    /// Whether `other` records the same release (version, base, tag, breaking changes), whatever its date and the
    /// wording of its decision: a halt's marker stays this release's marker when the gate moved since.
    public func recordsSameRelease(as other: MajorReleaseNotice) -> Bool {
        version == other.version && previousVersion == other.previousVersion && tag == other.tag
            && breakingChanges == other.breakingChanges
    }

    /// The command that makes a major release halted by `"onMajor": "halt"`.
    public static let confirmCommand = "relctl release --confirm-major"

    /// The command that raises the store minimum, once the version is live in the app's stores.
    public static func raiseCommand(version: String) -> String { "relctl gate raise-min \(version) --confirm-live" }

    /// The command that moves the gate's latest_version to the release, before the minimum can follow it.
    public static func setLatestCommand(version: String) -> String { "relctl gate set-latest \(version)" }

    /// The command that resolves the decision without raising the store minimum.
    public static let keepCommand = "relctl gate keep-min --reason \"<why>\""

    /// The human instruction after the release, on one line.
    public static func instruction(version: String, floor: FloorDecision = FloorDecision()) -> String {
        "Major release \(version)\(floor.project.map { " of \($0)" } ?? ""): min_supported_version was NOT changed; "
            + "\(floor.raiseSentence(version: version)) (or keep it: \(floor.keepCommand))"
    }

    /// The human instruction when `"onMajor": "halt"` stopped the release, on one line.
    public static func haltInstruction(version: String) -> String {
        "Major release \(version) halted: nothing was released and min_supported_version was NOT changed. "
            + "Review the breaking changes in .major-release-pending, then run: \(confirmCommand)"
    }

    /// The decision, in order: the release itself, then the store minimum once the release is live.
    public static func decision(version: String, floor: FloorDecision = FloorDecision()) -> String {
        "Release \(floor.project.map { "\($0) " } ?? "")\(version) only after reviewing its breaking changes (\(floor.confirmCommand) when relctl halted it). "
            + "Then, once \(version) is live in \(floor.storesText()), either raise "
            + "min_supported_version to \(version), which blocks every older build, or keep it and say why."
            + (floor.gate == .notConfigured ? " Raising it needs a version gate, and none is configured: \(FloorDecision.gateHowTo)." : "")
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
        // No raw control character (a commit subject may hold one): the marker is read on terminals too.
        func string(_ text: String?) -> String { text.map { JSONDocument.quoteEscapingControls($0) } ?? "null" }
        var out = "{\n"
        out += "  \"schemaVersion\": \(Self.schemaVersion),\n"
        if let project = floor.project { out += "  \"project\": \(string(project)),\n" }
        out += "  \"version\": \(string(version)),\n"
        out += "  \"previousVersion\": \(string(previousVersion)),\n"
        out += "  \"tag\": \(string(tag)),\n"
        out += "  \"date\": \(string(date)),\n"
        out += "  \"stores\": [\(floor.stores.map { JSONDocument.quote($0.rawValue) }.joined(separator: ", "))],\n"
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
        if let setLatest = commands.setLatest { out += "    \"setLatest\": \(string(setLatest)),\n" }
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
                  let raiseMin = node.member("raiseMin"), raiseMin.isNull || raiseMin.stringValue != nil,
                  let keepMin = node.member("keepMin")?.stringValue else { return nil }
            var setLatest: String?
            if let given = node.member("setLatest") {
                guard let text = given.stringValue else { return nil }
                setLatest = text
            }
            commands = Commands(release: release, setLatest: setLatest, raiseMin: raiseMin.stringValue, keepMin: keepMin)
        }
        // `stores` may be missing (a marker written before it existed): both stores, as such a marker said.
        var floor = FloorDecision()
        if let node = root.member("stores") {
            guard let items = node.arrayValue else { return nil }
            var stores: [StorePlatform] = []
            for item in items {
                guard let name = item.stringValue, let store = StorePlatform(rawValue: name) else { return nil }
                stores.append(store)
            }
            floor.stores = StorePlatform.allCases.filter(stores.contains)
        }
        if let node = root.member("project") {
            guard let name = node.stringValue else { return nil }
            floor.project = name
        }
        if let commands {
            floor.gate = commands.raiseMin == nil ? .notConfigured : commands.setLatest != nil ? .latestBelow : .ready
        }
        return MajorReleaseNotice(version: version, previousVersion: previous.stringValue, tag: tag, date: date,
                                  breakingChanges: changes, floor: floor, decision: decision, commands: commands,
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
            floor.project == nil ? "!!  breaking changes in .major-release-pending, then release with:"
                : "!!  breaking changes in its .major-release-pending, then release with:",
            "!!      \(floor.confirmCommand)",
            "!!",
            rule,
        ]
        let lines = [
            bang,
            bang,
            "!!",
            "!!  MAJOR RELEASE \(version)\(floor.project.map { " OF \(Self.printable($0))" } ?? "")  (\(origin))",
            "!!",
            rule,
        ] + (halted ? haltLines : []) + [
            "!!",
            "!!  min_supported_version has NOT been changed.",
            "!!",
            "!!  DECISION NEEDED: raise it only after confirming that \(version)",
            "!!  is live in \(floor.storesText(loud: true)).",
            "!!",
        ] + raiseLines(version) + [
            "!!  or keep it, saying why:",
            "!!      \(floor.keepCommand)",
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

    /// The banner's lines that say how to raise the floor: the command, the two in order, or how to configure a gate.
    func raiseLines(_ version: String) -> [String] {
        let commands = floor.raiseCommands(version: version)
        switch commands.count {
        case 0:
            return [
                "!!  No version gate is configured (no \"gate\" in .relctl.json), so there",
                "!!  is no minimum to raise yet. To manage it, add one, e.g.",
                "!!      \"gate\": {\"document\": \"remoteconfig.template.json\",",
                "!!               \"format\": \"firebase\"}",
                "!!  (README, \"Version gate\"); relctl status then names the",
                "!!  command that raises it.",
            ]
        case 1:
            return ["!!  Then run:", "!!      \(commands[0])"]
        default:
            return ["!!  Then run, in order:"] + commands.map { "!!      \($0)" }
        }
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
