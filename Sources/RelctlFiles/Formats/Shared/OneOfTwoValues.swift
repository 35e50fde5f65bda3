/// An Info.plist or `.xcconfig` may hold one of the two values (the other lives elsewhere): it writes what it holds.
func keepOneOfTwo(_ target: inout VersionTarget, _ file: FileVersions) {
    let fields = Set(file.locations.map(\.field))
    if !fields.contains(.marketing) && !fields.isEmpty { target.marketing = nil }
}
