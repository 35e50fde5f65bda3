#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
import RelctlCore
import VersionGate

/// `gate` of `.relctl.json`: the remote-config document the app's version gate reads, and how to read it.
///
/// ```json
/// "gate": {
///   "document": "remoteconfig.template.json",
///   "format": "firebase",
///   "keys": { "minimumSupportedVersion": "ios_minimum_version" },
///   "platforms": { "ios": "ios", "android": "android" },
///   "appStore": { "bundleId": "com.example.app", "country": "us" }
/// }
/// ```
struct GateSettings: Sendable {
    /// The document, relative to the repository root, as written in the config.
    var documentPath: String
    /// The line of `gate.document`, for messages about the path.
    var documentLine: Int
    var format: GateDocumentFormat
    /// Logical field → the document's key, where the config renames one.
    var keyOverrides: [GateField: String] = [:]
    /// The platforms the app ships on, each with the condition (Firebase) or `platforms` member (json) holding
    /// its values, in the order given; iOS and Android under their own names when `platforms` is not given.
    var platforms: [(platform: GatePlatform, condition: String)] = [(.ios, "ios"), (.android, "android")]
    /// Whether `platforms` was given (its conditions must then exist in the document).
    var platformsConfigured = false
    /// Apple's lookup, asked before the minimum is raised.
    var appStore: AppStoreSettings?
    /// The Firebase project whose Remote Config template `gate pull` and `gate publish` read and write.
    var firebaseProjectID: String?

    struct AppStoreSettings: Sendable {
        var bundleID: String
        var country: String?
    }

    /// The reader the app uses for this document: the same keys and platform conditions.
    var reader: GateDocumentReader {
        GateDocumentReader(format: format, keys: GateKeys(format: format, overrides: keyOverrides),
                           platformConditions: Dictionary(platforms.map { ($0.platform, $0.condition) }) { first, _ in first })
    }

    var platformNames: [String] { platforms.map(\.platform.rawValue) }

    /// What makes a change of the document reach the apps, for the note after a decision's commit.
    var deployHint: String {
        switch format {
        case .firebase: return "push the commit (git push) and deploy the template: firebase deploy --only remoteconfig; the apps read it from then on"
        case .json: return "push the commit (git push) and deploy the document your API serves; the apps read it from then on"
        }
    }

    static let keys = ["document", "format", "keys", "platforms", "appStore", "firebase"]
    static let example = #""gate": {"document": "remoteconfig.template.json", "format": "firebase"}"#
}

extension Config {
    static let gateKeys = ["gate"]

    /// Reads `gate` from the config's root object, strictly: unknown keys with a did-you-mean, wrong types and
    /// a document path outside the repository are errors with their line.
    mutating func parseGate(_ object: StrictObject) throws(Problem) {
        guard let gate = try object.object("gate") else { return }
        try gate.rejectUnknownKeys(GateSettings.keys)
        guard let (path, pathNode) = try gate.string("document") else {
            throw gate.error(gate.node, "'gate' needs \"document\": the remote-config document relctl checks and edits, like \(GateSettings.example)")
        }
        let normalized = try Config.repositoryPath(path, key: "gate.document", line: pathNode.line, configPath: gate.path,
                                                   example: "remoteconfig.template.json")
        record(path, key: "gate.document", line: pathNode.line)
        guard let (formatName, formatNode) = try gate.string("format") else {
            throw gate.error(gate.node, "'gate' needs \"format\": \"firebase\" (a Remote Config template) or \"json\" (a plain document your API serves)")
        }
        guard let format = GateDocumentFormat(rawValue: formatName) else {
            let names = GateDocumentFormat.allCases.map(\.rawValue)
            let suggestion = names.min { editDistance($0, formatName) < editDistance($1, formatName) }
            let mean = suggestion.flatMap { editDistance($0, formatName) <= 2 ? "did you mean \"\($0)\"? " : nil } ?? ""
            throw gate.error(formatNode, "'gate.format' \"\(formatName)\" is not a gate document format; \(mean)use \"firebase\" (a Remote Config template) or \"json\" (a plain document your API serves)")
        }
        var settings = GateSettings(documentPath: normalized, documentLine: pathNode.line, format: format)
        if let keys = try gate.object("keys") {
            let fields = GateField.allCases.filter { format == .json || $0 != .platforms }
            try keys.rejectUnknownKeys(fields.map(\.rawValue))
            for member in keys.node.objectMembers ?? [] {
                guard let field = GateField(rawValue: member.key) else { continue }
                guard let name = member.value.stringValue, !name.trimmingCharacters(in: .whitespaces).isEmpty else {
                    throw keys.wrongType(member.key, member.value, expected: "the document's key name, a non-empty string")
                }
                settings.keyOverrides[field] = name
            }
        }
        if let platforms = try gate.object("platforms") {
            let known = [GatePlatform.ios.rawValue, GatePlatform.android.rawValue]
            try platforms.rejectUnknownKeys(known)
            var list: [(GatePlatform, String)] = []
            for member in platforms.node.objectMembers ?? [] {
                guard let condition = member.value.stringValue, !condition.isEmpty else {
                    throw platforms.wrongType(member.key, member.value, expected: format == .firebase
                        ? "the name of the template's condition for \(member.key), a non-empty string"
                        : "the member of \"platforms\" holding \(member.key)'s values, a non-empty string")
                }
                list.append((GatePlatform(member.key), condition))
            }
            guard !list.isEmpty else {
                throw platforms.error(platforms.node, "'gate.platforms' is empty; list the platforms the app ships on, like {\"ios\": \"ios\", \"android\": \"android\"}, or leave it out for both")
            }
            settings.platforms = list
            settings.platformsConfigured = true
        }
        if let store = try gate.object("appStore") {
            try store.rejectUnknownKeys(["bundleId", "country"])
            guard let (bundleID, bundleNode) = try store.string("bundleId") else {
                throw store.error(store.node, "'gate.appStore' needs \"bundleId\", the iOS app's bundle identifier, like \"com.example.app\"")
            }
            guard !bundleID.isEmpty, !bundleID.contains(where: { $0 == " " || $0 == "/" || $0 == "?" || $0 == "&" }) else {
                throw store.error(bundleNode, "'gate.appStore.bundleId' \"\(bundleID)\" is not a bundle identifier; use the app's, like \"com.example.app\"")
            }
            var country: String?
            if let (code, codeNode) = try store.string("country") {
                guard code.count == 2, code.allSatisfy({ $0.isASCII && $0.isLetter }) else {
                    throw store.error(codeNode, "'gate.appStore.country' \"\(code)\" is not a two-letter store country code; use one like \"us\" or \"de\"")
                }
                country = code.lowercased()
            }
            settings.appStore = GateSettings.AppStoreSettings(bundleID: bundleID, country: country)
        }
        if let firebase = try gate.object("firebase") {
            try firebase.rejectUnknownKeys(["projectId"])
            guard let (project, node) = try firebase.string("projectId") else {
                throw firebase.error(firebase.node, "'gate.firebase' needs \"projectId\", the Firebase project's ID, like \"acme-field\"")
            }
            guard !project.isEmpty, project.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == ":" || $0 == ".") }) else {
                throw firebase.error(node, "'gate.firebase.projectId' \"\(project)\" is not a Firebase project ID; use the project's, like \"acme-field\" (Firebase console → Project settings)")
            }
            settings.firebaseProjectID = project
        }
        self.gate = settings
    }
}
