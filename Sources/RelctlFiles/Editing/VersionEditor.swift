import RelctlCore

/// A format-preserving editor: text in, edits out. It parses a file once into a `ParsedVersionFile`, which
/// answers "where are the version tokens" and "the edits for this target" without parsing again.
package protocol VersionEditor: Sendable {
    /// Parses `text` (the file at root-relative `path`, named in errors). Throws what makes the file unreadable
    /// to relctl: a syntax error, a value set twice, a pattern matching twice.
    func parse(_ text: String, path: String) throws(FileEditError) -> any ParsedVersionFile
}

/// One file's text as its editor parsed it.
package protocol ParsedVersionFile: Sendable {
    /// Every version value in the file, indirections included (reported, never edited).
    var locations: [VersionLocation] { get }
    /// The edits that write `target` (nil fields are left alone); empty when the file already holds it. Throws
    /// when the file cannot hold it: a field missing, a computed value, a value its token cannot take.
    func edits(for target: VersionTarget) throws(FileEditError) -> [TextEdit]
    /// Whether the file, written with a prerelease, holds it whole (`1.3.0-beta.1`); nil when the format decides
    /// (`VersionFileFormat.marketingPlatform`). A regex entry answers from its pattern.
    var keepsPrerelease: Bool? { get }
    /// A project.pbxproj: where each selected target's version lives, per build configuration; empty otherwise.
    var xcodeTargets: [XcodeTargetVersion] { get }
}

extension ParsedVersionFile {
    package var keepsPrerelease: Bool? { nil }
    package var xcodeTargets: [XcodeTargetVersion] { [] }
}

extension VersionEditor {
    /// Every version value in the file (including indirections, which are reported but never edited).
    package func read(_ text: String, path: String) throws(FileEditError) -> [VersionLocation] {
        try parse(text, path: path).locations
    }

    /// The edits that write `target`; empty when the file already holds it.
    package func edits(_ text: String, path: String, target: VersionTarget) throws(FileEditError) -> [TextEdit] {
        try parse(text, path: path).edits(for: target)
    }
}
