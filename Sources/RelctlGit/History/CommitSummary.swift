internal import CLibGit2

/// A commit's first line and committer date, for messages.
package struct CommitSummary: Sendable, Equatable {
    package let id: ObjectID
    /// The first line of the message.
    package let subject: String
    /// Committer time, seconds since the epoch.
    package let time: Int64
}

extension Repository {
    /// A commit's subject line and committer date.
    package func commitSummary(_ id: ObjectID) throws(GitError) -> CommitSummary {
        let object = try readObject(id, operation: "read commit \(id.hex)")
        return object.withBytes { bytes in
            var time: Int64 = 0
            var pos = 0
            var messageStart = bytes.count
            while pos < bytes.count {
                var end = pos
                while end < bytes.count && bytes[end] != 0x0A { end += 1 }
                if end == pos { messageStart = min(bytes.count, end + 1); break }
                if bytes[pos..<min(end, pos + 10)].elementsEqual("committer ".utf8) {
                    // `committer Name <email> 1700000000 +0000`: the number after the last `>`.
                    var gt = end - 1
                    while gt > pos && bytes[gt] != UInt8(ascii: ">") { gt -= 1 }
                    var digit = gt + 1
                    while digit < end && bytes[digit] == UInt8(ascii: " ") { digit += 1 }
                    while digit < end, bytes[digit] >= 0x30, bytes[digit] <= 0x39 {
                        time = time &* 10 &+ Int64(bytes[digit] - 0x30)
                        digit += 1
                    }
                }
                pos = end + 1
            }
            var subjectEnd = messageStart
            while subjectEnd < bytes.count && bytes[subjectEnd] != 0x0A && bytes[subjectEnd] != 0x0D { subjectEnd += 1 }
            let subject = String(decoding: UnsafeBufferPointer(rebasing: bytes[messageStart..<subjectEnd]), as: UTF8.self)
            return CommitSummary(id: id, subject: subject, time: time)
        }
    }
}
