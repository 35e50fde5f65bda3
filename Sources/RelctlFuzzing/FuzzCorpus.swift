import Foundation
import RelctlCore

/// The committed inputs of a target: `Fuzz/corpus/<target>/` (seeds the drivers start from) and
/// `Fuzz/regressions/<target>/` (inputs that once broke a harness; the test suite runs each).
package enum FuzzCorpus {
    /// A corpus folder that is missing or holds a file that cannot be read: a wrong root, or a target without its
    /// folder, is an error (a ``Problem`` at the folder or file: `path: reason`), never an empty corpus that tests nothing.
    static func missingInputs(path: String, reason: String) -> Problem { Problem(reason, at: DiagnosticLocation(path: path)) }

    /// The files of `folder`, sorted by name (dot files left out).
    package static func inputs(in folder: String) throws(Problem) -> [(name: String, bytes: [UInt8])] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { !$0.hasPrefix(".") }.sorted()
        } catch {
            throw missingInputs(path: folder, reason: "no such folder (is the root the repository's?)")
        }
        return try names.map { name throws(Problem) in
            guard let data = FileManager.default.contents(atPath: folder + "/" + name) else {
                throw missingInputs(path: folder + "/" + name, reason: "cannot be read")
            }
            return (name, Array(data))
        }
    }

    package static func seedFolder(_ target: FuzzTarget, root: String) -> String { root + "/Fuzz/corpus/" + target.rawValue }
    package static func regressionFolder(_ target: FuzzTarget, root: String) -> String {
        root + "/Fuzz/regressions/" + target.rawValue
    }

    package static func seeds(_ target: FuzzTarget, root: String) throws(Problem) -> [[UInt8]] {
        try inputs(in: seedFolder(target, root: root)).map(\.bytes)
    }

    package static func regressions(_ target: FuzzTarget, root: String) throws(Problem) -> [(name: String, bytes: [UInt8])] {
        try inputs(in: regressionFolder(target, root: root))
    }
}
