internal import CLibGit2
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// git's commit-graph (`objects/info/commit-graph`, or the split chain in `objects/info/commit-graphs/`): each
/// commit's parents and committer time without inflating the commit. libgit2 1.5 does not read it for a walker that
/// reads objects itself, so relctl reads git's documented format (`gitformat-commit-graph`): the OIDF fan-out, the
/// sorted OIDL ids, CDAT (parents as graph positions, a 34-bit commit time) and EDGE (an octopus merge's further
/// parents), one file per layer, positions counted across the chain from its base.
///
/// Used only where git uses it: `core.commitGraph` not false, not in a shallow clone, without `info/grafts` or
/// `refs/replace/` (they change parents the graph does not know about). A file that is short, of another version or
/// hash, or with chunks out of place is no graph; an entry pointing outside the graph, found as the walk reads it,
/// ends the graph's use for the rest of the walk (the commits from then on are read from their objects); never a
/// wrong answer. A commit missing from the graph (written after it) is read from the object database as before.
final class CommitGraph {
    /// One mapped graph file.
    private final class Layer {
        let base: UnsafeRawPointer
        let size: Int
        let count: Int
        /// Commits in the layers below this one: this layer's first global position.
        let offset: Int
        let fanout: Int, ids: Int, data: Int
        let edges: Int, edgeCount: Int

        init?(path: String, offset: Int, baseLayers: Int, baseHashes: [[UInt8]]) {
            let fd = open(path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { return nil }
            defer { close(fd) }
            var info = stat()
            guard fstat(fd, &info) == 0, info.st_size >= 8 + 12 + 20 else { return nil }
            let size = Int(info.st_size)
            guard let mapped = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), mapped != MAP_FAILED else { return nil }
            let base = UnsafeRawPointer(mapped)
            var ok = false
            defer { if !ok { munmap(mapped, size) } }

            func byte(_ at: Int) -> UInt8 { base.load(fromByteOffset: at, as: UInt8.self) }
            // CGPH, version 1, hash version 1 (SHA-1), chunk count, base graph count.
            guard byte(0) == 0x43, byte(1) == 0x47, byte(2) == 0x50, byte(3) == 0x48, byte(4) == 1, byte(5) == 1
            else { return nil }
            let chunkCount = Int(byte(6))
            guard Int(byte(7)) == baseLayers else { return nil }
            let tableEnd = 8 + 12 * (chunkCount + 1)
            let end = size - 20   // the trailing checksum
            guard tableEnd <= end else { return nil }
            var chunks: [UInt32: Range<Int>] = [:]
            for k in 0..<chunkCount {
                let id = bigEndian32(base, 8 + 12 * k)
                let start = bigEndian64(base, 8 + 12 * k + 4)
                let next = bigEndian64(base, 8 + 12 * (k + 1) + 4)
                guard start >= UInt64(tableEnd), start <= next, next <= UInt64(end), chunks[id] == nil else {
                    return nil
                }
                chunks[id] = Int(start)..<Int(next)
            }
            guard let fanout = chunks[0x4F49_4446], fanout.count == 256 * 4,   // OIDF
                  let ids = chunks[0x4F49_444C],                               // OIDL
                  let data = chunks[0x4344_4154]                               // CDAT
            else { return nil }
            var previous: UInt32 = 0
            for k in 0..<256 {
                let value = bigEndian32(base, fanout.lowerBound + 4 * k)
                guard value >= previous else { return nil }
                previous = value
            }
            let count = Int(previous)
            guard ids.count == count * 20, data.count == count * 36 else { return nil }
            let edges = chunks[0x4544_4745] ?? 0..<0                           // EDGE
            guard edges.count % 4 == 0 else { return nil }
            if baseLayers > 0 {
                // BASE: the hashes of the layers below, which must be the chain's.
                guard let hashes = chunks[0x4241_5345], hashes.count == 20 * baseLayers else { return nil }
                for (k, expected) in baseHashes.enumerated() {
                    for i in 0..<20 where byte(hashes.lowerBound + 20 * k + i) != expected[i] { return nil }
                }
            }
            // The ids are not checked for order here (that would read the whole OIDL, 2 MB at 100,000 commits, for
            // a 10-commit range): a lookup confirms the id it finds byte for byte, so ids out of order can only make
            // it miss, and a missed commit is read from its object.
            (self.base, self.size, self.count, self.offset) = (base, size, count, offset)
            (self.fanout, self.ids, self.data) = (fanout.lowerBound, ids.lowerBound, data.lowerBound)
            (self.edges, self.edgeCount) = (edges.lowerBound, edges.count / 4)
            ok = true
        }

        deinit { munmap(UnsafeMutableRawPointer(mutating: base), size) }

        func fanoutValue(_ k: Int) -> Int { k < 0 ? 0 : Int(bigEndian32(base, fanout + 4 * k)) }

        /// The local position of `id`, by binary search in its fan-out bucket.
        func local(of id: git_oid) -> Int? {
            var oid = id
            return withUnsafeBytes(of: &oid.id) { key -> Int? in
                let first = Int(key[0])
                var low = fanoutValue(first - 1), high = fanoutValue(first)
                while low < high {
                    let mid = (low + high) / 2
                    let order = memcmp(base + ids + 20 * mid, key.baseAddress!, 20)
                    if order == 0 { return mid }
                    if order < 0 { low = mid + 1 } else { high = mid }
                }
                return nil
            }
        }
    }

    private let layers: [Layer]
    /// Commits in all layers.
    let count: Int

    private init(layers: [Layer]) {
        self.layers = layers
        count = layers.last.map { $0.offset + $0.count } ?? 0
    }

    /// The repository's commit-graph, when git would use one and it reads back whole; else nil.
    static func load(_ repository: Repository) -> CommitGraph? {
        let common = repository.commonDir
        let objects = common + "/objects/info"
        // Most repositories have no graph: two `access` calls, and no config or references read for it.
        let single = access(objects + "/commit-graph", F_OK) == 0
        guard single || access(objects + "/commit-graphs/commit-graph-chain", F_OK) == 0 else { return nil }
        guard !repository.isShallow, repository.commitGraphEnabled else { return nil }
        if access(common + "/info/grafts", F_OK) == 0 || hasReplaceReferences(commonDir: common) { return nil }
        if single {
            guard let layer = Layer(path: objects + "/commit-graph", offset: 0, baseLayers: 0, baseHashes: []) else {
                return nil
            }
            return CommitGraph(layers: [layer])
        }
        guard let chain = readSmallFile(objects + "/commit-graphs/commit-graph-chain") else { return nil }
        var hashes: [[UInt8]] = []
        var layers: [Layer] = []
        var offset = 0
        for line in chain.split(separator: 0x0A, omittingEmptySubsequences: true) {
            guard line.count == 40, let hash = hexBytes(line) else { return nil }
            let name = String(decoding: line, as: UTF8.self)
            guard let layer = Layer(path: objects + "/commit-graphs/graph-\(name).graph", offset: offset,
                                    baseLayers: layers.count, baseHashes: hashes) else { return nil }
            offset += layer.count
            layers.append(layer)
            hashes.append(hash)
        }
        guard !layers.isEmpty else { return nil }
        return CommitGraph(layers: layers)
    }

    private static let none: UInt32 = 0x7000_0000

    /// The global position of a commit, or nil when the graph does not hold it.
    func position(of id: ObjectID) -> Int? {
        let oid = id.gitOID
        for layer in layers.reversed() {
            if let local = layer.local(of: oid) { return layer.offset + local }
        }
        return nil
    }

    private func layer(holding position: Int) -> Layer {
        var k = layers.count - 1
        while layers[k].offset > position { k -= 1 }
        return layers[k]
    }

    /// The id at a global position.
    func id(at position: Int) -> ObjectID {
        let layer = layer(holding: position)
        var oid = git_oid()
        withUnsafeMutableBytes(of: &oid.id) { out in
            let start = layer.base + layer.ids + 20 * (position - layer.offset)
            out.copyMemory(from: UnsafeRawBufferPointer(start: start, count: 20))
        }
        return ObjectID(oid)
    }

    /// The committer time (34 bits), handing `parents` the parents' positions, first parent first; nil (and no
    /// parent handed on) when the entry points outside the graph: a damaged file, which the caller then stops
    /// using. Each entry is checked as it is read, not the whole file at load: a walk of ten commits reads ten.
    func commit(at position: Int, parents: (Int) -> Void) -> Int64? {
        let layer = layer(holding: position)
        let at = layer.data + 36 * (position - layer.offset)
        let first = bigEndian32(layer.base, at + 20)
        let second = bigEndian32(layer.base, at + 24)
        // Parents are in this layer or below it: positions under the layer's end.
        let end = layer.offset + layer.count
        if first != Self.none, Int(first) >= end { return nil }
        var edgeStart = -1
        if second != Self.none {
            if second & 0x8000_0000 == 0 {
                if Int(second) >= end { return nil }
            } else {
                edgeStart = Int(second & 0x7FFF_FFFF)
                var edge = edgeStart
                while true {
                    guard edge < layer.edgeCount else { return nil }
                    let value = bigEndian32(layer.base, layer.edges + 4 * edge)
                    if Int(value & 0x7FFF_FFFF) >= end { return nil }
                    if value & 0x8000_0000 != 0 { break }
                    edge += 1
                }
            }
        }
        if first != Self.none { parents(Int(first)) }
        if second != Self.none {
            if edgeStart < 0 {
                parents(Int(second))
            } else {
                var edge = edgeStart
                while true {
                    let value = bigEndian32(layer.base, layer.edges + 4 * edge)
                    parents(Int(value & 0x7FFF_FFFF))
                    if value & 0x8000_0000 != 0 { break }
                    edge += 1
                }
            }
        }
        let high = Int64(bigEndian32(layer.base, at + 28) & 0x3)
        return high << 32 | Int64(bigEndian32(layer.base, at + 32))
    }

    /// Whether `refs/replace/` holds a reference, loose or packed.
    private static func hasReplaceReferences(commonDir: String) -> Bool {
        if let dir = opendir(commonDir + "/refs/replace") {
            defer { closedir(dir) }
            while let entry = readdir(dir) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) {
                    String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
                }
                if name != "." && name != ".." { return true }
            }
        }
        guard let packed = readSmallFile(commonDir + "/packed-refs") else { return false }
        let needle = Array(" refs/replace/".utf8)
        return packed.withUnsafeBufferPointer { bytes in
            guard bytes.count >= needle.count else { return false }
            for k in 0...(bytes.count - needle.count) where bytes[k] == 0x20 {
                if needle.indices.allSatisfy({ bytes[k + $0] == needle[$0] }) { return true }
            }
            return false
        }
    }

    private static func readSmallFile(_ path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 { return nil }
            if n == 0 { return bytes }
            bytes += chunk[0..<n]
        }
    }

    private static func hexBytes(_ text: ArraySlice<UInt8>) -> [UInt8]? {
        var out: [UInt8] = []
        var iterator = text.makeIterator()
        while let hi = iterator.next(), let lo = iterator.next() {
            guard let h = nibble(hi), let l = nibble(lo) else { return nil }
            out.append(h << 4 | l)
        }
        return out.count == 20 ? out : nil
    }

    private static func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case 0x30...0x39: c - 0x30
        case 0x61...0x66: c - 0x61 + 10
        default: nil
        }
    }
}

@inline(__always)
private func bigEndian32(_ base: UnsafeRawPointer, _ at: Int) -> UInt32 {
    UInt32(bigEndian: base.loadUnaligned(fromByteOffset: at, as: UInt32.self))
}

@inline(__always)
private func bigEndian64(_ base: UnsafeRawPointer, _ at: Int) -> UInt64 {
    UInt64(bigEndian: base.loadUnaligned(fromByteOffset: at, as: UInt64.self))
}

extension Repository {
    /// `core.commitGraph` (default true), as git reads it.
    var commitGraphEnabled: Bool {
        var config: OpaquePointer?
        guard git_repository_config_snapshot(&config, pointer) == 0 else { return false }
        defer { git_config_free(config) }
        var value: Int32 = 1
        let code = git_config_get_bool(&value, config, "core.commitGraph")
        if code == GIT_ENOTFOUND.rawValue { return true }
        return code == 0 && value != 0
    }
}
