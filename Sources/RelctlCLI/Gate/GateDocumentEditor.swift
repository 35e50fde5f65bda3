import RelctlCore
import RelctlJSON
import RelctlFiles
import VersionGate

/// Format-preserving edits of a gate document: text in, `TextEdit`s out. Only the bytes of the values changed
/// are replaced; indentation, key order, escapes, line endings and a missing final newline stay as they are.
enum GateDocumentEditor {
    /// A value relctl changes, for the summary and the commit message.
    struct Change {
        let site: GateDocumentLayout.Site
        let old: String
        let new: String
    }

    /// Replaces the value at `site` with `value`. A string stays a string; a number stays a number when `value`
    /// is one (`4.1`), else it becomes a string (`"4.1.0"`), which the app reads the same way.
    static func replace(_ site: GateDocumentLayout.Site, with value: String) -> TextEdit? {
        guard let node = site.node else { return nil }
        switch node.value {
        case .string:
            return TextEdit(range: node.range, replacement: JSONDocument.quote(value))
        case .number:
            return TextEdit(range: node.range, replacement: isJSONNumber(value) ? value : JSONDocument.quote(value))
        default:
            return nil
        }
    }

    /// One more on every value of the document's version key (`configVersion`): a whole number written as a
    /// number stays one (`47` → `48`), one written as digits in a string stays a string (`"47"` → `"48"`).
    /// Values that are not whole numbers are left alone and returned in `skipped`.
    static func bumpVersions(_ sites: [GateDocumentLayout.Site]) -> (edits: [TextEdit], changes: [Change], skipped: [GateDocumentLayout.Site]) {
        var edits: [TextEdit] = []
        var changes: [Change] = []
        var skipped: [GateDocumentLayout.Site] = []
        for site in sites {
            guard let node = site.node, let text = node.scalarText, text.isASCIIDigits,
                  let number = Int(text), number < Int.max else {
                skipped.append(site)
                continue
            }
            let next = String(number + 1)
            edits.append(TextEdit(range: node.range, replacement: node.stringValue == nil ? next : JSONDocument.quote(next)))
            changes.append(Change(site: site, old: text, new: next))
        }
        return (edits, changes, skipped)
    }

    /// RFC 8259's number grammar: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    static func isJSONNumber(_ text: String) -> Bool {
        var bytes = Array(text.utf8)[...]
        func digits() -> Int {
            let count = bytes.prefix(while: \.isASCIIDigit).count
            bytes = bytes.dropFirst(count)
            return count
        }
        if bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
        if bytes.first == UInt8(ascii: "0") {
            bytes = bytes.dropFirst()
        } else if digits() == 0 {
            return false
        }
        if bytes.first == UInt8(ascii: ".") {
            bytes = bytes.dropFirst()
            if digits() == 0 { return false }
        }
        if bytes.first == UInt8(ascii: "e") || bytes.first == UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            if bytes.first == UInt8(ascii: "+") || bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
            if digits() == 0 { return false }
        }
        return bytes.isEmpty
    }
}
