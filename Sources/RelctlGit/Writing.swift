import CLibGit2
import Foundation

/// A name, an email and a time, as git records an author, a committer or a tagger.
public struct Identity: Sendable, Equatable {
    public var name: String
    public var email: String
    /// Seconds since the epoch and the offset in minutes; nil means now, in the local zone.
    public var time: (seconds: Int64, offsetMinutes: Int32)?

    public init(name: String, email: String, time: (seconds: Int64, offsetMinutes: Int32)? = nil) {
        self.name = name
        self.email = email
        self.time = time
    }

    public static func == (a: Identity, b: Identity) -> Bool {
        a.name == b.name && a.email == b.email && a.time?.seconds == b.time?.seconds && a.time?.offsetMinutes == b.time?.offsetMinutes
    }

    /// Makes a libgit2 signature; the caller frees it.
    func signature() throws(GitError) -> UnsafeMutablePointer<git_signature> {
        var out: UnsafeMutablePointer<git_signature>?
        if let time {
            try check(git_signature_new(&out, name, email, time.seconds, time.offsetMinutes), "make signature for \(name) <\(email)>")
        } else {
            try check(git_signature_now(&out, name, email), "make signature for \(name) <\(email)>")
        }
        return out!
    }
}

/// Author and committer as git would choose them.
public struct Identities: Sendable, Equatable {
    public var author: Identity
    public var committer: Identity
}

extension Repository {
    /// Author and committer the way `git commit` picks them: `GIT_AUTHOR_*` / `GIT_COMMITTER_*` (and `EMAIL`)
    /// from the environment first, then `user.name` / `user.email` from the repository, global and system config
    /// (libgit2's `git_signature_default` ignores the variables, which CI jobs rely on). Nil when none is set.
    public func identities(environment: [String: String]) throws(GitError) -> Identities? {
        var configName: String?
        var configEmail: String?
        var config: OpaquePointer?
        if git_repository_config_snapshot(&config, pointer) == 0 {
            defer { git_config_free(config) }
            configName = Self.configString(config, "user.name")
            configEmail = Self.configString(config, "user.email")
        }
        func pick(_ role: String) throws(GitError) -> Identity? {
            let name = nonEmpty(environment["GIT_\(role)_NAME"]) ?? configName
            let email = nonEmpty(environment["GIT_\(role)_EMAIL"]) ?? configEmail ?? nonEmpty(environment["EMAIL"])
            var time: (seconds: Int64, offsetMinutes: Int32)?
            let variable = "GIT_\(role)_DATE"
            if let text = nonEmpty(environment[variable]) {
                // A set date that cannot be read must not silently become "now" (reproducible builds rely on it).
                guard let parsed = Self.parseGitDate(text) else {
                    throw GitError(kind: .other, operation: variable,
                                   message: "\"\(text)\" is not a date relctl can read; use \(Self.acceptedDateForms), or unset \(variable)")
                }
                time = parsed
            }
            guard let name, let email else { return nil }
            return Identity(name: name, email: email, time: time)
        }
        let author = try pick("AUTHOR")
        let committer = try pick("COMMITTER")
        guard let author, let committer else { return nil }
        return Identities(author: author, committer: committer)
    }

    private static func configString(_ config: OpaquePointer?, _ key: String) -> String? {
        var buffer = git_buf()
        defer { git_buf_dispose(&buffer) }
        guard git_config_get_string_buf(&buffer, config, key) == 0, let ptr = buffer.ptr else { return nil }
        return nonEmpty(String(cString: ptr))
    }

    /// The `GIT_*_DATE` forms `parseGitDate` reads, for error messages.
    static let acceptedDateForms = "@1700000000 +0000 (git's raw form), 2020-01-01T00:00:00Z or 2020-01-01 00:00:00+02:00 (ISO 8601) or Wed, 1 Jan 2020 00:00:00 +0000 (RFC 2822)"

    /// A date in a form git accepts in `GIT_*_DATE`: the raw `@1700000000 +0000` / `1700000000 +0200`,
    /// ISO 8601 (`2020-01-01T00:00:00Z`, `2020-01-01 00:00:00+02:00`, `…+0200`, fractions ignored; no zone
    /// means the local zone, as git does) or RFC 2822 (`Wed, 1 Jan 2020 00:00:00 +0000`). Nil when unreadable.
    static func parseGitDate(_ text: String) -> (seconds: Int64, offsetMinutes: Int32)? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        return parseRawDate(trimmed) ?? parseISO8601Date(trimmed) ?? parseRFC2822Date(trimmed)
    }

    /// `@seconds [±hhmm]` or `seconds ±hhmm`.
    private static func parseRawDate(_ text: String) -> (seconds: Int64, offsetMinutes: Int32)? {
        let parts = text.split(separator: " ")
        guard let first = parts.first, parts.count <= 2 else { return nil }
        let raw = first.hasPrefix("@")
        // A bare number is a timestamp only when it is too big to be a date like 20200101 (git's rule).
        guard let seconds = Int64(raw ? first.dropFirst() : first), raw || parts.count == 2 || seconds >= 100_000_000 else { return nil }
        guard parts.count == 2 else { return (seconds, 0) }
        guard let offset = zoneOffset(parts[1]) else { return nil }
        return (seconds, offset)
    }

    /// `YYYY-MM-DD[T| ]HH:MM[:SS[.fff]][ ][Z|±hh:mm|±hhmm|±hh]`.
    private static func parseISO8601Date(_ text: String) -> (seconds: Int64, offsetMinutes: Int32)? {
        let chars = Array(text.utf8)
        var i = 0
        func number(_ width: Int) -> Int? {
            guard i + width <= chars.count else { return nil }
            var value = 0
            for c in chars[i..<i + width] {
                guard c >= 48 && c <= 57 else { return nil }
                value = value * 10 + Int(c - 48)
            }
            i += width
            return value
        }
        func take(_ c: UInt8) -> Bool {
            guard i < chars.count, chars[i] == c else { return false }
            i += 1
            return true
        }
        guard let year = number(4), take(UInt8(ascii: "-")), let month = number(2), take(UInt8(ascii: "-")), let day = number(2),
              take(UInt8(ascii: "T")) || take(UInt8(ascii: " ")),
              let hour = number(2), take(UInt8(ascii: ":")), let minute = number(2) else { return nil }
        var second = 0
        if take(UInt8(ascii: ":")) {
            guard let s = number(2) else { return nil }
            second = s
            if take(UInt8(ascii: ".")) || take(UInt8(ascii: ",")) {
                let start = i
                while i < chars.count, chars[i] >= 48 && chars[i] <= 57 { i += 1 }
                guard i > start else { return nil }
            }
        }
        _ = take(UInt8(ascii: " "))
        let zone = String(decoding: chars[i...], as: UTF8.self)
        guard let local = epochSeconds(year: year, month: month, day: day, hour: hour, minute: minute, second: second) else { return nil }
        let offset: Int32
        if zone.isEmpty {
            offset = Int32(TimeZone.current.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(local))) / 60)
        } else if zone == "Z" || zone == "z" {
            offset = 0
        } else {
            guard let parsed = zoneOffset(Substring(zone)) else { return nil }
            offset = parsed
        }
        return (local - Int64(offset) * 60, offset)
    }

    /// `[Wed, ]1 Jan 2020 00:00[:00] +0000` (also `GMT`/`UT`/`Z` for +0000).
    private static func parseRFC2822Date(_ text: String) -> (seconds: Int64, offsetMinutes: Int32)? {
        var parts = text.split(separator: " ").map(String.init)
        if let first = parts.first, first.hasSuffix(",") {
            guard ["mon,", "tue,", "wed,", "thu,", "fri,", "sat,", "sun,"].contains(first.lowercased()) else { return nil }
            parts.removeFirst()
        }
        let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
        guard parts.count == 5, let day = Int(parts[0]), let monthIndex = months.firstIndex(of: parts[1].lowercased()),
              parts[2].count == 4, let year = Int(parts[2]) else { return nil }
        let time = parts[3].split(separator: ":", omittingEmptySubsequences: false)
        guard time.count == 2 || time.count == 3, time.allSatisfy({ $0.count == 2 }),
              let hour = Int(time[0]), let minute = Int(time[1]) else { return nil }
        var second = 0
        if time.count == 3 {
            guard let s = Int(time[2]) else { return nil }
            second = s
        }
        let offset: Int32
        if ["GMT", "UT", "UTC", "Z"].contains(parts[4].uppercased()) {
            offset = 0
        } else {
            guard parts[4].count == 5, let parsed = zoneOffset(Substring(parts[4])) else { return nil }
            offset = parsed
        }
        guard let local = epochSeconds(year: year, month: monthIndex + 1, day: day, hour: hour, minute: minute, second: second) else { return nil }
        return (local - Int64(offset) * 60, offset)
    }

    /// `+0200`, `-05:30`, `+02` → minutes east of UTC.
    private static func zoneOffset(_ zone: Substring) -> Int32? {
        let chars = Array(zone)
        guard let sign = chars.first, sign == "+" || sign == "-" else { return nil }
        var digits = Array(chars.dropFirst())
        if digits.count == 5 {
            guard digits[2] == ":" else { return nil }
            digits.remove(at: 2)
        }
        guard digits.count == 2 || digits.count == 4, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        let hours = Int32(String(digits[0..<2]))!
        let minutes = digits.count == 4 ? Int32(String(digits[2..<4]))! : 0
        guard hours <= 14, minutes < 60 else { return nil }
        return (hours * 60 + minutes) * (sign == "-" ? -1 : 1)
    }

    /// Seconds since the epoch of a UTC civil time, nil when a field is out of range.
    private static func epochSeconds(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) -> Int64? {
        guard (1...12).contains(month), (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second) else { return nil }
        let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
        let lengths = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        guard (1...lengths[month - 1]).contains(day) else { return nil }
        // Days from civil (Howard Hinnant's algorithm).
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        let days = Int64(era * 146_097 + doe - 719_468)
        return days * 86_400 + Int64(hour * 3600 + minute * 60 + second)
    }

    /// The value of a config key (repository, global and system config), or nil.
    public func configValue(_ key: String) -> String? {
        var config: OpaquePointer?
        guard git_repository_config_snapshot(&config, pointer) == 0 else { return nil }
        defer { git_config_free(config) }
        return Self.configString(config, key)
    }
}

private func nonEmpty(_ s: String?) -> String? {
    guard let s, !s.isEmpty else { return nil }
    return s
}

/// One changed path of `git status`.
public struct StatusEntry: Sendable, Equatable {
    public let path: String
    public let untracked: Bool
}

extension Repository {
    /// Paths that differ from HEAD in the index or the work tree, untracked files included, ignored files not.
    public func status() throws(GitError) -> [StatusEntry] {
        var options = git_status_options()
        try check(git_status_options_init(&options, UInt32(GIT_STATUS_OPTIONS_VERSION)), "init status options")
        options.show = GIT_STATUS_SHOW_INDEX_AND_WORKDIR
        options.flags = GIT_STATUS_OPT_INCLUDE_UNTRACKED.rawValue | GIT_STATUS_OPT_RECURSE_UNTRACKED_DIRS.rawValue
            | GIT_STATUS_OPT_EXCLUDE_SUBMODULES.rawValue
        var list: OpaquePointer?
        try check(git_status_list_new(&list, pointer, &options), "read status")
        defer { git_status_list_free(list) }
        // libgit2 1.5 knows no sparse checkout: a file kept out of the work tree (`git sparse-checkout`, the
        // skip-worktree bit) shows as deleted, while git calls the tree clean. Such entries are passed over.
        var index: OpaquePointer?
        try check(git_repository_index(&index, pointer), "open index")
        defer { git_index_free(index) }
        var entries: [StatusEntry] = []
        for i in 0..<git_status_list_entrycount(list) {
            guard let entry = git_status_byindex(list, i)?.pointee else { continue }
            let delta = entry.index_to_workdir ?? entry.head_to_index
            guard let delta, let cPath = delta.pointee.new_file.path ?? delta.pointee.old_file.path else { continue }
            if entry.status == GIT_STATUS_WT_DELETED, let indexed = git_index_get_bypath(index, cPath, 0),
               indexed.pointee.flags_extended & UInt16(GIT_INDEX_ENTRY_SKIP_WORKTREE.rawValue) != 0 {
                continue
            }
            entries.append(StatusEntry(path: String(cString: cPath), untracked: entry.status.rawValue & GIT_STATUS_WT_NEW.rawValue != 0))
        }
        return entries
    }

    /// The full name of the branch HEAD points at (`refs/heads/main`), nil when detached.
    public func headReferenceName() throws(GitError) -> String? {
        var head: OpaquePointer?
        try check(git_reference_lookup(&head, pointer, "HEAD"), "read HEAD")
        defer { git_reference_free(head) }
        guard git_reference_type(head) == GIT_REFERENCE_SYMBOLIC, let target = git_reference_symbolic_target(head) else { return nil }
        return String(cString: target)
    }

    /// Stages `paths` (relative to the work tree; deleted files are removed) and commits them on the current
    /// branch. The commit is `expectedParent`'s tree with exactly `paths` changed: anything else already staged
    /// stays staged and out of the commit. The branch moves only if it still points at `expectedParent`
    /// (compare-and-swap), so a concurrent release cannot be overwritten. Returns the new commit.
    public func commit(paths: [String], message: String, identities: Identities, expectedParent: ObjectID) throws(GitError) -> ObjectID {
        guard let branch = try headReferenceName() else {
            throw GitError(kind: .other, operation: "commit", message: "HEAD is detached; check out a branch")
        }
        var index: OpaquePointer?
        try check(git_repository_index(&index, pointer), "open index")
        defer { git_index_free(index) }
        for path in paths {
            let full = (workdir ?? "") + "/" + path
            if FileManager.default.fileExists(atPath: full) {
                try check(git_index_add_bypath(index, path), "stage \(path)")
            } else {
                try check(git_index_remove_bypath(index, path), "unstage \(path)")
            }
        }
        try check(git_index_write(index), "write index")
        var parentOID = expectedParent.gitOID
        var parent: OpaquePointer?
        try check(git_commit_lookup(&parent, pointer, &parentOID), "read HEAD commit")
        defer { git_commit_free(parent) }
        var parentTree: OpaquePointer?
        try check(git_commit_tree(&parentTree, parent), "read HEAD tree")
        defer { git_tree_free(parentTree) }
        // The tree from an in-memory index: the parent's tree plus the staged entries of `paths` only.
        var releaseIndex: OpaquePointer?
        try check(git_index_new(&releaseIndex), "create index")
        defer { git_index_free(releaseIndex) }
        try check(git_index_read_tree(releaseIndex, parentTree), "read HEAD tree")
        for path in paths {
            if let entry = git_index_get_bypath(index, path, 0) {
                try check(git_index_add(releaseIndex, entry), "stage \(path)")
            } else {
                let code = git_index_remove(releaseIndex, path, 0)
                if code != GIT_ENOTFOUND.rawValue { try check(code, "unstage \(path)") }
            }
        }
        var treeID = git_oid()
        try check(git_index_write_tree_to(&treeID, releaseIndex, pointer), "write tree")
        var tree: OpaquePointer?
        try check(git_tree_lookup(&tree, pointer, &treeID), "read tree")
        defer { git_tree_free(tree) }
        let author = try identities.author.signature()
        defer { git_signature_free(author) }
        let committer = try identities.committer.signature()
        defer { git_signature_free(committer) }
        var commitID = git_oid()
        var parents: [OpaquePointer?] = [parent]
        try check(git_commit_create(&commitID, pointer, nil, author, committer, "UTF-8", message, tree, 1, &parents), "create commit")
        try moveReference(branch, to: ObjectID(commitID), expecting: expectedParent, message: "relctl: release commit")
        return ObjectID(commitID)
    }

    /// Points `name` at `target` only if it currently points at `expected` (nil: must not exist).
    public func moveReference(_ name: String, to target: ObjectID, expecting expected: ObjectID?, message: String) throws(GitError) {
        var ref: OpaquePointer?
        var newOID = target.gitOID
        if let expected {
            var oldOID = expected.gitOID
            let code = git_reference_create_matching(&ref, pointer, name, &newOID, 1, &oldOID, message)
            if code == GIT_EMODIFIED.rawValue {
                throw GitError(kind: .concurrentUpdate, code: code, operation: "update \(name)",
                               message: "\(name) moved while relctl was working (another release running?)")
            }
            try check(code, "update \(name)")
        } else {
            try check(git_reference_create(&ref, pointer, name, &newOID, 0, message), "create \(name)")
        }
        git_reference_free(ref)
    }

    /// Deletes a reference if it exists (rollback).
    public func deleteReference(_ name: String) throws(GitError) {
        var ref: OpaquePointer?
        let code = git_reference_lookup(&ref, pointer, name)
        if code == GIT_ENOTFOUND.rawValue { return }
        try check(code, "read \(name)")
        defer { git_reference_free(ref) }
        try check(git_reference_delete(ref), "delete \(name)")
    }

    /// Resets the index entries of `paths` to a commit's tree, leaving every other entry as it is (rollback of a
    /// staged release commit: what the user had staged stays staged). A path the commit lacks is unstaged.
    public func resetIndex(to commit: ObjectID, paths: [String]) throws(GitError) {
        var oid = commit.gitOID
        var object: OpaquePointer?
        try check(git_commit_lookup(&object, pointer, &oid), "read commit")
        defer { git_commit_free(object) }
        var tree: OpaquePointer?
        try check(git_commit_tree(&tree, object), "read tree")
        defer { git_tree_free(tree) }
        var index: OpaquePointer?
        try check(git_repository_index(&index, pointer), "open index")
        defer { git_index_free(index) }
        for path in paths {
            var treeEntry: OpaquePointer?
            let found = git_tree_entry_bypath(&treeEntry, tree, path)
            if found == GIT_ENOTFOUND.rawValue {
                let code = git_index_remove(index, path, 0)
                if code != GIT_ENOTFOUND.rawValue { try check(code, "unstage \(path)") }
                continue
            }
            try check(found, "read \(path) in tree")
            defer { git_tree_entry_free(treeEntry) }
            var entry = git_index_entry()
            entry.mode = git_tree_entry_filemode(treeEntry).rawValue
            entry.id = git_tree_entry_id(treeEntry).pointee
            let code = path.withCString { cPath in
                entry.path = cPath
                return git_index_add(index, &entry)
            }
            try check(code, "reset \(path)")
        }
        try check(git_index_write(index), "write index")
    }


    /// The object a reference points at, or nil when it does not exist.
    public func referenceTarget(_ name: String) throws(GitError) -> ObjectID? {
        var oid = git_oid()
        let code = git_reference_name_to_id(&oid, pointer, name)
        if code == GIT_ENOTFOUND.rawValue { return nil }
        try check(code, "read \(name)")
        return ObjectID(oid)
    }

    /// Creates an annotated tag; fails with `.exists` when the name is taken (never moves a tag).
    @discardableResult
    public func createAnnotatedTag(_ name: String, target: ObjectID, message: String, tagger: Identity) throws(GitError) -> ObjectID {
        var oid = target.gitOID
        var object: OpaquePointer?
        try check(git_object_lookup(&object, pointer, &oid, GIT_OBJECT_COMMIT), "read commit to tag")
        defer { git_object_free(object) }
        let signature = try tagger.signature()
        defer { git_signature_free(signature) }
        var tagID = git_oid()
        let code = git_tag_create(&tagID, pointer, name, object, signature, message, 0)
        if code == GIT_EEXISTS.rawValue {
            throw GitError(kind: .exists, code: code, operation: "create tag \(name)", message: "tag '\(name)' already exists")
        }
        try check(code, "create tag \(name)")
        return ObjectID(tagID)
    }

    /// The URL of a remote, or nil when there is no such remote.
    public func remoteURL(_ name: String) -> String? {
        var remote: OpaquePointer?
        guard git_remote_lookup(&remote, pointer, name) == 0 else { return nil }
        defer { git_remote_free(remote) }
        return git_remote_url(remote).map { String(cString: $0) }
    }
}

extension Repository {
    /// Whether `ancestor` is `descendant` or one of its ancestors.
    public func isAncestor(_ ancestor: ObjectID, of descendant: ObjectID) throws(GitError) -> Bool {
        if ancestor == descendant { return true }
        var a = ancestor.gitOID, d = descendant.gitOID
        let code = git_graph_descendant_of(pointer, &d, &a)
        try check(code, "compare history")
        return code == 1
    }
}
