import RelctlCore

/// Flutter `pubspec.yaml` (`PubspecEditor`): one version for both stores (iOS rules apply) and one build number
/// (`+N`), which `flutter build` passes to Xcode as `$(FLUTTER_BUILD_NAME)` / `$(FLUTTER_BUILD_NUMBER)`.
struct PubspecFormat: VersionFileFormat {
    let name = FileFormat.pubspec
    let optionKeys: Set<String> = ["padBuildNumber"]
    let marketingPlatform: StorePlatform? = .ios
    let buildSettings = BuildSettingRole.flutter

    func label(_ location: VersionLocation) -> String { location.field == .marketing ? "version" : "build number" }

    func editor(_ options: FileOptions, readFile: (@Sendable (String) -> String?)?) -> any VersionEditor {
        PubspecEditor(padBuildNumber: options.padBuildNumber)
    }

    /// One build number for both platforms: `+N` is written (or added) whenever the sync sets one.
    func adjust(_ target: inout VersionTarget, for file: FileVersions, builds: SyncBuilds, entries: [FileEntry]) {
        if builds.ios != nil || builds.android != nil {
            target.iosBuild = builds.ios
            target.androidBuild = builds.android
        }
    }

    /// `pubspec.yaml` at the root, else the Flutter app's in a monorepo (`FlutterAppDetection`), with
    /// `padBuildNumber` when its build number is zero-padded (`+002702` stays padded); its version is the app's.
    func detect(into detection: inout FileDetection) {
        let files = detection.files
        var pubspec: String? = files.exists("pubspec.yaml") ? "pubspec.yaml" : nil
        if pubspec.flatMap({ detection.literalLocations(FileEntry(path: $0, format: .pubspec)) }) == nil {
            let app = FlutterAppDetection.find(in: files)
            pubspec = app.path ?? pubspec
            if let note = app.note { detection.notes.append(note) }
        }
        guard let pubspec else { return }
        let padded = files.readableText(pubspec).flatMap { try? PubspecEditor().read($0, path: pubspec) }?
            .first(where: { $0.field == .build }).map { $0.value.count > 1 && $0.value.hasPrefix("0") } ?? false
        detection.add(FileEntry(path: pubspec, format: .pubspec, options: FileOptions(padBuildNumber: padded)), statesAppVersion: true)
    }
}
