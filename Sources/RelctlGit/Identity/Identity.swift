internal import CLibGit2

/// A name, an email and a time, as git records an author, a committer or a tagger.
package struct Identity: Sendable, Equatable {
    package var name: String
    package var email: String
    /// Seconds since the epoch and the offset in minutes; nil means now, in the local zone.
    package var time: (seconds: Int64, offsetMinutes: Int32)?

    package init(name: String, email: String, time: (seconds: Int64, offsetMinutes: Int32)? = nil) {
        self.name = name
        self.email = email
        self.time = time
    }

    package static func == (a: Identity, b: Identity) -> Bool {
        a.name == b.name && a.email == b.email && a.time?.seconds == b.time?.seconds && a.time?.offsetMinutes == b.time?.offsetMinutes
    }

    /// Makes a libgit2 signature; the caller frees it. libgit2 copies the name and the email into the signature,
    /// so the C strings Swift lends for the call may go when it returns.
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
