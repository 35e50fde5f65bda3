#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
import RelctlCore
import RelctlFiles

/// What the last `relctl sync` in this clone wrote: the whole version and the version values it left in the files
/// (so a record older than the files' current values is ignored). Kept in the git folder, never committed.
struct SyncRecord: Equatable {
    var version: String
    var fingerprint: String

    static func path(gitDir: String) -> String { gitDir + "/relctl-last-sync" }

    /// `path field value` for every literal value, one a line, sorted.
    static func fingerprint(_ current: CurrentVersions) -> String {
        current.files.flatMap { file in
            file.locations.filter { $0.indirection == nil }.map { "\(file.entry.path) \($0.field.rawValue) \($0.value)" }
        }.sorted().joined(separator: "\n")
    }

    static func read(gitDir: String) -> SyncRecord? {
        guard let data = FileManager.default.contents(atPath: path(gitDir: gitDir)) else { return nil }
        let text = String(decoding: data, as: UTF8.self)
        guard let newline = text.firstIndex(of: "\n") else { return nil }
        return SyncRecord(version: String(text[..<newline]), fingerprint: String(text[text.index(after: newline)...]))
    }

    /// Best effort: without a record relctl falls back to the tags.
    func write(gitDir: String) {
        try? Data((version + "\n" + fingerprint).utf8).write(to: URL(fileURLWithPath: Self.path(gitDir: gitDir)), options: .atomic)
    }
}
