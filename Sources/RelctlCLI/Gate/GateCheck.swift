#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
import RelctlCore
import VersionGate

/// `relctl gate check`'s rules. The app fails open on a gate it cannot read or that says nothing, so a
/// misconfigured gate goes silent in production: every such mistake is caught here, before the document is
/// deployed, one problem per line with the line it is on.
///
/// - the keys the gate needs are present (a misspelt one is named with the key it should be);
/// - every minimum and latest version is dot-separated numbers, and each platform's minimum is not above its
///   latest;
/// - each platform has a store URL, and it is https;
/// - the messages are not empty;
/// - the conditions (Firebase) or `platforms` members (json) the values name exist and are the gate's platforms;
/// - every value has the type the app reads.
struct GateCheck {
    let loaded: LoadedGateDocument

    private var layout: GateDocumentLayout { loaded.layout }
    private var settings: GateSettings { loaded.settings }

    /// The fields without which the gate cannot work: the two versions, the two messages, and the store URL of
    /// every platform the app ships on.
    var requiredFields: [GateField] {
        [.minimumSupportedVersion, .latestVersion, .forceUpdateMessage, .updateAvailableMessage]
            + settings.platforms.compactMap { GateField.storeURL(for: $0.platform) }
    }

    func problems() -> [Problem] {
        var problems = Problems(loaded: loaded)
        if loaded.document.isNull {
            problems.add(1, "the document is null, so every app runs with its built-in defaults and the gate does nothing",
                         "write the gate's values, starting with \"\(loaded.key(.minimumSupportedVersion))\" and \"\(loaded.key(.latestVersion))\"")
            return problems.list
        }
        checkKeys(&problems)
        checkVersions(&problems)
        checkPlatforms(&problems)
        checkMessages(&problems)
        checkConditions(&problems)
        checkTypes(&problems)
        // In the document's order; problems without a line (a key that is missing) last.
        return problems.list.enumerated().sorted { a, b in
            let left = a.element.location?.line ?? Int.max, right = b.element.location?.line ?? Int.max
            return left != right ? left < right : a.offset < b.offset
        }.map(\.element)
    }

    // MARK: Keys

    /// Every key the document names, with its line: parameters or top-level keys, and the keys of each member
    /// of a plain document's `platforms`.
    private var namedKeys: [(key: String, line: Int)] {
        layout.entries.map { ($0.key, $0.line) } + layout.platformMembers.flatMap { $0.entries.map { ($0.key, $0.line) } }
    }

    /// The document's key of every field the reader knows.
    private var knownKeys: [String: GateField] {
        var known: [String: GateField] = [:]
        for field in GateField.allCases {
            if let name = loaded.reader.keys.name(for: field) { known[name] = field }
        }
        return known
    }

    private func checkKeys(_ problems: inout Problems) {
        let known = knownKeys
        var explained = Set<String>()
        for field in requiredFields {
            let key = loaded.key(field)
            let sites = layout.sites(of: key)
            // A key with a default value is there; one with only per-platform values is judged per platform below.
            guard !sites.contains(where: { $0.condition == nil }) else { continue }
            let candidates = namedKeys.filter { known[$0.key] == nil && !explained.contains($0.key) }
            if let near = Self.nearest(key, among: candidates.map(\.key)), let line = candidates.first(where: { $0.key == near })?.line {
                explained.insert(near)
                problems.explained.insert(key)
                problems.add(line, "\"\(near)\" is not a key the gate reads; did you mean \"\(key)\"?",
                             "the gate reads the \(field.summary) from \"\(key)\", which the document does not have")
            } else if sites.isEmpty {
                problems.explained.insert(key)
                problems.add(nil, "\"\(key)\" is missing: the gate has no \(field.summary)", Self.addHint(field, key: key, settings: settings))
            }
        }
        for named in namedKeys where known[named.key] == nil && !explained.contains(named.key) {
            if let near = Self.nearest(named.key, among: Array(known.keys)) {
                explained.insert(named.key)
                problems.add(named.line, "\"\(named.key)\" is not a key the gate reads; did you mean \"\(near)\"?",
                             "the app ignores a key it does not know, so this value has no effect")
            }
        }
    }

    static func addHint(_ field: GateField, key: String, settings: GateSettings) -> String {
        let rename = "or name the document's key in \"keys\": {\"\(field.rawValue)\": \"…\"} under 'gate' in .relctl.json"
        switch settings.format {
        case .firebase: return "add the parameter \"\(key)\" to the template, \(rename)"
        case .json: return "add \"\(key)\" to the document, \(rename)"
        }
    }

    /// The name of `candidates` closest to `name`, when it is a likely misspelling.
    static func nearest(_ name: String, among candidates: [String]) -> String? {
        Spelling.nearest(name, among: candidates)
    }

    // MARK: Values

    private func checkVersions(_ problems: inout Problems) {
        for field in [GateField.minimumSupportedVersion, .latestVersion] {
            for site in layout.sites(of: loaded.key(field)) {
                guard let node = site.node, let text = node.scalarText, !text.allSatisfy({ $0 == " " || $0 == "\t" }) else { continue }
                if !GateVersion(text).isWellFormed {
                    problems.add(site.line, "\(site.label) is \"\(text)\", not a version",
                                 "write dot-separated numbers like \"2.3.0\"; the app reads \"\(text)\" as \(GateVersion(text).readAs)")
                }
            }
        }
    }

    /// Per platform: every required field has a value, the minimum is not above the latest, the store URL is
    /// https. A value several platforms share is named once, with all of them.
    private func checkPlatforms(_ problems: inout Problems) {
        var missing: [(site: String, line: Int?, message: String, platforms: [String])] = []
        func noValue(_ id: String, _ line: Int?, _ message: String, _ platform: GatePlatform) {
            if let index = missing.firstIndex(where: { $0.site == id }) {
                missing[index].platforms.append(platform.rawValue)
            } else {
                missing.append((id, line, message, [platform.rawValue]))
            }
        }
        for (platform, _) in settings.platforms {
            let fields = [GateField.minimumSupportedVersion, .latestVersion, .forceUpdateMessage, .updateAvailableMessage]
                + [GateField.storeURL(for: platform)].compactMap { $0 }
            for field in fields {
                let key = loaded.key(field)
                guard !problems.explained.contains(key) else { continue }   // missing or misspelt: said once, above
                guard let site = layout.site(of: key, for: platform, reader: loaded.reader) else {
                    noValue(key, layout.entry(key)?.line, "\"\(key)\" has no default value", platform)
                    continue
                }
                guard let node = site.node else {
                    noValue(site.label, site.line, settings.format == .firebase
                        ? "\(site.label) leaves the value to the app's built-in default (useInAppDefault)" : "\(site.label) is null", platform)
                    continue
                }
                if let text = node.stringValue, text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
                    noValue(site.label, site.line, "\(site.label) is empty", platform)
                }
            }
        }
        for entry in missing {
            problems.add(entry.line, "\(entry.message), so \(entry.platforms.joined(separator: " and ")) \(entry.platforms.count == 1 ? "has" : "have") no value",
                         "give it a value for every platform the app ships on")
        }

        var seen = Set<String>()
        for (platform, _) in settings.platforms {
            guard let config = try? loaded.config(for: platform) else { continue }
            if let minimum = config.minimumSupportedVersion, let latest = config.latestVersion,
               GateDecisionPlanner.blocksTheLatest(minimum: minimum, latest: latest),
               let minSite = layout.site(of: loaded.key(.minimumSupportedVersion), for: platform, reader: loaded.reader),
               let latestSite = layout.site(of: loaded.key(.latestVersion), for: platform, reader: loaded.reader),
               seen.insert("\(minSite.line) \(latestSite.line)").inserted {
                problems.add(minSite.line, "for \(platform) the minimum \(minimum) (\(minSite.label)) is above the latest \(latest) (\(latestSite.label), line \(latestSite.line))",
                             "users on \(latest) would be blocked with nothing newer to install; raise the latest first (relctl gate set-latest) or lower the minimum")
            }
            guard let field = GateField.storeURL(for: platform), let url = config.storeURL,
                  let site = layout.site(of: loaded.key(field), for: platform, reader: loaded.reader) else { continue }
            if !Self.isHTTPS(url), seen.insert("url \(site.line)").inserted {
                problems.add(site.line, "\(site.label) is \"\(url)\", not an https URL",
                             platform == .ios ? "the Update button opens it; use the App Store page, like https://apps.apple.com/app/id1234567890"
                                 : "the Update button opens it; use the Play Store page, like https://play.google.com/store/apps/details?id=com.example.app")
            }
        }
    }

    /// `https://` followed by a host.
    static func isHTTPS(_ url: String) -> Bool {
        let lower = url.lowercased()
        guard lower.hasPrefix("https://") else { return false }
        let host = lower.dropFirst("https://".count).prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        return !host.isEmpty && !host.contains(" ")
    }

    /// Every value of a message, whichever platform reads it: none may be empty.
    private func checkMessages(_ problems: inout Problems) {
        for field in [GateField.forceUpdateMessage, .updateAvailableMessage, .maintenanceMessage] {
            for site in layout.sites(of: loaded.key(field)) where !problems.reported(site.line) {
                guard let text = site.node?.stringValue, text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { continue }
                problems.add(site.line, "\(site.label) is empty", "write the text the app shows, or remove the value")
            }
        }
    }

    private func checkConditions(_ problems: inout Problems) {
        switch settings.format {
        case .firebase:
            let defined = layout.conditions.map(\.name)
            for key in knownKeys.keys.sorted() {
                for site in layout.sites(of: key) {
                    guard let condition = site.condition, !defined.contains(condition) else { continue }
                    let mean = Self.nearest(condition, among: defined).map { "; did you mean '\($0)'?" } ?? ""
                    problems.add(site.line, "\"\(key)\" has a value for the condition '\(condition)', which the template does not define\(mean)",
                                 "Firebase refuses a template whose values name an undefined condition; define it in \"conditions\" or rename the value's condition")
                }
            }
            for (platform, condition) in settings.platforms where !defined.contains(condition) {
                if settings.platformsConfigured {
                    let mean = Self.nearest(condition, among: defined).map { "; did you mean '\($0)'?" } ?? ""
                    problems.add(nil, "the template defines no condition '\(condition)', which 'gate.platforms' in .relctl.json names for \(platform)\(mean)",
                                 "define the condition in the template, or name the one it has in 'gate.platforms'")
                } else if let near = defined.first(where: { $0.lowercased() == condition.lowercased() }) ?? Self.nearest(condition, among: defined),
                          let line = layout.conditions.first(where: { $0.name == near })?.line {
                    problems.add(line, "the template's condition '\(near)' looks like \(platform)'s, but the gate reads \(platform)'s values from a condition named '\(condition)'",
                                 "set \"platforms\": {\"\(platform)\": \"\(near)\"} under 'gate' in .relctl.json")
                }
            }
        case .json:
            let conditions = settings.platforms.map(\.condition)
            for member in layout.platformMembers where !conditions.contains(member.condition) {
                let mean = Self.nearest(member.condition, among: conditions).map { "; did you mean '\($0)'?" }
                    ?? conditions.first { $0.lowercased() == member.condition.lowercased() }.map { "; did you mean '\($0)'?" } ?? ""
                problems.add(member.line, "\"\(layout.platformsKey ?? "platforms")\" has a member '\(member.condition)', which is not one of the gate's platforms (\(conditions.joined(separator: ", ")))\(mean)",
                             "no app reads these values; rename the member, or list the platform in 'gate.platforms' in .relctl.json")
            }
        }
    }

    /// Values of the wrong type (a boolean that is not one, a `features` that is no object…), as the app would
    /// fail to read them: for the default values and for each platform.
    private func checkTypes(_ problems: inout Problems) {
        for platform in [nil] + settings.platforms.map({ Optional($0.platform) }) {
            do {
                _ = try loaded.document.config(for: platform)
            } catch {
                problems.add(error.line, error.message, "the app fails open on a value it cannot read, so the gate would do nothing")
            }
        }
    }

    /// The problems found, each once.
    struct Problems {
        let loaded: LoadedGateDocument
        private(set) var list: [Problem] = []
        /// Keys whose absence was named already (missing, or misspelt): no more problems about their values.
        var explained = Set<String>()

        mutating func add(_ line: Int?, _ message: String, _ hint: String?) {
            let problem = Problem(message, at: loaded.location(line), hint: hint)
            if !list.contains(problem) { list.append(problem) }
        }

        /// Whether a problem on `line` was named already (a value several rules look at is named once).
        func reported(_ line: Int) -> Bool {
            list.contains { $0.location?.line == line }
        }
    }
}

extension GateField {
    /// What the field is, for messages: "minimum supported version".
    var summary: String {
        switch self {
        case .minimumSupportedVersion: return "minimum supported version (below it the app is blocked)"
        case .latestVersion: return "latest version (below it the app offers the update)"
        case .forceUpdateMessage: return "text of the blocking screen"
        case .updateAvailableMessage: return "text of the update prompt"
        case .maintenanceMessage: return "text of the maintenance screen"
        case .iosStoreUrl: return "App Store page for the Update button"
        case .androidStoreUrl: return "Play Store page for the Update button"
        case .androidNativeUpdateEnabled: return "switch for Android's in-app update"
        case .maintenance: return "maintenance switch"
        case .features: return "feature switches"
        case .notice: return "notice"
        case .maxAgeSeconds: return "maximum age of a cached document"
        case .configVersion: return "document version"
        case .platforms: return "per-platform values"
        }
    }
}

extension GateVersion {
    /// The numbers the app compares, for messages: `"v2.0"` → `0.0`.
    var readAs: String {
        (0..<max(1, segmentCount)).map { segment($0).map(String.init) ?? "?" }.joined(separator: ".")
    }
}
