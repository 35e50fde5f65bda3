import RelctlCore

/// `storeNotes`: the release-notes files a release writes for the app stores (see StoreNotes.swift and the README).
///
/// ```json
/// "storeNotes": {
///   "locales": ["en-US", "de-DE"],
///   "types": ["feat", "fix", "perf"],
///   "android": {"path": "fastlane/metadata/android/{locale}/changelogs/{versionCode}.txt", "default": true},
///   "ios": {"path": "fastlane/metadata/{locale}/release_notes.txt"},
///   "emptyText": "Bug fixes and improvements."
/// }
/// ```
/// `"storeNotes": true` takes every default (en-US, both stores, fastlane's paths); `"android": false` or
/// `"ios": false` leaves a store out.
struct StoreNotesSettings: Equatable {
    struct Target: Equatable {
        /// Relative to the repository root, with `{locale}`, `{version}` and (Google Play) `{versionCode}`.
        var path: String
        /// Google Play only: also write `default.txt` beside the file (fastlane supply's fallback).
        var writesDefault = false
    }

    var locales = ["en-US"]
    var types = StoreNotes.defaultTypes
    var android: Target? = Target(path: NotesStore.android.defaultPath)
    var ios: Target? = Target(path: NotesStore.ios.defaultPath)
    var emptyText = StoreNotes.defaultEmptyText
    /// `storeNotes.template`, loaded (see ConfiguredTemplate).
    var template: Template?

    func target(_ store: NotesStore) -> Target? { store == .android ? android : ios }
}

extension Config {
    static let storeNotesKeys = ["storeNotes"]

    mutating func parseStoreNotes(_ object: StrictObject) throws(Problem) {
        guard let node = object.node.member("storeNotes") else { return }
        if let flag = node.boolValue {
            storeNotes = flag ? StoreNotesSettings() : nil
            return
        }
        guard node.objectMembers != nil else { throw object.wrongType("storeNotes", node, expected: "an object, true or false") }
        let settings = try StrictObject(node, path: object.path, prefix: "storeNotes.")
        try settings.rejectUnknownKeys(["locales", "types", "android", "ios", "emptyText", "template"])
        try parseTemplateKey(settings, key: "storeNotes.template")
        var result = StoreNotesSettings()
        if let items = try settings.array("locales") {
            let names = items.compactMap(\.stringValue)
            guard !names.isEmpty, names.count == items.count else {
                throw settings.error(node.member("locales") ?? node, "'storeNotes.locales' must be a non-empty list of locale folder names, like [\"en-US\", \"de-DE\"]")
            }
            for (name, item) in zip(names, items) where !Self.isLocaleName(name) {
                throw settings.error(item, "'storeNotes.locales' entry \"\(name)\" is not a locale folder name; use letters, digits and '-' or '_' only, like \"en-US\"")
            }
            result.locales = names
        }
        if let items = try settings.array("types") {
            let names = items.compactMap(\.stringValue)
            guard !names.isEmpty, names.count == items.count else {
                throw settings.error(node.member("types") ?? node, "'storeNotes.types' must be a non-empty list of commit types, like [\"feat\", \"fix\", \"perf\"]")
            }
            result.types = names.map { $0.lowercased() }
        }
        if let (text, textNode) = try settings.string("emptyText") {
            guard !text.allSatisfy(\.isWhitespace) else {
                throw settings.error(textNode, "'storeNotes.emptyText' is empty; give the line written when a release has no user-facing change, like \"Bug fixes and improvements.\"")
            }
            result.emptyText = text
        }
        for store in NotesStore.allCases {
            let key = store.rawValue
            guard let value = node.member(key) else { continue }
            if let flag = value.boolValue {
                if !flag { if store == .android { result.android = nil } else { result.ios = nil } }
                continue
            }
            guard value.objectMembers != nil else { throw settings.wrongType(key, value, expected: "an object, true or false") }
            let target = try StrictObject(value, path: object.path, prefix: "storeNotes.\(key).")
            try target.rejectUnknownKeys(store == .android ? ["path", "default"] : ["path"])
            var made = StoreNotesSettings.Target(path: store.defaultPath)
            if let (path, pathNode) = try target.string("path") {
                let keyName = "storeNotes.\(key).path"
                let normalized = try Config.repositoryPath(path, key: keyName, line: pathNode.line,
                                                           configPath: object.path, example: store.defaultPath)
                let allowed = store == .android ? ["locale", "version", "versionCode"] : ["locale", "version"]
                if let unknown = Self.placeholders(in: path).first(where: { !allowed.contains($0) }) {
                    throw target.error(pathNode, "'\(keyName)' has an unknown placeholder {\(unknown)}; use \(allowed.map { "{\($0)}" }.joined(separator: ", "))")
                }
                if result.locales.count > 1, !path.contains("{locale}") {
                    throw target.error(pathNode, "'\(keyName)' has no {locale}, so the \(result.locales.count) locales would write one file; put {locale} in the path, like \"\(store.defaultPath)\"")
                }
                if store == .android, !path.contains("{versionCode}") {
                    throw target.error(pathNode, "'\(keyName)' has no {versionCode}; Google Play's notes are one file per versionCode, like \"\(store.defaultPath)\"")
                }
                made.path = normalized
                record(normalized, key: keyName, line: pathNode.line)
            }
            if let flag = try target.bool("default") { made.writesDefault = flag }
            if store == .android { result.android = made } else { result.ios = made }
        }
        guard result.android != nil || result.ios != nil else {
            throw settings.error(node, "'storeNotes' turns off both stores (\"android\": false and \"ios\": false); remove \"storeNotes\" instead, or keep one store")
        }
        storeNotes = result
    }

    static func isLocaleName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x7A) || $0 == 0x2D || $0 == 0x5F }
    }

    /// The `{name}` placeholders of a path.
    static func placeholders(in path: String) -> [String] {
        var names: [String] = []
        var rest = Substring(path)
        while let open = rest.firstIndex(of: "{") {
            guard let close = rest[open...].firstIndex(of: "}") else { break }
            names.append(String(rest[rest.index(after: open)..<close]))
            rest = rest[rest.index(after: close)...]
        }
        return names
    }
}
