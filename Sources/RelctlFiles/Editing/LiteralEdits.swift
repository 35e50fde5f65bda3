// The checks and the one edit loop the formats share: an editor parses, then asks these for the edits.

/// The edits writing `target` over `locations`: the one loop every format with literal values goes through.
///
/// A location whose field `target` leaves alone is skipped; so is an indirection (`$(MARKETING_VERSION)`, a
/// Gradle property: another entry writes the real value), a value the file already holds, and a second location
/// on the same bytes (two build configurations inheriting one project setting). `encode` turns the new value
/// into the bytes the format writes (quotes, escapes; it refuses a value the token cannot hold).
func literalEdits(_ locations: [VersionLocation], target: VersionTarget,
                  encode: (VersionLocation, String) throws(FileEditError) -> String = { _, value in value })
    throws(FileEditError) -> [TextEdit] {
    var edits: [TextEdit] = []
    var edited = Set<Range<Int>>()
    for location in locations where location.indirection == nil {
        guard let newValue = target.value(for: location.field), newValue != location.value,
              edited.insert(location.range).inserted else { continue }
        edits.append(TextEdit(range: location.range, replacement: try encode(location, newValue)))
    }
    return edits
}

/// Refuses to edit a requested field whose value is computed.
func refuseComputed(_ locations: [VersionLocation], target: VersionTarget, path: String) throws(FileEditError) {
    for location in locations where target.value(for: location.field) != nil {
        if case .computed(let expression, let hint)? = location.indirection {
            throw FileEditError(path: path, line: location.line,
                                message: "\(location.context ?? location.field.rawValue) is a computed value (\(expression)), relctl edits only literals",
                                hint: hint)
        }
    }
}

/// Every requested field must have at least one location (indirections count).
func requireFields(_ locations: [VersionLocation], target: VersionTarget, fields: [VersionField],
                   path: String, describe: (VersionField) -> String) throws(FileEditError) {
    for field in fields where target.value(for: field) != nil {
        if !locations.contains(where: { $0.field == field }) {
            throw FileEditError(path: path, line: nil, message: "no \(describe(field)) found",
                                hint: "add it to the file, or leave this field out of the target")
        }
    }
}

/// Refuses two definitions of one field where a single one is expected.
func refuseDuplicates(_ locations: [VersionLocation], path: String, name: (VersionField) -> String) throws(FileEditError) {
    for field in VersionField.allCases {
        let same = locations.filter { $0.field == field }
        if same.count > 1 {
            throw FileEditError(path: path, line: same[1].line,
                                message: "\(name(field)) is set more than once (lines \(same.map { String($0.line) }.joined(separator: ", ")))",
                                hint: "keep a single definition; relctl will not guess which one wins")
        }
    }
}
