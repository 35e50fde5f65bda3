import RelctlCore
import RelctlJSON
import VersionGate

/// Where each value of a gate document sits in its text. The library's reader keeps values only; this reads
/// the same text with RelctlCore's JSON tree, which keeps every token's bytes and line, so `relctl gate` can
/// name the line of a problem and replace exactly the bytes of one value.
///
/// - `firebase`: a parameter sits in `parameters` or in one group's `parameters`; its default is
///   `defaultValue.value`, a condition's value `conditionalValues.<condition>.value`.
/// - `json`: a key sits at the top level; a platform's own value in `platforms.<member>.<key>`.
struct GateDocumentLayout {
    let format: GateDocumentFormat
    let tree: JSONNode
    /// The key of the plain document's per-platform object (`platforms`); nil for Firebase.
    let platformsKey: String?

    /// One value of a key: its default (`condition` nil) or one condition's.
    struct Site {
        let key: String
        let condition: String?
        /// The value token (a string, or a number in a plain document); nil when the entry has no value of its
        /// own (Firebase's `{"useInAppDefault": true}`).
        let node: JSONNode?
        /// The line to name in messages.
        let line: Int
        /// Where a condition's value sits: "condition ios" (Firebase) or "platforms.ios" (json).
        var place: String? = nil

        /// `"vendor_min_supported_version"` or `"vendor_min_supported_version" (condition ios)`.
        var label: String { place.map { "\"\(key)\" (\($0))" } ?? "\"\(key)\"" }

        /// "the default value" or "the value of condition ios".
        var whose: String { place.map { "the value of \($0)" } ?? "the default value" }
    }

    /// A key of the document: a Firebase parameter or a plain document's top-level member.
    struct Entry {
        let key: String
        let line: Int
        let value: JSONNode
    }

    /// Every parameter (Firebase, top level then groups) or top-level key (json, `platforms` excluded).
    var entries: [Entry] {
        switch format {
        case .firebase:
            var list = (tree.member("parameters")?.objectMembers ?? []).map { Entry(key: $0.key, line: $0.keyLine, value: $0.value) }
            for group in tree.member("parameterGroups")?.objectMembers ?? [] {
                list += (group.value.member("parameters")?.objectMembers ?? []).map { Entry(key: $0.key, line: $0.keyLine, value: $0.value) }
            }
            return list
        case .json:
            return (tree.objectMembers ?? []).filter { $0.key != platformsKey }
                .map { Entry(key: $0.key, line: $0.keyLine, value: $0.value) }
        }
    }

    func entry(_ key: String) -> Entry? {
        entries.first { $0.key == key }
    }

    /// The conditions a Firebase template defines, with their lines.
    var conditions: [(name: String, line: Int)] {
        (tree.member("conditions")?.arrayValue ?? []).compactMap { item in
            item.member("name")?.stringValue.map { ($0, item.member("name")?.line ?? item.line) }
        }
    }

    /// The members of a plain document's `platforms`, each with its line and keys.
    var platformMembers: [(condition: String, line: Int, entries: [Entry])] {
        guard let platformsKey, let members = tree.member(platformsKey)?.objectMembers else { return [] }
        return members.map { member in
            (member.key, member.keyLine,
             (member.value.objectMembers ?? []).map { Entry(key: $0.key, line: $0.keyLine, value: $0.value) })
        }
    }

    /// Every value of `key`: the default first (when the document has one), then each condition's in document
    /// order. Empty when the key is absent.
    func sites(of key: String) -> [Site] {
        switch format {
        case .firebase:
            guard let entry = entry(key) else { return [] }
            var list: [Site] = []
            if let defaultValue = entry.value.member("defaultValue") {
                let node = defaultValue.member("value")
                list.append(Site(key: key, condition: nil, node: node, line: node?.line ?? defaultValue.line))
            }
            for conditional in entry.value.member("conditionalValues")?.objectMembers ?? [] {
                let node = conditional.value.member("value")
                list.append(Site(key: key, condition: conditional.key, node: node, line: node?.line ?? conditional.keyLine,
                                 place: "condition \(conditional.key)"))
            }
            return list
        case .json:
            var list: [Site] = []
            // A `null` is no value, as the library reads it.
            if let member = (tree.objectMembers ?? []).last(where: { $0.key == key }), key != platformsKey {
                list.append(Site(key: key, condition: nil, node: member.value.isNull ? nil : member.value, line: member.keyLine))
            }
            for platform in platformMembers {
                if let member = platform.entries.last(where: { $0.key == key }) {
                    list.append(Site(key: key, condition: platform.condition, node: member.value.isNull ? nil : member.value,
                                     line: member.line, place: "\(platformsKey ?? "platforms").\(platform.condition)"))
                }
            }
            return list
        }
    }

    /// The value of `key` for `condition` (nil: the default), or nil when the document has none there.
    func site(of key: String, condition: String?) -> Site? {
        sites(of: key).first { $0.condition == condition }
    }

    /// The site a platform reads `key` from: its condition's value when it has one, else the default; the same
    /// rule as the library's ``GateDocument/value(of:for:)``.
    func site(of key: String, for platform: GatePlatform?, reader: GateDocumentReader) -> Site? {
        let all = sites(of: key)
        if let platform, let own = all.first(where: { $0.condition == reader.platformConditions[platform] ?? platform.rawValue && $0.node != nil }) {
            return own
        }
        return all.first { $0.condition == nil }
    }
}
