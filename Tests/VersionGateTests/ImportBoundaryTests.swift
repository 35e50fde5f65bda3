import Foundation
import Testing

/// The promise that an iOS app and a Linux server can import VersionGate: its sources import nothing but the
/// standard library (Foundation at most), and its target depends on no other module.
@Suite("VersionGate imports nothing but Swift and Foundation")
struct ImportBoundaryTests {
    static let allowedModules: Set<String> = ["Swift", "Foundation", "FoundationEssentials"]
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The module of every `import` statement in `source`, with its 1-based line.
    static func importedModules(in source: String) -> [(line: Int, module: String)] {
        let modifiers: Set<String> = [
            "public", "package", "internal", "fileprivate", "private", "@_exported", "@_implementationOnly",
            "@preconcurrency", "@testable", "@_spi", "@_weakLinked",
        ]
        let kinds: Set<String> = ["struct", "class", "enum", "protocol", "typealias", "func", "var", "let", "actor"]
        var found: [(line: Int, module: String)] = []
        for (index, line) in source.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            for statement in line.split(separator: ";") {
                var words = statement.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
                while let first = words.first, modifiers.contains(first) || first.hasPrefix("@_spi(") {
                    words.removeFirst()
                }
                guard words.first == "import", words.count >= 2 else { continue }
                var target = words[1]
                if kinds.contains(target), words.count >= 3 { target = words[2] }
                found.append((index + 1, String(target.split(separator: ".").first ?? "")))
            }
        }
        return found
    }

    @Test("every import of Sources/VersionGate is Swift or Foundation")
    func sourcesImportOnlySwiftAndFoundation() throws {
        let folder = Self.packageRoot.appendingPathComponent("Sources/VersionGate")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }.sorted()
        #expect(files.count > 10)
        var offending: [String] = []
        for file in files {
            let source = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            for found in Self.importedModules(in: source) where !Self.allowedModules.contains(found.module) {
                offending.append("Sources/VersionGate/\(file):\(found.line): import \(found.module)")
            }
        }
        #expect(offending == [], "VersionGate must stay importable by an iOS app: \(offending)")
    }

    @Test("the VersionGate target depends on no other module")
    func targetHasNoDependencies() throws {
        let manifest = try String(contentsOf: Self.packageRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
        let declarations = manifest.split(separator: "\n").filter { $0.contains(".target(name: \"VersionGate\"") }
        #expect(declarations.count == 1)
        #expect(declarations.allSatisfy { !$0.contains("dependencies") }, "\(declarations)")
    }

    @Test("the import scanner finds the imports it must refuse")
    func scannerFindsForbiddenImports() {
        let source = """
            import Swift
            @_implementationOnly import RelctlCore
            #if canImport(UIKit)
            public import UIKit
            #endif
            import struct RelctlGit.Repository; import Foundation
            // import NotCode is a comment
            let importantValue = 1
            """
        let modules = Self.importedModules(in: source).map { "\($0.line):\($0.module)" }
        #expect(modules == ["1:Swift", "2:RelctlCore", "4:UIKit", "6:RelctlGit", "6:Foundation"])
    }
}
