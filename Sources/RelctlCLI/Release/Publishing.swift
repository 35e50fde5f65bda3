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
                check.problems.append(Problem("tag \(plan.tag) already exists on '\(remote)' (another release published it); run 'git fetch --tags \(remote)' and check the history before releasing again"))
            }
            if let branch = plan.branch, let remoteHead = refs["refs/heads/\(branch)"], remoteHead != plan.head {
                let known = try repository.contains(remoteHead)
                let behind = known ? !(try repository.isAncestor(remoteHead, of: plan.head)) : true
                if behind {
                    check.problems.append(Problem("'\(remote)/\(branch)' has commits this clone does not have; pull (git pull --rebase \(remote) \(branch)) and run relctl again"))
                }
            }
            // The previous release may never have been published (its push failed): publish it with this one.
            if let base = baseTag, let branch = plan.branch {
                do {
                    if case .unpublished = try baseTagState(base, repository: repository, branch: "refs/heads/\(branch)",
                                                            head: plan.head, remoteRefs: refs, remote: remote) {
                        check.unpublishedBase = base
                    }
                } catch let failure as CLIFailure {
                    check.problems.append(Problem(failure.message))
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
            throw CLIFailure(message: cannotReach(remote, error, credentials: "the push credentials"))
        }
    }

    /// "cannot reach remote 'origin': …; check the remote URL and <credentials> (…)": preflight says
    /// "credentials" (a dry run only warns), publishing a release made earlier "the push credentials".
    static func cannotReach(_ remote: String, _ error: any Error, credentials: String) -> String {
        "cannot reach remote '\(remote)': \((error as? GitError)?.message ?? "\(error)"); check the remote URL and \(credentials) (RELCTL_GIT_TOKEN or GITHUB_TOKEN for HTTPS, an SSH agent for SSH)"
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
            throw CLIFailure(message: "cannot read tag \(tag); check it with 'git show \(tag)'")
        }
        let short = shortBranch(branch)
        if let remoteTag = remoteRefs["refs/tags/\(tag)"] {
            if remoteTag == local.target { return .published }
            throw CLIFailure(message: "tag \(tag) on '\(remote)' is not the one made here (\(remoteTag.hex.prefix(12)) there, \(local.target.hex.prefix(12)) here): another release published \(tag) first and this clone's release was never published; delete the local release (git tag -d \(tag)), reset \(short) to '\(remote)/\(short)' after 'git fetch --tags \(remote)', and release again")
        }
        if let remoteHead = remoteRefs[branch] {
            guard try repository.contains(remoteHead) else {
                throw CLIFailure(message: "'\(remote)/\(short)' has commits this clone does not have; fetch them (git fetch \(remote)) and rerun 'relctl release --push'")
            }
            if try repository.isAncestor(tagCommit, of: remoteHead) { return .unpublished(branchOnRemote: true) }
            if try !repository.isAncestor(remoteHead, of: head) {
                throw CLIFailure(message: "\(tag) was released locally but '\(remote)/\(short)' has moved on without it; rebase onto it (git pull --rebase \(remote) \(short)), delete the local tag (git tag -d \(tag)) and its changelog section, and release again")
            }
        }
        return .unpublished(branchOnRemote: false)
    }

    /// Publishes a release: the branch first, then the tags, so the remote never holds a release tag whose
    /// commit is not on its branch (a tag-triggered store build would ship it). A failure leaves the release
    /// made locally; rerunning `relctl release --push` finds it and pushes what is missing.
    static func push(_ repository: Repository, branch: String, tags: [String], remote: String, environment: [String: String],
                     branchAlreadyThere: Bool = false) throws {
        let short = shortBranch(branch)
        let tag = tags.last ?? ""
        let rerun = "fix the cause (credentials, branch protection, network) and rerun 'relctl release --push', which finds the release made locally and only pushes"
        func push(_ ref: String) throws -> String? {
            do {
                let result = try repository.push(remote: remote, refspecs: ["\(ref):\(ref)"], environment: environment)
                return result.rejected.isEmpty ? nil : result.rejected.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: "; ")
            } catch {
                return error.message
            }
        }
        if !branchAlreadyThere, let why = try push(branch) {
            throw CLIFailure(message: "push of \(short) to '\(remote)' failed (\(why)); nothing was published, and the release \(tag) is committed and tagged locally: \(rerun)")
        }
        for name in tags {
            if let why = try push("refs/tags/\(name)") {
                throw CLIFailure(message: "\(short) is on '\(remote)' but the tag \(name) was refused (\(why)): \(rerun), or push the tag by hand: git push \(remote) refs/tags/\(name)")
            }
        }
    }
}
