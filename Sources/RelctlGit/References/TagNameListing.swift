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
        var loose: [String] = []
        guard collectLoose(folder: commonDir + "/refs/tags", relative: "", prefix: prefix, into: &loose) else { return nil }
        loose = sortedByBytes(loose)
        guard let packed = packedTagNames(commonDir: commonDir, prefix: prefix) else { return nil }
        if packed.isEmpty { return loose }
        let looseSet = Set(loose)
        return loose + packed.filter { !looseSet.contains($0) }
    }

    /// The names in byte order (libgit2's `strcmp`), compared as contiguous bytes.
    private static func sortedByBytes(_ names: [String]) -> [String] {
        let bytes = names.map { Array($0.utf8) }
        let order = bytes.indices.sorted { i, j in
            bytes[i].withUnsafeBufferPointer { a in
                bytes[j].withUnsafeBufferPointer { b in
                    let common = min(a.count, b.count)
                    let c = common == 0 ? 0 : memcmp(a.baseAddress!, b.baseAddress!, common)
                    return c != 0 ? c < 0 : a.count < b.count
                }
            }
        }
        return order.map { names[$0] }
    }

    /// Adds the loose tag names under `folder` to `names`; false on an error other than a missing folder.
    private static func collectLoose(folder: String, relative: String, prefix: String, into names: inout [String]) -> Bool {
        guard let dir = opendir(folder) else { return errno == ENOENT || errno == ENOTDIR }
        defer { closedir(dir) }
        while true {
            errno = 0
            guard let entry = readdir(dir) else { return errno == 0 }
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(cString: raw.baseAddress!.assumingMemoryBound(to: CChar.self))
            }
            if name == "." || name == ".." { continue }
            let path = folder + "/" + name
            let tag = relative + name
            var isFolder = entry.pointee.d_type == UInt8(DT_DIR)
            if entry.pointee.d_type == UInt8(DT_UNKNOWN) {
                var info = stat()
                guard lstat(path, &info) == 0 else { continue }
                isFolder = info.st_mode & S_IFMT == S_IFDIR
            }
            if isFolder {
                // Only folders that can hold a matching name: `v` and `v1/` for the prefix `v1/x`, any below it.
                let folderName = tag + "/"
                guard folderName.hasPrefix(prefix) || prefix.hasPrefix(folderName) else { continue }
                guard collectLoose(folder: path, relative: folderName, prefix: prefix, into: &names) else { return false }
            } else if tag.hasPrefix(prefix), !tag.hasSuffix(".lock") {
                names.append(tag)
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
