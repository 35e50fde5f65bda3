import RelctlCore
import RelctlFiles
import VersionGate

/// Moving one version of the gate document (`raise-min`, `set-latest`): that value replaced in place, one more on
/// the document's own version (`configVersion`) where it has one, and the new text read back with the app's
/// library to prove the platforms read what was meant.
struct GateValueEdit {
    let field: GateField
    let platform: GatePlatform?
    /// The value replaced.
    let change: GateDocumentEditor.Change
    /// `configVersion` values moved on.
    let versionChanges: [GateDocumentEditor.Change]
    /// `configVersion` values that are not whole numbers, left alone.
    let skippedVersions: [GateDocumentLayout.Site]
    /// The document after the edit.
    let edited: LoadedGateDocument
    let write: FileWrite

    /// The value of `field` a decision moves: with `platform`, that platform's own value (its condition's);
    /// without, the default. Refused, with the fix, when the document has no such value to edit.
    static func site(_ field: GateField, platform: GatePlatform?, in loaded: LoadedGateDocument) throws -> GateDocumentLayout.Site {
        let key = loaded.key(field)
        let layout = loaded.layout
        guard let keyLine = layout.entry(key)?.line ?? layout.sites(of: key).first?.line else {
            throw Problem("\"\(key)\" is missing, so there is no \(field.summary) to change", at: loaded.location(nil),
                          hint: GateCheck.addHint(field, key: key, settings: loaded.settings))
        }
        let condition = platform.map { loaded.document.condition(for: $0) }
        guard let site = layout.site(of: key, condition: condition) else {
            let what = loaded.settings.format == .firebase ? "the condition '\(condition ?? "")'" : "the \"platforms\" member '\(condition ?? "")'"
            if let platform {
                throw Problem("\"\(key)\" has no value of its own for \(platform) (\(what)), so \(platform) reads the default value",
                              at: loaded.location(keyLine),
                              hint: "add a value for \(what) to it, or leave out --platform to change the default value")
            }
            throw Problem("\"\(key)\" has no default value", at: loaded.location(keyLine),
                          hint: "give it a default value, or name the platform whose value to change with --platform")
        }
        guard let node = site.node else {
            throw Problem("\(site.label) leaves the value to the app's built-in default, so there is no value to change",
                          at: loaded.location(site.line), hint: "set a value in the document first")
        }
        guard node.stringValue != nil || node.numberText != nil else {
            throw Problem("\(site.label) is \(StrictObject.article(node.typeName)), not a version", at: loaded.location(site.line),
                          hint: "write it as a string like \"2.3.0\" (relctl gate check lists every problem)")
        }
        return site
    }

    /// Edits `site` to `version` and moves `configVersion` on.
    static func make(_ loaded: LoadedGateDocument, field: GateField, platform: GatePlatform?, site: GateDocumentLayout.Site,
                     to version: GateVersion) throws -> GateValueEdit {
        guard let edit = GateDocumentEditor.replace(site, with: version.text), let old = site.node?.scalarText else {
            throw Problem.internalError("the gate value \(site.label) was checked editable and is not")
        }
        let bump = GateDocumentEditor.bumpVersions(loaded.layout.sites(of: loaded.key(.configVersion)))
        let newText = applying([edit] + bump.edits, to: loaded.text)
        let newBytes = Array(newText.utf8)
        let edited = try LoadedGateDocument.read(newBytes, file: loaded.file, settings: loaded.settings)
        // The library must now read the new value where it was written.
        let reads = try edited.config(for: platform)
        let now = field == .minimumSupportedVersion ? reads?.minimumSupportedVersion : reads?.latestVersion
        guard now == version else {
            throw Problem.internalError("after editing \(site.label) to \(version) the document reads \(now?.description ?? "nothing") there")
        }
        return GateValueEdit(field: field, platform: platform, change: .init(site: site, old: old, new: version.text),
                             versionChanges: bump.changes, skippedVersions: bump.skipped, edited: edited,
                             write: FileWrite(path: loaded.file.path, oldBytes: loaded.bytes, newBytes: newBytes,
                                              displayPath: loaded.path))
    }

    /// The problems `relctl gate check` finds in the edited document that it did not find before: a decision
    /// must not break the gate (a latest below a platform's minimum, say).
    func newProblems(comparedWith loaded: LoadedGateDocument) -> [Problem] {
        let before = GateCheck(loaded: loaded).problems().map(\.message)
        return GateCheck(loaded: edited).problems().filter { !before.contains($0.message) }
    }

    /// The lines of the commit message that say what changed, after its title.
    var messageLines: [String] {
        let key = change.site.key
        var lines = ["\"\(key)\" in \(edited.path): \(change.old) → \(change.new) (\(change.site.whose))."]
        for version in versionChanges {
            lines.append("\(version.site.label): \(version.old) → \(version.new).")
        }
        return lines
    }
}
