/// Formats whose version values sit under configured keys (`properties`, `version-catalog`): the version name
/// under `versionNameKey`, the version code under `versionCodeKey`. Every requested field whose key is
/// configured must be in the file, reported as `key NAME` plus the format's `where` (` in [versions]`).
func requireKeyedFields(_ locations: [VersionLocation], target: VersionTarget, path: String,
                        versionNameKey: String?, versionCodeKey: String?, where place: String = "") throws(FileEditError) {
    var fields: [VersionField] = []
    if versionNameKey != nil { fields.append(.marketing) }
    if versionCodeKey != nil { fields.append(.androidBuild) }
    try requireFields(locations, target: target, fields: fields, path: path) {
        "key " + (($0 == .marketing ? versionNameKey : versionCodeKey) ?? "") + place
    }
}
