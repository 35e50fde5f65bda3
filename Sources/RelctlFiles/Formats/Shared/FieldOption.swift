/// `"field"` of a json or regex entry: the one value the file holds, when it is not the marketing version
/// (`"field": "androidBuild"` for a versionCode in a JSON file). `.build` takes the Android build number, or the
/// iOS one when only that is set.
func select(_ field: VersionField?, in target: inout VersionTarget, builds: SyncBuilds) {
    guard let field, field != .marketing else { return }
    target.marketing = nil
    switch field {
    case .iosBuild: target.iosBuild = builds.ios
    case .androidBuild: target.androidBuild = builds.android
    case .build: target.androidBuild = builds.android ?? builds.ios
    case .marketing: break
    }
}
