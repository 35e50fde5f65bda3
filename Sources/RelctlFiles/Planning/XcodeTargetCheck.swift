import RelctlCore

extension SyncPlan {
    /// Every selected target of a pbxproj gets the version where it really lives: this file (the editor writes
    /// it), an .xcconfig or Info.plist that an entry covers, or pubspec.yaml for `$(FLUTTER_BUILD_NAME)`.
    /// A value in a file no entry covers stops the sync, naming the file to add.
    static func checkTargets(_ file: FileVersions, target: VersionTarget, entries: [FileEntry]) throws(FileEditError) {
        for version in file.targets {
            for field in [VersionField.marketing, .iosBuild] where target.value(for: field) != nil {
                let source = version.source(field)
                let what = field == .marketing ? "marketing version" : "build number"
                switch source.kind {
                case .pbxproj, .unset, .unresolved:
                    continue // the project editor writes it, or refuses with the reason
                case .flutter:
                    if !entries.contains(where: { $0.format.unit.buildSettings == .flutter }) {
                        throw FileEditError(path: file.entry.path, line: version.line,
                                            message: "the \(what) of target \(version.target) is $(\(source.setting)), which flutter build sets from pubspec.yaml; no files entry covers it",
                                            hint: "add {\"path\": \"pubspec.yaml\", \"format\": \"pubspec\"}")
                    }
                case .xcconfig, .plist:
                    guard let path = source.path else { continue }
                    let format: FileFormat = source.kind == .plist ? .plist : .xcconfig
                    if entries.contains(where: { $0.path == path && $0.format == format && ($0.options.only?.admits(field) ?? true) }) { continue }
                    // A `.properties` file an .xcconfig includes: the properties entry with that key writes it.
                    if source.kind == .xcconfig, entries.contains(where: {
                        $0.path == path && $0.format == .properties
                            && ($0.options.propertyKeys.name == source.setting || $0.options.propertyKeys.code == source.setting)
                    }) { continue }
                    let included = source.includedFrom.isEmpty ? "" : " (included from \(source.includedFrom.joined(separator: " ← ")))"
                    throw FileEditError(path: path, line: source.line,
                                        message: "holds \(source.setting) \(source.value ?? "") for target \(version.target) of \(file.entry.path)\(included), but no files entry writes it",
                                        hint: "add {\"path\": \"\(path)\", \"format\": \"\(format.rawValue)\"} to 'files', or leave the target out with \"targets\"")
                }
            }
        }
    }
}
