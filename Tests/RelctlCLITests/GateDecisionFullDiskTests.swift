import Foundation
import Testing
import RelctlTestSupport

/// A gate decision on a nearly full file system: the app's repository on a small tmpfs, filled up to a few pages
/// short of full, for each number of free pages in turn. Whatever fails on the way — the document's write, git's
/// objects, the index, the branch — the run leaves either the decision committed or nothing changed: never a raised
/// document that no commit records (which the rerun would call "nothing to raise").
@Suite("a gate decision on a nearly full file system", .enabled(if: geteuid() == 0, "mounting a tmpfs needs root"))
struct GateDecisionFullDiskTests {
    /// 2.4.0 raises the document alone; 3.0.0 also resolves the pending major release (the marker is removed).
    @Test(arguments: ["2.4.0", "3.0.0"])
    func theDecisionIsCommittedOrNothingChanges(version: String) throws {
        let mountPoint = try makeTempDirectory(prefix: "relctl-small-fs")
        defer { try? FileManager.default.removeItem(atPath: mountPoint) }
        let mounted = try runProcess("/bin/mount", ["-t", "tmpfs", "-o", "size=8m", "tmpfs", mountPoint])
        try #require(mounted.status == 0, "\(mounted.stderr)")
        defer { _ = try? runProcess("/bin/umount", ["-l", mountPoint]) }
        let original = try GateApp.firebase()
        if version == "3.0.0" {
            // The minimum rises only to a version the gate already calls the latest.
            let latest = try runRelctl(["gate", "set-latest", "3.0.0"], in: original.path, environment: original.goldenEnvironment())
            try #require(latest.status == 0, "\(latest.stderr)")
            // iOS's own minimum first: the decision below then resolves the pending major release.
            let ios = try runRelctl(["gate", "raise-min", "3.0.0", "--platform", "ios", "--confirm-live"], in: original.path,
                                    environment: original.goldenEnvironment())
            try #require(ios.status == 0, "\(ios.stderr)")
        }
        var outcomes: [String] = []
        for freePages in 0..<24 {
            let path = mountPoint + "/app"
            _ = try runProcess("/bin/rm", ["-rf", path])
            #expect(try runProcess("/bin/cp", ["-a", original.path, path]).status == 0)
            let repo = try TestRepository(existing: path)
            let head = try repo.git(["rev-parse", "HEAD"])
            let filler = mountPoint + "/filler"
            fill(mountPoint, filler: filler, leaving: freePages)
            let run = try runRelctl(["gate", "raise-min", version, "--confirm-live"], in: path, environment: original.goldenEnvironment())
            unlink(filler)
            let status = try repo.git(["status", "--porcelain", "--untracked-files=all"])
            let committed = try repo.git(["rev-parse", "HEAD"]) != head
            #expect(FileManager.default.fileExists(atPath: path + "/.major-release-pending") == !(committed && version == "3.0.0"),
                    "\(freePages) free pages: \(run.stderr)")
            #expect(status.isEmpty, "\(freePages) free pages: exit \(run.status), \(run.stderr)\nstatus:\n\(status)")
            if committed {
                #expect(run.status == 0, "\(freePages) free pages: \(run.stderr)")
                #expect(try repo.git(["log", "-1", "--format=%s"]) == "chore(gate): raise the minimum supported version to \(version)\n")
            } else {
                #expect(run.status == 1, "\(freePages) free pages: \(run.stderr)")
                // Nothing changed: with room again, the same decision is made.
                let again = try runRelctl(["gate", "raise-min", version, "--confirm-live"], in: path, environment: original.goldenEnvironment())
                #expect(again.status == 0, "\(freePages) free pages, rerun: \(again.stderr)")
            }
            outcomes.append(committed ? "committed" : "unchanged")
        }
        // Both outcomes were reached: the range of free space covers a failure and a success.
        #expect(outcomes.contains("committed") && outcomes.contains("unchanged"), "\(outcomes)")
    }

    /// Fills the file system at `mountPoint` with `filler` until `pages` pages of 4 KiB are left.
    func fill(_ mountPoint: String, filler: String, leaving pages: Int) {
        var fs = statvfs()
        guard statvfs(mountPoint, &fs) == 0 else { return }
        let free = Int(fs.f_bavail) * Int(fs.f_frsize)
        let size = max(0, free - pages * 4096)
        let fd = open(filler, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else { return }
        defer { close(fd) }
        let chunk = [UInt8](repeating: 0x61, count: 1 << 16)
        var written = 0
        while written < size {
            let n = write(fd, chunk, min(chunk.count, size - written))
            if n <= 0 { break }
            written += n
        }
    }
}
