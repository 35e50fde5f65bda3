// `floor version`: start, initialise libgit2 (without parsing the CA bundle, as relctl), print a line: what
// `relctl --version` cannot go below while it links libgit2.
// `floor log REPO TAG`: print the messages of TAG..HEAD through a libgit2 revwalk (what any libgit2-based
// `relctl next` cannot go below: no config, no version files, no classification).
import CGit2
import SkipCA
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

let arguments = CommandLine.arguments
git_libgit2_init()
if arguments.count == 4 && arguments[1] == "log" {
    var repository: OpaquePointer?
    var walk: OpaquePointer?
    guard git_repository_open(&repository, arguments[2]) == 0,
          git_revwalk_new(&walk, repository) == 0,
          git_revwalk_push_head(walk) == 0,
          git_revwalk_hide_ref(walk, "refs/tags/" + arguments[3]) == 0 else {
        fatalError("floor: cannot walk \(arguments[2])")
    }
    var oid = git_oid()
    var out = [UInt8]()
    while git_revwalk_next(&oid, walk) == 0 {
        var commit: OpaquePointer?
        guard git_commit_lookup(&commit, repository, &oid) == 0 else { fatalError("floor: cannot read a commit") }
        if let message = git_commit_message(commit) {
            var p = message
            while p.pointee != 0 { out.append(UInt8(bitPattern: p.pointee)); p += 1 }
            out.append(0x0A)
        }
        git_commit_free(commit)
    }
    out.withUnsafeBufferPointer { _ = write(1, $0.baseAddress, $0.count) }
} else if arguments.count == 2 && arguments[1] == "version" {
    print("floor 1")
} else {
    fatalError("usage: floor version | floor log REPO TAG")
}
