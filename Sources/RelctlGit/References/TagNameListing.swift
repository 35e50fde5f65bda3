internal import CLibGit2
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The names of the tags under `refs/tags/`, read the way git's own listing does: `packed-refs` once, then the
/// `refs/tags` folders with one directory read each.
///
/// libgit2's reference iterator `lstat`s every loose tag file while listing, then opens and reads each to check it
/// before it gives the name: with 2,000 loose tags, that is 6,000 system calls for a list of names, of which a
/// release reads one or two. Here a loose file is read only when its tag is looked up (`tag(named:)`). The order is
/// libgit2's: loose names by byte order (a folder sorts as its name with a `/`), then packed names not also loose.
enum TagNameListing {
    /// The names starting with `prefix`, without `refs/tags/`; nil when the folders cannot be read this way
    /// (the caller then asks libgit2).
    static func names(commonDir: String, prefix: String) -> [String]? {
        // libgit2's glob is `refs/tags/<prefix>*`: a prefix with glob characters is left to it.
        guard !prefix.contains(where: { "*?[\\".contains($0) }) else { return nil }
        var found = LooseNames(prefix: prefix)
        guard found.collect(folder: commonDir + "/refs/tags", relative: []) else { return nil }
        let loose = found.sortedByBytes()
        guard let packed = packedTagNames(commonDir: commonDir, prefix: prefix) else { return nil }
        if packed.isEmpty { return loose }
        let looseSet = Set(loose)
        return loose + packed.filter { !looseSet.contains($0) }
    }

    /// The loose tag names, gathered as bytes in one buffer: a `String` is made only for each name kept, after the
    /// sort (2,000 names cost 10 million instructions when each was built from its path and compared as a `String`).
    private struct LooseNames {
        let prefixBytes: [UInt8]
        var storage: [UInt8] = []
        var ranges: [Range<Int>] = []

        init(prefix: String) {
            prefixBytes = Array(prefix.utf8)
        }

        /// Adds the loose tag names under `folder` (`relative`: its path below `refs/tags`, with a final `/`); false on
        /// an error other than a missing folder. Each name is written straight into `storage` and taken back when it
        /// is not kept.
        mutating func collect(folder: String, relative: [UInt8]) -> Bool {
            guard let dir = opendir(folder) else { return errno == ENOENT || errno == ENOTDIR }
            defer { closedir(dir) }
            while true {
                errno = 0
                guard let entry = readdir(dir) else { return errno == 0 }
                let start = storage.count
                storage.append(contentsOf: relative)
                let nameStart = storage.count
                withUnsafeBytes(of: entry.pointee.d_name) { raw in
                    let bytes = raw.bindMemory(to: UInt8.self)
                    let end = bytes.firstIndex(of: 0) ?? bytes.count
                    storage.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[..<end]))
                }
                // As `String(cString:)` reads it: bytes that are not UTF-8 become U+FFFD (the order and the names
                // are those of the repaired text).
                if !storage[nameStart...].allSatisfy({ $0 < 0x80 }) {
                    let repaired = Array(String(decoding: storage[nameStart...], as: UTF8.self).utf8)
                    storage.replaceSubrange(nameStart..., with: repaired)
                }
                let name = storage[nameStart...]
                if name.elementsEqual([0x2E]) || name.elementsEqual([0x2E, 0x2E]) {   // "." and ".."
                    storage.removeSubrange(start...)
                    continue
                }
                var isFolder = entry.pointee.d_type == UInt8(DT_DIR)
                if entry.pointee.d_type == UInt8(DT_UNKNOWN) {
                    var info = stat()
                    guard lstat(folder + "/" + String(decoding: name, as: UTF8.self), &info) == 0 else {
                        storage.removeSubrange(start...)
                        continue
                    }
                    isFolder = info.st_mode & S_IFMT == S_IFDIR
                }
                if isFolder {
                    let path = folder + "/" + String(decoding: name, as: UTF8.self)
                    let folderName = Array(storage[start...]) + [0x2F]
                    storage.removeSubrange(start...)
                    // Only folders that can hold a matching name: `v` and `v1/` for the prefix `v1/x`, any below it.
                    guard startsWith(folderName[...], prefixBytes[...]) || startsWith(prefixBytes[...], folderName[...])
                    else { continue }
                    guard collect(folder: path, relative: folderName) else { return false }
                } else if startsWith(storage[start...], prefixBytes[...]), !endsWithLock(storage[start...]) {
                    ranges.append(start..<storage.count)
                } else {
                    storage.removeSubrange(start...)
                }
            }
        }

        /// Whether `name` starts with `start`, byte by byte as libgit2's glob matches (a `String.hasPrefix` would
        /// compare `Character`s: `z` is no prefix of `źz`, whose first is `z` and a combining accent).
        private func startsWith(_ name: ArraySlice<UInt8>, _ start: ArraySlice<UInt8>) -> Bool {
            name.starts(with: start)
        }

        /// Whether the name ends with `.lock` (git's lock file of a reference being written), byte by byte as libgit2
        /// checks it.
        private func endsWithLock(_ name: ArraySlice<UInt8>) -> Bool {
            name.count >= 5 && name.suffix(5).elementsEqual([0x2E, 0x6C, 0x6F, 0x63, 0x6B])
        }

        /// The names in byte order (libgit2's `strcmp`). The first eight bytes of each, as one big-endian number
        /// (zero after a short name's end: no name holds a zero byte), decide most comparisons; ties go on byte by
        /// byte.
        func sortedByBytes() -> [String] {
            storage.withUnsafeBufferPointer { buffer in
                let keys = ranges.map { range -> UInt64 in
                    var key: UInt64 = 0
                    for offset in 0..<8 {
                        key <<= 8
                        if offset < range.count { key |= UInt64(buffer[range.lowerBound + offset]) }
                    }
                    return key
                }
                let order = ranges.indices.sorted { i, j in
                    if keys[i] != keys[j] { return keys[i] < keys[j] }
                    let a = ranges[i], b = ranges[j]
                    let common = min(a.count, b.count)
                    let c = common == 0
                        ? 0 : memcmp(buffer.baseAddress! + a.lowerBound, buffer.baseAddress! + b.lowerBound, common)
                    return c != 0 ? c < 0 : a.count < b.count
                }
                return order.map { String(decoding: UnsafeBufferPointer(rebasing: buffer[ranges[$0]]), as: UTF8.self) }
            }
        }
    }

    /// The tag names in `packed-refs`, in file order; empty when there is no such file, nil when it is unreadable.
    private static func packedTagNames(commonDir: String, prefix: String) -> [String]? {
        let fd = open(commonDir + "/packed-refs", O_RDONLY | O_CLOEXEC)
        if fd < 0 { return errno == ENOENT ? [] : nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 { if errno == EINTR { continue }; return nil }
            if n == 0 { break }
            bytes.append(contentsOf: chunk[0..<n])
        }
        let wanted = Array(("refs/tags/" + prefix).utf8)
        let skip = "refs/tags/".utf8.count
        var names: [String] = []
        for line in bytes.split(separator: UInt8(ascii: "\n")) {
            // "<id> <name>"; "^<id>" (what the tag above peels to) and "# pack-refs with: ..." are not names.
            guard let first = line.first, first != UInt8(ascii: "^"), first != UInt8(ascii: "#"),
                  let space = line.firstIndex(of: UInt8(ascii: " ")) else { continue }
            var name = line[(space + 1)...]
            if name.last == UInt8(ascii: "\r") { name = name.dropLast() }
            guard name.starts(with: wanted) else { continue }
            names.append(String(decoding: name.dropFirst(skip), as: UTF8.self))
        }
        return names
    }
}
