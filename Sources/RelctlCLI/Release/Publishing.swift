import RelctlCore
import RelctlGit

/// The last phase of a release, and what preflight asks the remote: the remote's state (its tag and branch, and
/// whether a release made here was published), the push itself, and the one "cannot reach remote" message.
enum Publishing {
    /// What the remote says about a planned release.
    struct RemoteCheck {
        var problems: [Problem] = []
        /// The previous release tag when it was made here but never pushed.
        var unpublishedBase: String?
        /// The remote cannot be reached (also one of `problems`).
        var unreachable: Problem?
    }

    /// Reads the remote's references for `plan`: its tag must be free there, the branch must not be ahead of HEAD,
    /// and a previous release made here and never pushed is published with this one.
    static func check(_ plan: ReleasePlan, baseTag: String?, repository: Repository, remote: String,
                      environment: [String: String]) -> RemoteCheck {
        var check = RemoteCheck()
        do {
            let refs = try repository.remoteReferences(remote, environment: environment)
            if refs["refs/tags/\(plan.tag)"] != nil {
                check.problems.append(Problem("tag \(plan.tag) already exists on '\(remote)' (another release published it); pull it with its tags (git pull --rebase --tags \(remote) \(plan.branch ?? "<branch>")) and run relctl again, which releases what that release did not hold"))
            }
            if let branch = plan.branch, let remoteHead = refs["refs/heads/\(branch)"], remoteHead != plan.head {
                let known = try repository.contains(remoteHead)
                let behind = known ? !(try repository.isAncestor(remoteHead, of: plan.head)) : true
                if behind {
                    check.problems.append(Problem("'\(remote)/\(branch)' has commits this clone does not have; pull them with their tags (git pull --rebase --tags \(remote) \(branch)) and run relctl again"))
                }
            }
            // The previous release may never have been published (its push failed): publish it with this one.
            if let base = baseTag, let branch = plan.branch {
                do {
                    if case .unpublished = try baseTagState(base, repository: repository, branch: "refs/heads/\(branch)",
                                                            head: plan.head, remoteRefs: refs, remote: remote) {
                        check.unpublishedBase = base
                    }
                } catch let failure as Problem {
                    check.problems.append(failure)
                }
            }
        } catch {
            let problem = Problem(cannotReach(remote, error, credentials: "credentials"))
            check.unreachable = problem
            check.problems.append(problem)
        }
        return check
    }

    /// The remote's references; cannot reach it: the one message saying so, with what to check.
    static func remoteReferences(_ repository: Repository, remote: String, environment: [String: String]) throws -> [String: ObjectID] {
        do {
            return try repository.remoteReferences(remote, environment: environment)
        } catch {
            throw Problem(cannotReach(remote, error, credentials: "the push credentials"))
        }
    }

    /// "cannot reach remote 'origin': …; check the remote URL and <credentials> (…)": preflight says
    /// "credentials" (a dry run only warns), publishing a release made earlier "the push credentials".
    static func cannotReach(_ remote: String, _ error: any Error, credentials: String) -> String {
        "cannot reach remote '\(remote)': \(ErrorReport.reason(error, gitOperation: false)); check the remote URL and \(credentials) (RELCTL_GIT_TOKEN or GITHUB_TOKEN for HTTPS, an SSH agent for SSH)"
    }

    static func shortBranch(_ branch: String) -> String {
        branch.hasPrefix("refs/heads/") ? String(branch.dropFirst("refs/heads/".count)) : branch
    }

    /// Where a release tag made here stands on the remote.
    enum BaseTagState: Equatable {
        case published
        /// Not on the remote; `branchOnRemote`: the remote branch already holds the tagged commit.
        case unpublished(branchOnRemote: Bool)
    }

    /// Whether the release tag `tag` (made in this clone) is on the remote, and whether publishing it now is
    /// safe. Throws, with the fix, when the remote has another tag of that name (another clone released it
    /// first) or when the remote branch moved on without the release.
    static func baseTagState(_ tag: String, repository: Repository, branch: String, head: ObjectID,
                             remoteRefs: [String: ObjectID], remote: String) throws -> BaseTagState {
        guard let local = try repository.tag(named: tag), let tagCommit = try repository.commit(of: local) else {
            throw Problem("cannot read tag \(tag); check it with 'git show \(tag)'")
        }
        let short = shortBranch(branch)
        if let remoteTag = remoteRefs["refs/tags/\(tag)"] {
            if remoteTag == local.target { return .published }
            throw Problem("tag \(tag) on '\(remote)' is not the one made here (\(remoteTag.hex.prefix(12)) there, \(local.target.hex.prefix(12)) here): another release published \(tag) first and this clone's release was never published; delete the local release (git tag -d \(tag)), reset \(short) to '\(remote)/\(short)' after 'git fetch --tags \(remote)', and release again")
        }
        if let remoteHead = remoteRefs[branch] {
            guard try repository.contains(remoteHead) else {
                throw Problem("'\(remote)/\(short)' has commits this clone does not have; fetch them (git fetch \(remote)) and rerun 'relctl release --push'")
            }
            if try repository.isAncestor(tagCommit, of: remoteHead) { return .unpublished(branchOnRemote: true) }
            if try !repository.isAncestor(remoteHead, of: head) {
                throw Problem("\(tag) was released locally but '\(remote)/\(short)' has moved on without it; rebase onto it (git pull --rebase --tags \(remote) \(short)), delete the local tag (git tag -d \(tag)) and its changelog section, and release again")
            }
        }
        return .unpublished(branchOnRemote: false)
    }

    /// Publishes a release: the branch first, then the tags, so the remote never holds a release tag whose commit is
    /// not on its branch (a tag-triggered store build would ship it). The branch is a fast-forward the remote checks
    /// (compare-and-swap against the remote branch this run read, never forced: `updateRemoteReference`), confirmed
    /// by reading the remote again; only then are the tags created there (never moved). Another release reaching
    /// the remote first throws a `.pushLostRace` problem and nothing is pushed. Any other failure leaves the release made
    /// locally; rerunning `relctl release --push` finds it and pushes what is missing.
    static func push(_ repository: Repository, branch: String, tags: [String], remote: String, environment: [String: String],
                     branchAlreadyThere: Bool = false, faults: FaultInjection? = nil) throws {
        let short = shortBranch(branch)
        let tag = tags.last ?? ""
        let rerun = "fix the cause (credentials, branch protection, network) and rerun 'relctl release --push', which finds the release made locally and only pushes"
        let lost = "'\(remote)/\(short)' moved while this release was being pushed (another release got there first)"
        func branchFailed(_ why: String) -> Problem {
            Problem("push of \(short) to '\(remote)' failed (\(why)); nothing was published, and the release \(tag) is committed and tagged locally: \(rerun)")
        }
        if !branchAlreadyThere {
            guard let commit = try repository.referenceTarget(branch) else {
                throw Problem("\(branch) does not exist; check out the release branch")
            }
            let remoteHead: ObjectID?
            do {
                remoteHead = try repository.remoteReferences(remote, environment: environment)[branch]
            } catch {
                throw branchFailed(error.message)
            }
            if let remoteHead, remoteHead != commit {
                // Only a fast-forward: what the remote holds must be in this release's history.
                guard try repository.contains(remoteHead), try repository.isAncestor(remoteHead, of: commit) else {
                    throw Problem(lost, kind: .pushLostRace)
                }
            }
            if remoteHead != commit {
                let update: RemoteReferenceUpdate
                do {
                    update = try repository.updateRemoteReference(remote: remote, localRef: branch, remoteRef: branch,
                                                                  expected: remoteHead, environment: environment,
                                                                  objectsSent: { faults?.step("push-objects-branch") })
                } catch {
                    throw branchFailed(error.message)
                }
                switch update {
                case .updated, .alreadyThere: break
                case .lost(let why): throw Problem("\(lost): \(why)", kind: .pushLostRace)
                case .refused(let why): throw branchFailed(why)
                case .lockFile(let path): throw Problem(remoteLockProblem(path, remote: remote, what: short, tag: tag))
                }
            }
            faults?.step("push-branch")
            // Confirmed: the remote branch is this run's own commit before any tag goes out.
            let now: ObjectID?
            do {
                now = try repository.remoteReferences(remote, environment: environment)[branch]
            } catch {
                throw branchFailed("cannot confirm it: \(error.message)")
            }
            if now != commit {
                let ahead = try now.map { try repository.contains($0) && repository.isAncestor(commit, of: $0) } ?? false
                if !ahead { throw Problem(lost, kind: .pushLostRace) }
            }
        }
        for (index, name) in tags.enumerated() {
            let ref = "refs/tags/\(name)"
            var why: String?
            var lockFile: String?
            do {
                switch try repository.updateRemoteReference(remote: remote, localRef: ref, remoteRef: ref, expected: nil,
                                                            environment: environment,
                                                            objectsSent: { faults?.step("push-objects-tag-\(index + 1)") }) {
                case .updated, .alreadyThere: break
                case .lost(let text), .refused(let text): why = text
                case .lockFile(let path): lockFile = path
                }
            } catch {
                why = error.message
            }
            if let lockFile {
                throw Problem("\(short) is on '\(remote)' but " + remoteLockProblem(lockFile, remote: remote, what: name, tag: nil))
            }
            if let why {
                throw Problem("\(short) is on '\(remote)' but the tag \(name) was refused (\(why)): \(rerun), or push the tag by hand: git push \(remote) refs/tags/\(name)")
            }
            faults?.step("push-tag-\(index + 1)")
        }
    }
}

extension Publishing {
    /// `relctl release --push` with nothing to release: the last release `tag` may have been made here by a run whose
    /// push failed; it is published now (a dry run says what it would push). Returns whether it pushed.
    static func republish(_ tag: String, reason: String?, repository: Repository, remote: String, dryRun: Bool,
                          config: Config, context: CommandContext) throws -> Bool {
        let output = context.output
        guard let branch = try repository.headReferenceName(), let head = try repository.headCommit() else {
            throw Problem("HEAD is detached; check out the release branch to push \(tag)")
        }
        let short = shortBranch(branch)
        let remoteRefs = try remoteReferences(repository, remote: remote, environment: context.environment)
        switch try baseTagState(tag, repository: repository, branch: branch, head: head, remoteRefs: remoteRefs, remote: remote) {
        case .published:
            output.message("\(reason ?? "no release is due"); \(tag) is already on '\(remote)'")
            return false
        case .unpublished(let branchOnRemote):
            guard config.isReleaseBranch(short) else {
                throw Problem("\(tag) is released locally but not on '\(remote)', and '\(short)' is not a release branch (\(config.branches.joined(separator: ", "))); check out the branch that holds the release and rerun 'relctl release --push'")
            }
            if dryRun {
                output.message("\(tag) is released locally but not on '\(remote)'; 'relctl release --push' would push \(branchOnRemote ? "" : "\(short) and ")the tag")
                return false
            }
            output.message("\(tag) is released locally but not on '\(remote)': pushing it")
            do {
                try push(repository, branch: branch, tags: [tag], remote: remote, environment: context.environment,
                         branchAlreadyThere: branchOnRemote, faults: FaultInjection(context.environment))
            } catch let lost as Problem where lost.kind == .pushLostRace {
                throw Problem("\(lost.message); nothing was pushed: pull and rerun (git pull --rebase --tags \(remote) \(short); if \(tag) then stands on a commit '\(remote)' does not have, delete it with git tag -d \(tag) and release again)")
            }
            output.message("pushed \(branchOnRemote ? "" : "\(short) and ")\(tag) to '\(remote)'")
            return true
        }
    }

    /// A lock file git left in the remote (a push killed while it held the reference's lock): named with the command
    /// that removes it, as lock files in the clone are (`GitLockFiles`). `tag`: the release made locally, not
    /// published (the branch's push failed).
    static func remoteLockProblem(_ path: String, remote: String, what: String, tag: String?) -> String {
        let rerun = "rerun 'relctl release --push', which finds the release made locally and only pushes"
        let local = tag.map { "; nothing was published, and the release \($0) is committed and tagged locally" } ?? ""
        return "the push of \(what) to '\(remote)' is blocked by git's lock file \(path) in the remote, left by a push that was stopped\(local): if no push to '\(remote)' is running, remove it (rm '\(path)') and \(rerun)"
    }
}
