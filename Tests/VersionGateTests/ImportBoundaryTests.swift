import Foundation
import Testing

/// The promise that an iOS app and a Linux server can import VersionGate: its sources import nothing but the
/// standard library (Foundation at most) and the JSON leaf `RelctlJSON`, whose sources import nothing at all; the
/// VersionGate target depends on that leaf only, and the leaf on nothing.
@Suite("VersionGate imports nothing but Swift, Foundation and the dependency-free JSON leaf")
struct ImportBoundaryTests {
    static let allowedModules: Set<String> = ["Swift", "Foundation", "FoundationEssentials", "RelctlJSON"]
    /// The leaf imports only the standard library: not even Foundation.
    static let leafModules: Set<String> = ["Swift"]
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

    /// Every import in the Swift files of `Sources/<target>` that `allowed` does not list.
    static func offendingImports(of target: String, allowed: Set<String>) throws -> [String] {
        let folder = packageRoot.appendingPathComponent("Sources/\(target)")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }.sorted()
        #expect(!files.isEmpty, "no Swift files in Sources/\(target)")
        var offending: [String] = []
        for file in files {
            let source = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            for found in importedModules(in: source) where !allowed.contains(found.module) {
                offending.append("Sources/\(target)/\(file):\(found.line): import \(found.module)")
            }
        }
        return offending
    }

    /// The `dependencies:` of the one `.target(name: "<target>"…)` declaration of the manifest (one line each).
    static func declaredDependencies(of target: String) throws -> [String] {
        let manifest = try String(contentsOf: packageRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
        let declarations = manifest.split(separator: "\n").filter { $0.contains(".target(name: \"\(target)\"") }
        #expect(declarations.count == 1, "\(declarations)")
        guard let line = declarations.first, let open = line.range(of: "dependencies: [") else { return [] }
        let list = line[open.upperBound...].prefix { $0 != "]" }
        return list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\"")) }
    }

    @Test("every import of Sources/VersionGate is Swift, Foundation or RelctlJSON")
    func sourcesImportOnlySwiftFoundationAndTheLeaf() throws {
        let offending = try Self.offendingImports(of: "VersionGate", allowed: Self.allowedModules)
        #expect(offending == [], "VersionGate must stay importable by an iOS app: \(offending)")
    }

    @Test("every import of Sources/RelctlJSON is the standard library")
    func leafImportsNothing() throws {
        let offending = try Self.offendingImports(of: "RelctlJSON", allowed: Self.leafModules)
        #expect(offending == [], "RelctlJSON must stay a leaf VersionGate can depend on: \(offending)")
    }

    @Test("the VersionGate target depends on the JSON leaf only, and the leaf on nothing")
    func targetDependsOnTheLeafOnly() throws {
        #expect(try Self.declaredDependencies(of: "VersionGate") == ["RelctlJSON"])
        #expect(try Self.declaredDependencies(of: "RelctlJSON") == [])
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
