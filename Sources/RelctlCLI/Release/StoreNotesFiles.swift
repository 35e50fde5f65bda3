import Foundation
import RelctlCore
import RelctlFiles

/// One store release-notes file of a release: what `relctl release` writes with the release and `relctl notes` prints.
struct StoreNotesFile: Equatable {
    let store: NotesStore
    let locale: String
    /// Relative to the repository root.
    let path: String
    let text: String
    /// Google Play's `default.txt`, written beside the versionCode's file when `"default": true`.
    var isDefault = false

    var characters: Int { StoreNotes.characterCount(text) }
}

enum StoreNotesFiles {
    /// The files `settings` asks for: every store, every locale, the same text (the commits are written in one
    /// language). `versionCode`: the Google Play build number the release's files hold; when it is nil and a path
    /// needs it, `strict` (a release) makes that a problem, and a preview keeps `{versionCode}` in the path.
    static func files(_ settings: StoreNotesSettings, commits: [AnalyzedCommit], version: String, versionCode: String?,
                      configPath: String, strict: Bool) throws(Problem) -> [StoreNotesFile] {
        let entries = StoreNotes.entries(commits, types: settings.types)
        var files: [StoreNotesFile] = []
        for store in NotesStore.allCases {
            guard let target = settings.target(store) else { continue }
            if store == .android, versionCode == nil, target.path.contains("{versionCode}"), strict {
                throw Problem("\(configPath): 'storeNotes.android.path' names Google Play's notes by {versionCode}, but no version file in \"files\" holds a versionCode; list the app's build.gradle (or build.gradle.kts) in \"files\", or set \"storeNotes\": {\"android\": false}")
            }
            let text = settings.template.map {
                StoreNotes.render(entries, limit: store.limit, emptyText: settings.emptyText, version: version, template: $0)
            } ?? StoreNotes.render(entries, limit: store.limit, emptyText: settings.emptyText)
            for locale in settings.locales {
                let path = target.path
                    .replacingOccurrences(of: "{locale}", with: locale)
                    .replacingOccurrences(of: "{versionCode}", with: versionCode ?? "{versionCode}")
                    .replacingOccurrences(of: "{version}", with: version)
                files.append(StoreNotesFile(store: store, locale: locale, path: path, text: text))
                if target.writesDefault {
                    let folder = (path as NSString).deletingLastPathComponent
                    files.append(StoreNotesFile(store: store, locale: locale,
                                                path: folder.isEmpty ? "default.txt" : folder + "/default.txt",
                                                text: text, isDefault: true))
                }
            }
        }
        return files
    }

    /// The release's writes for `files` (after `existing`, the writes planned before them), or the problem that
    /// stops the release: a path that is a folder, or a file another write already makes.
    static func writes(_ files: [StoreNotesFile], root: String, existing: [FileWrite]) -> (writes: [FileWrite], problem: String?) {
        var writes: [FileWrite] = []
        for file in files {
            let absolute = LexicalPath.join(root, file.path)
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: absolute, isDirectory: &isFolder), isFolder.boolValue {
                return ([], "\(file.path) is a folder, not a file; point \"storeNotes\": {\"\(file.store.rawValue)\": {\"path\": …}} in .relctl.json at a file")
            }
            if (existing + writes).contains(where: { $0.path == absolute }) {
                return ([], "\(file.path) is both a store-notes file and another file the release writes; point \"storeNotes\": {\"\(file.store.rawValue)\": {\"path\": …}} elsewhere")
            }
            let old = FileManager.default.contents(atPath: absolute).map { Array($0) }
            writes.append(FileWrite(path: absolute, oldBytes: old, newBytes: Array(file.text.utf8), displayPath: file.path))
        }
        return (writes, nil)
    }
}
