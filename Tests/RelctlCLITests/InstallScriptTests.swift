import Foundation
import Testing
import RelctlTestSupport
@testable import RelctlCLI

/// `scripts/install` (what `make install` runs) with the relctl `swift test` built, into a staging DESTDIR:
/// the binary, the man page and the three completion scripts where each shell looks; `make uninstall` removes them.
@Suite("InstallScript")
struct InstallScriptTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path
    static let installed = ["bin/relctl", "share/man/man1/relctl.1", "share/bash-completion/completions/relctl",
                            "share/zsh/site-functions/_relctl", "share/fish/vendor_completions.d/relctl.fish"]

    @Test func installsEverythingUnderDestdirAndPrefixThenUninstalls() throws {
        let destdir = try makeTempDirectory(prefix: "relctl-destdir")
        defer { try? FileManager.default.removeItem(atPath: destdir) }
        let binary = try relctlExecutable()
        let install = try runProcess(Self.packageRoot + "/scripts/install", ["--prefix", "/usr", "--destdir", destdir, binary],
                                     in: Self.packageRoot)
        #expect(install.status == 0, "\(install.stderr)")
        #expect(install.stderr.isEmpty)
        #expect(install.stdout == Self.installed.map { "installed \(destdir)/usr/\($0)\n" }.joined())
        // Nothing outside DESTDIR/PREFIX.
        let all = try FileManager.default.subpathsOfDirectory(atPath: destdir).filter {
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: destdir + "/" + $0, isDirectory: &isDirectory) && !isDirectory.boolValue
        }
        #expect(all.sorted() == Self.installed.map { "usr/" + $0 }.sorted())

        let root = destdir + "/usr/"
        #expect(FileManager.default.isExecutableFile(atPath: root + "bin/relctl"))
        let version = try runProcess(root + "bin/relctl", ["--version"])
        #expect(version.stdout == relctlVersion + "\n")
        // The installed copy is stripped (no symbol table), smaller than the build's, and the build is left as it was.
        let sections = try runProcess("/usr/bin/readelf", ["-S", "-W", root + "bin/relctl"])
        #expect(sections.status == 0 && !sections.stdout.contains(".symtab"), "\(sections.stdout)")
        let size = { (path: String) in ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0 }
        #expect(size(root + "bin/relctl") < size(binary))
        #expect(try runProcess("/usr/bin/readelf", ["-S", "-W", binary]).stdout.contains(".symtab"))
        // The generated files are what the installed binary prints.
        #expect(try String(contentsOfFile: root + "share/man/man1/relctl.1", encoding: .utf8)
                == relctl(["help", "--man"], in: destdir).stdout)
        for (shell, path) in [("bash", "share/bash-completion/completions/relctl"), ("zsh", "share/zsh/site-functions/_relctl"),
                              ("fish", "share/fish/vendor_completions.d/relctl.fish")] {
            #expect(try String(contentsOfFile: root + path, encoding: .utf8) == relctl(["completions", shell], in: destdir).stdout, "\(shell)")
        }
        // bash-completion loads the installed file by the command's name: it defines the completion for relctl.
        let bash = try runProcess("/bin/bash", ["--norc", "--noprofile", "-c",
            "source '\(root)share/bash-completion/completions/relctl' && COMP_WORDS=(relctl gate ev) COMP_CWORD=2 && _relctl && echo \"${COMPREPLY[*]}\""])
        #expect(bash.stdout == "evaluate\n")
        // man finds the page under the prefix.
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/man") {
            let man = try runProcess("/usr/bin/man", ["-M", root + "share/man", "relctl"], environment: ["MANPAGER": "cat", "PAGER": "cat"])
            #expect(man.status == 0, "\(man.stderr)")
            #expect(man.stdout.contains("relctl completions"))
        }

        let uninstall = try runProcess("/usr/bin/make", ["-s", "uninstall", "PREFIX=/usr", "DESTDIR=\(destdir)"], in: Self.packageRoot)
        #expect(uninstall.status == 0, "\(uninstall.stderr)")
        #expect(uninstall.stdout == Self.installed.map { "removed \(destdir)/usr/\($0)\n" }.joined())
        for path in Self.installed { #expect(!FileManager.default.fileExists(atPath: root + path), "\(path)") }
        // Uninstalling again finds nothing to remove and still succeeds.
        let again = try runProcess(Self.packageRoot + "/scripts/install", ["--uninstall", "--prefix", "/usr", "--destdir", destdir])
        #expect(again.status == 0)
        #expect(again.stdout.isEmpty)
    }

    @Test func makeInstallRunsTheScriptWithPrefixAndDestdir() throws {
        let dryRun = try runProcess("/usr/bin/make", ["-n", "install", "PREFIX=/opt/relctl", "DESTDIR=/tmp/stage"], in: Self.packageRoot)
        #expect(dryRun.status == 0, "\(dryRun.stderr)")
        #expect(dryRun.stdout.contains("swift build -c release --static-swift-stdlib --disable-local-rpath -Xswiftc -use-ld=lld -Xlinker -no-pie $(scripts/link-order) --product relctl\n"))
        #expect(dryRun.stdout.contains("scripts/install --prefix \"/opt/relctl\" --destdir \"/tmp/stage\" "))
    }

    @Test func aMissingBinaryInstallsNothing() throws {
        let destdir = try makeTempDirectory(prefix: "relctl-destdir")
        defer { try? FileManager.default.removeItem(atPath: destdir) }
        let result = try runProcess(Self.packageRoot + "/scripts/install", ["--destdir", destdir, destdir + "/no-relctl"])
        #expect(result.status == 1)
        #expect(result.stderr == "scripts/install: \(destdir)/no-relctl is not an executable (build it first: make release-build)\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: destdir).isEmpty)
    }

    @Test func aRelativePrefixIsRefused() throws {
        let result = try runProcess(Self.packageRoot + "/scripts/install", ["--prefix", "usr/local", try relctlExecutable()])
        #expect(result.status == 64)
        #expect(result.stderr == "scripts/install: PREFIX must be an absolute path, not 'usr/local'\n")
    }
}
