import Foundation

/// The committed inputs of a target: `Fuzz/corpus/<target>/` (seeds the drivers start from) and
/// `Fuzz/regressions/<target>/` (inputs that once broke a harness; the test suite runs each).
package enum FuzzCorpus {
    /// The files of `folder`, sorted by name; empty when it does not exist.
    package static func inputs(in folder: String) -> [(name: String, bytes: [UInt8])] {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { !$0.hasPrefix(".") }.sorted()
        return names.compactMap { name in
            FileManager.default.contents(atPath: folder + "/" + name).map { (name, Array($0)) }
        }
    }

    package static func seeds(_ target: FuzzTarget, root: String) -> [[UInt8]] {
        inputs(in: root + "/Fuzz/corpus/" + target.rawValue).map(\.bytes)
    }

    package static func regressions(_ target: FuzzTarget, root: String) -> [(name: String, bytes: [UInt8])] {
        inputs(in: root + "/Fuzz/regressions/" + target.rawValue)
    }
}
