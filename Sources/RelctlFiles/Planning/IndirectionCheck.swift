import RelctlCore

extension SyncPlan {
    /// Every value a sync asks of `file` must be written by some entry: a literal by this file's editor, an
    /// indirection (`$(MARKETING_VERSION)`, a Gradle property, a version catalog entry) by the entry that covers it
    /// (`FileEntry.covers`). One not covered stops the sync with the entry to add; so does a literal fallback that a
    /// property `gradle.properties` sets would override.
    static func checkIndirections(_ file: FileVersions, target: VersionTarget, entries: [FileEntry], project: ProjectFiles) throws(FileEditError) {
        let path = file.entry.path
        for location in file.locations where target.value(for: location.field) != nil {
            let keyOption = location.field == .marketing ? "versionNameKey" : "versionCodeKey"
            let label = location.context ?? location.field.rawValue
            if let indirection = location.indirection, entries.contains(where: { $0.covers(indirection, inFileAt: path) }) { continue }
            switch location.indirection {
            case .buildSetting(let name)?:
                throw FileEditError(path: path, line: location.line,
                                    message: "\(label) is $(\(name)); the real value lives in the build setting \(name)",
                                    hint: "add the project.pbxproj (or the .xcconfig that sets \(name)) as a files entry")
            case .gradleProperty(let name)?:
                let properties = GradleProjectLayout.propertiesPath(forBuildFile: path, property: name, files: project)
                throw FileEditError(path: path, line: location.line,
                                    message: "\(label) reads the Gradle property \(name), which no files entry covers",
                                    hint: "add {\"path\": \"\(properties)\", \"format\": \"properties\", \"\(keyOption)\": \"\(name)\"}")
            case .versionCatalog(let alias)?:
                let catalog = GradleProjectLayout.catalogPath(forBuildFile: path, files: project)
                let key = GradleProjectLayout.catalogKey(alias, in: catalog, files: project)
                throw FileEditError(path: path, line: location.line,
                                    message: "\(label) reads libs.versions.\(alias) from the version catalog, which no files entry covers",
                                    hint: "add {\"path\": \"\(catalog)\", \"format\": \"version-catalog\", \"\(keyOption)\": \"\(key?.key ?? alias)\"}")
            case .packageJSON(let packagePath)?:
                throw FileEditError(path: path, line: location.line,
                                    message: "\(label) is the version of \(packagePath) (\(location.value)), which no files entry covers",
                                    hint: "add {\"path\": \"\(packagePath)\", \"format\": \"json\"}")
            case .computed?, nil:
                break // literals are edited; computed values are refused by the editor
            }
            // A literal fallback behind a Gradle property that gradle.properties sets: the property wins, so writing
            // only the fallback would change nothing the build uses.
            if let primary = location.overriddenBy, case .gradleProperty(let name) = primary,
               !entries.contains(where: { $0.covers(primary, inFileAt: path) }) {
                let properties = GradleProjectLayout.propertiesPath(forBuildFile: path, property: name, files: project)
                if let line = GradleProjectLayout.propertyLine(name, in: properties, files: project) {
                    throw FileEditError(path: path, line: location.line,
                                        message: "\(label) is \(location.value) only when the Gradle property \(name) is not set, and \(properties):\(line) sets it",
                                        hint: "add {\"path\": \"\(properties)\", \"format\": \"properties\", \"\(keyOption)\": \"\(name)\"} so both are written")
                }
            }
        }
    }
}
