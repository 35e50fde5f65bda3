import Foundation
import VersionGate
import RelctlCore

/// What `gate status` shows of the stores and Remote Config: each store's live version and rollout (with
/// `--live`), and whether the repository's document agrees with the live template. A service that cannot be read
/// is shown as such, never an error of `status`.
enum StoreStatus {
    static func lines(_ workspace: Workspace, settings: GateSettings, live: Bool, warning: (String) -> Void) -> [String] {
        var lines: [String] = []
        let environment = workspace.environment
        if live {
            if let bundleID = workspace.config.stores?.appStoreBundleID ?? settings.appStore?.bundleID {
                lines.append("App Store:     " + appStore(bundleID, country: settings.appStore?.country, environment: environment, warning: warning))
            }
            if let package = workspace.config.stores?.googlePlayPackageName {
                lines.append("Google Play:   " + googlePlay(workspace, package, environment: environment, warning: warning))
            }
        }
        if settings.format == .firebase, let project = settings.firebaseProjectID {
            lines.append("Remote Config: " + remoteConfig(workspace, settings: settings, project: project, warning: warning))
        }
        return lines
    }

    private static func appStore(_ bundleID: String, country: String?, environment: [String: String], warning: (String) -> Void) -> String {
        do {
            guard let credentials = try AppStoreConnectCredentials.fromEnvironment(environment, warning: warning) else {
                let answer = try AppStoreClient.lookup(bundleID: bundleID, country: country, environment: environment)
                if case .listed(let version, _) = answer.listing { return "\(bundleID) \(version) listed (Apple's public lookup; no App Store Connect credentials)" }
                return "\(bundleID) not listed (Apple's public lookup; no App Store Connect credentials)"
            }
            let api = try AppStoreConnectAPI(credentials: credentials, environment: environment)
            let versions = try api.versions(appID: try api.appID(bundleID: bundleID))
            let live = versions.filter(\.isLive).max { GateVersion($0.versionString) < GateVersion($1.versionString) }
            var text = live.map { "\(bundleID) \($0.versionString) \($0.state)" + ($0.phasedReleaseState.map { " (phased release \($0))" } ?? "") } ?? "\(bundleID): no version is live"
            if let newer = versions.first(where: { candidate in !candidate.isLive && (live.map { GateVersion(candidate.versionString) > GateVersion($0.versionString) } ?? true) }) {
                text += "; next: \(newer.versionString) \(newer.state)"
            }
            return text
        } catch let error as Problem {
            return "cannot read: \(error.rendered())"
        } catch let error as HTTPFailure {
            return "cannot read (\(error.url)): \(error.reason)"
        } catch {
            return "cannot read: \(error)"
        }
    }

    private static func googlePlay(_ workspace: Workspace, _ package: String, environment: [String: String], warning: (String) -> Void) -> String {
        do {
            guard let credentials = try GoogleCredentials.fromEnvironment(environment, scopes: [GoogleCredentials.playScope], warning: warning) else {
                return "not read: no Google credentials (\(GoogleCredentials.keyFileVariable) or \(GoogleCredentials.tokenVariable))"
            }
            let api = try GooglePlayAPI(credentials: credentials, packageName: package, environment: environment)
            let track = try api.withEdit { edit throws(HTTPFailure) in try api.track("production", edit: edit) }
            let tags = Dictionary(((try? workspace.releasedBuildNumbers().androidByTag) ?? [:]).map { ($0.value, $0.key) }) { a, _ in a }
            let releases = track.releases.filter { $0.status != "draft" }.map { release -> String in
                let codes = release.versionCodes.map { code in tags[code].map { "\(code) (\($0))" } ?? code }.joined(separator: ", ")
                let fraction = release.userFraction.map { " at \(String(format: "%g", $0 * 100))% of users" } ?? ""
                return "\(release.status) versionCode \(codes)\(release.status == "inProgress" ? fraction : "")"
            }
            return "\(package) production: " + (releases.isEmpty ? "no release" : releases.joined(separator: "; "))
        } catch let error as Problem {
            return "cannot read: \(error.rendered())"
        } catch let error as HTTPFailure {
            return "cannot read (\(error.url)): \(error.reason)"
        } catch {
            return "cannot read: \(error)"
        }
    }

    private static func remoteConfig(_ workspace: Workspace, settings: GateSettings, project: String, warning: (String) -> Void) -> String {
        do {
            guard try GoogleCredentials.fromEnvironment(workspace.environment, scopes: [GoogleCredentials.remoteConfigScope], warning: warning) != nil else {
                return "not compared with the live template: no Google credentials (\(GoogleCredentials.keyFileVariable) or \(GoogleCredentials.tokenVariable))"
            }
            let sync = try RemoteConfigSync.open(workspace, command: "gate status", warning: warning)
            guard let document = try sync.document() else { return "the document does not exist: relctl gate pull" }
            let live = try sync.api.get()
            let differences = RemoteConfigTemplate.differences(from: document, to: live.template)
            let liveVersion = live.versionNumber.map { "version \($0)" } ?? "the live template"
            if differences.isEmpty { return "\(project): the document agrees with the live template (\(liveVersion))" }
            let pulled = RemoteConfigTemplate.versionNumber(document).map { ", pulled at version \($0)," } ?? ""
            return "\(project): the document\(pulled) differs from the live template (\(liveVersion)): " + differences.joined(separator: "; ")
        } catch let error as Problem {
            return "cannot read: \(error.rendered())"
        } catch let error as HTTPFailure {
            return "cannot read (\(error.url)): \(error.reason)"
        } catch {
            return "cannot read: \(error)"
        }
    }
}
