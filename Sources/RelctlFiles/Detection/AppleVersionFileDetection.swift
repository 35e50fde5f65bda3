#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
import RelctlCore

/// `relctl init` for Apple projects: finds the Xcode projects of the app (`*.xcodeproj` at the root, under `ios/`,
/// KMP's `iosApp/`, Capacitor's `ios/App/`: up to two folders deep), resolves where each app, extension and watch
/// target's version lives (`XcodeTargetVersions`), and proposes the files that hold it: the pbxproj, the
/// `.xcconfig` files its targets are based on (through `#include`), and the Info.plists holding literal versions.
///
/// Targets of another product are left out: an application target, or a target built for another platform,
/// whose marketing version differs from the app's (a separately released Mac app). Extensions and watch apps of
/// the app are kept even when they hold an older version: that is drift `current` shows and `sync` repairs.
/// Without any Xcode project, Info.plists under `ios/*/` and `.xcconfig` files anywhere sensible are proposed.
package struct AppleVersionFileDetection {
    package struct Result: Sendable {
        package var entries: [FileEntry] = []
        /// The marketing version of the app's main target, when it is a literal.
        package var appVersion: String?
        /// Why something was left out, one line each.
        package var notes: [String] = []
    }

    /// Folders never searched: dependencies, build output, version control.
    package static let skippedFolders: Set<String> = [
        "Pods", "build", "DerivedData", "node_modules", ".git", "Carthage", "vendor", ".build", "SourcePackages",
        ".swiftpm", ".gradle", ".dart_tool", ".symlinks", "xcuserdata",
    ]

    let files: ProjectFiles

    package init(files: ProjectFiles) {
        self.files = files
    }

    /// `reference`: the app's version as another file states it (expo, pubspec), if any.
    package func detect(reference: String?) -> Result {
        var result = Result()
        let projects = findProjects()
        var resolved: [(path: String, targets: [XcodeTargetVersion])] = []
        for path in projects {
            guard let text = files.readableText(path), let project = try? XcodeProject(text, path: path),
                  let selected = try? PbxprojEditor().selectedTargets(project, path: path) else { continue }
            let versions = XcodeTargetVersions.resolve(project, targets: selected) { files.readableText($0) }
            resolved.append((path, versions))
        }
        // The app: the first application target (an iOS one first) of the first project that has one.
        let defaults = resolved.flatMap { p in p.targets.filter(\.isDefaultConfiguration).map { (p.path, $0) } }
        let primary = defaults.first { $0.1.isApplication && ($0.1.platform ?? "iphoneos") == "iphoneos" }
            ?? defaults.first { $0.1.isApplication }
        if let primary, primary.1.marketing.kind != .flutter { result.appVersion = literal(primary.1.marketing) }
        let appVersion = reference ?? result.appVersion
        let appPlatform = primary?.1.platform ?? "iphoneos"

        for (path, versions) in resolved {
            var kept: [String] = []
            var leftOut: [String] = []
            for name in orderedNames(versions) {
                let target = versions.filter { $0.target == name }
                let main = target.first(where: \.isDefaultConfiguration) ?? target[0]
                // A watch app is the app's companion; another application, or a target built for another
                // platform, is a product of its own when it holds another version.
                let platform = main.platform ?? appPlatform
                let ownProduct = platform != "watchos" && (main.isApplication || platform != appPlatform)
                if ownProduct && !(primary?.0 == path && primary?.1.target == name),
                   let appVersion, let version = literal(main.marketing), !sameCore(version, appVersion) {
                    leftOut.append(name)
                    result.notes.append("left out target \(name) of \(path): it holds version \(version) at \(main.marketing.site), the app \(appVersion) (another product; add it with \"targets\" if it is not)")
                } else {
                    kept.append(name)
                }
            }
            let keptVersions = versions.filter { kept.contains($0.target) }
            var holders: [FileEntry] = []
            for version in keptVersions {
                for (field, source) in [(VersionField.marketing, version.marketing), (.iosBuild, version.build)] {
                    guard let file = source.path, source.kind == .plist || source.kind == .xcconfig else { continue }
                    if source.kind == .xcconfig && !file.hasSuffix(".xcconfig") {
                        // A `.properties` file an .xcconfig includes (`#include "../version.properties"`, which
                        // Gradle reads too): a properties entry with the key the setting names.
                        let index = holders.firstIndex { $0.path == file } ?? {
                            holders.append(FileEntry(path: file, format: .properties))
                            return holders.count - 1
                        }()
                        if field == .marketing { holders[index].options.versionNameKey = holders[index].options.versionNameKey ?? source.setting }
                        else { holders[index].options.versionCodeKey = holders[index].options.versionCodeKey ?? source.setting }
                        continue
                    }
                    let entry = FileEntry(path: file, format: source.kind == .plist ? .plist : .xcconfig)
                    if !holders.contains(entry) && !result.entries.contains(entry) { holders.append(entry) }
                }
            }
            let inProject = keptVersions.contains { $0.marketing.kind == .pbxproj || $0.build.kind == .pbxproj }
            guard inProject || !holders.isEmpty else { continue }
            var options = FileOptions()
            if !leftOut.isEmpty {
                options.targets = kept
                if kept.isEmpty { continue }
            }
            result.entries.append(FileEntry(path: path, format: .pbxproj, options: options))
            result.entries.append(contentsOf: holders)
        }
        if resolved.isEmpty { result.entries = orphans(appVersion: appVersion, notes: &result.notes) }
        return result
    }

    /// Target names in the order of the project, each once.
    private func orderedNames(_ versions: [XcodeTargetVersion]) -> [String] {
        var names: [String] = []
        for v in versions where !names.contains(v.target) { names.append(v.target) }
        return names
    }

    private func literal(_ source: XcodeVersionSource) -> String? {
        [.pbxproj, .xcconfig, .plist].contains(source.kind) ? source.value : nil
    }

    private func sameCore(_ a: String, _ b: String) -> Bool {
        func parts(_ v: String) -> [Int] {
            var p = VersionParts(v).core.split(separator: ".").map { Int($0) ?? -1 }
            while p.count < 3 { p.append(0) }
            return p
        }
        return parts(a) == parts(b)
    }

    /// `*.xcodeproj` folders holding a project.pbxproj, breadth first (the root first), at most two folders deep.
    func findProjects() -> [String] {
        var found: [String] = []
        var queue: [(String, Int)] = [("", 0)]
        while !queue.isEmpty {
            let (dir, depth) = queue.removeFirst()
            for child in children(dir) where !Self.skippedFolders.contains(child) && !child.hasPrefix(".") {
                let p = dir.isEmpty ? child : dir + "/" + child
                guard isDirectory(p) else { continue }
                if child.hasSuffix(".xcodeproj") {
                    if files.exists(p + "/project.pbxproj") {
                        found.append(p + "/project.pbxproj")
                    }
                } else if depth < 2 && !child.hasSuffix(".xcworkspace") && !child.hasSuffix(".xcassets") {
                    queue.append((p, depth + 1))
                }
            }
        }
        return found
    }

    /// Without an Xcode project: `ios/*/Info.plist` with literal values (not test bundles) and `.xcconfig` files
    /// (up to four folders deep) setting MARKETING_VERSION or CURRENT_PROJECT_VERSION, those of another version left out.
    private func orphans(appVersion: String?, notes: inout [String]) -> [FileEntry] {
        var entries: [FileEntry] = []
        for child in children("ios") where !Self.skippedFolders.contains(child) && !child.hasSuffix("Tests") {
            let p = "ios/\(child)/Info.plist"
            guard let text = files.readableText(p), !Self.isBundlePlist(text),
                  let locations = try? PlistEditor().read(text, path: p), locations.contains(where: { $0.indirection == nil }) else { continue }
            if let appVersion, let marketing = locations.first(where: { $0.field == .marketing && $0.indirection == nil }),
               !sameCore(marketing.value, appVersion) {
                notes.append("left out \(p): it holds version \(marketing.value), the app \(appVersion) (another product)")
                continue
            }
            entries.append(FileEntry(path: p, format: .plist))
        }
        func walk(_ dir: String, depth: Int) {
            guard depth <= 4 else { return }
            for child in children(dir) where !Self.skippedFolders.contains(child) {
                let p = dir.isEmpty ? child : dir + "/" + child
                if isDirectory(p) {
                    if !child.hasSuffix(".xcodeproj") && !child.hasSuffix(".xcassets") && !child.hasPrefix(".") { walk(p, depth: depth + 1) }
                } else if child.hasSuffix(".xcconfig"), let text = files.readableText(p),
                          let locations = try? XcconfigEditor().read(text, path: p),
                          locations.contains(where: { $0.indirection == nil }) {
                    if let appVersion, let marketing = locations.first(where: { $0.field == .marketing && $0.indirection == nil }),
                       !sameCore(marketing.value, appVersion) {
                        notes.append("left out \(p): it holds version \(marketing.value), the app \(appVersion) (another product)")
                        continue
                    }
                    entries.append(FileEntry(path: p, format: .xcconfig))
                }
            }
        }
        walk("", depth: 0)
        return entries
    }

    private func children(_ dir: String) -> [String] { files.children(dir) }

    private func isDirectory(_ path: String) -> Bool { files.isFolder(path) }

    /// An Info.plist of a loadable bundle (`<key>CFBundlePackageType</key><string>BNDL</string>`), such as a test bundle.
    static func isBundlePlist(_ text: String) -> Bool {
        guard let key = text.range(of: "<key>CFBundlePackageType</key>") else { return false }
        let rest = text[key.upperBound...].drop { $0.isWhitespace }
        return rest.hasPrefix("<string>BNDL</string>")
    }
}
