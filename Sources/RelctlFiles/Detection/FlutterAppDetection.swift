#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// `relctl init` for a Flutter app that is not at the repository root: a monorepo whose root `pubspec.yaml` is a
/// Dart workspace (no `version:`) or absent, with the app in `app/` or `apps/mobile/` beside its packages.
///
/// The app is the one `pubspec.yaml` up to two folders down that depends on the Flutter SDK, holds a literal
/// `version:` and sits beside the app's platform projects (`ios/*.xcodeproj` or `android/app/`): a library has
/// none, a plugin only `ios/Classes` and `android/src`, and a plugin's `example/` app is three folders down in a
/// monorepo's `packages/`. Several apps are not guessed between: init names them.
package enum FlutterAppDetection {
    package struct Found: Sendable {
        /// Root-relative path of the app's pubspec.yaml, nil when none (or several) was found.
        package var path: String?
        /// Why nothing was chosen, when several apps were found.
        package var note: String?
    }

    package static func find(in files: ProjectFiles) -> Found {
        func isDirectory(_ p: String) -> Bool { files.isFolder(p) }
        func children(_ p: String) -> [String] {
            files.children(p).filter { !$0.hasPrefix(".") && !AppleVersionFileDetection.skippedFolders.contains($0) }
        }
        var apps: [String] = []
        var queue: [(String, Int)] = [("", 0)]
        while !queue.isEmpty {
            let (dir, depth) = queue.removeFirst()
            for child in children(dir) {
                let folder = dir.isEmpty ? child : dir + "/" + child
                guard isDirectory(folder) else { continue }
                if isFlutterApp(folder, files: files) { apps.append(folder + "/pubspec.yaml"); continue }
                if depth < 1 { queue.append((folder, depth + 1)) }
            }
        }
        if apps.count > 1 {
            return Found(path: nil, note: "found Flutter apps in \(apps.joined(separator: ", ")); none was added: add the app's pubspec.yaml to 'files' by hand ({\"path\": \"\(apps[0])\", \"format\": \"pubspec\"})")
        }
        return Found(path: apps.first, note: nil)
    }

    /// A folder holding a Flutter app's pubspec.yaml with a literal version, beside the app's Xcode project
    /// (`ios/Runner.xcodeproj`) or Android app module (`android/app/`); a plugin's `ios/Classes` and
    /// `android/src` are not an app.
    static func isFlutterApp(_ folder: String, files: ProjectFiles) -> Bool {
        let path = folder + "/pubspec.yaml"
        let iosProjects = files.children(folder + "/ios").filter { $0.hasSuffix(".xcodeproj") }
        guard !iosProjects.isEmpty || files.isFolder(folder + "/android/app"),
              let text = files.readableText(path),
              text.contains("sdk: flutter"),
              let locations = try? PubspecEditor().read(text, path: path) else { return false }
        return locations.contains { $0.field == .marketing && $0.indirection == nil }
    }
}
