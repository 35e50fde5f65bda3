/// A commit message as git hands it to the `commit-msg` hook: with the comment lines git strips after the hook
/// has run (`#` or `core.commentChar`) and, under `git commit -v`, the diff after the scissors line. The lines
/// kept are numbered as in the file, so a problem points at the line the author sees in the editor.
struct CommitMessageFile {
    /// The message git will record (comments and scissors part removed).
    let message: String
    /// For each line of `message` (from 0), its line number in the file (from 1).
    let fileLines: [Int]

    init(_ text: String, commentChar: String = "#") {
        var kept: [Substring] = []
        var numbers: [Int] = []
        let scissors = commentChar + " ------------------------ >8 ------------------------"
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let bare = line.hasSuffix("\r") ? line.dropLast() : line
            if bare == Substring(scissors) { break }
            if !commentChar.isEmpty, bare.hasPrefix(commentChar) { continue }
            kept.append(line)
            numbers.append(index + 1)
        }
        message = kept.joined(separator: "\n")
        fileLines = numbers
    }

    /// The file's line number of a message line (from 1).
    func fileLine(_ messageLine: Int) -> Int {
        fileLines.indices.contains(messageLine - 1) ? fileLines[messageLine - 1] : messageLine
    }
}
