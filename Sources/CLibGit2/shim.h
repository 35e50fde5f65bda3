#ifndef RELCTL_CLIBGIT2_SHIM_H
#define RELCTL_CLIBGIT2_SHIM_H

#include <git2.h>

/*
 * What differs between the libgit2 versions relctl builds with (1.5 on Debian 12, 1.7-1.9 from Homebrew and
 * Debian 13) is kept here, behind LIBGIT2_VER_*, so the Swift code sees one API.
 */

/* git_libgit2_opts is C-variadic, which Swift cannot call: one wrapper per option used. */
static inline int relctl_git_enable_caching(int enabled) {
    return git_libgit2_opts(GIT_OPT_ENABLE_CACHING, enabled);
}
static inline int relctl_git_enable_strict_hash_verification(int enabled) {
    return git_libgit2_opts(GIT_OPT_ENABLE_STRICT_HASH_VERIFICATION, enabled);
}

/*
 * git_commit_create with one parent. libgit2 1.8.0 alone declared the parents as `git_commit * const parents[]`
 * (1.8.1 went back to `const git_commit *parents[]`), which Swift imports as another pointer type.
 */
static inline int relctl_git_commit_create_one_parent(
    git_oid *id, git_repository *repo, const char *update_ref, const git_signature *author,
    const git_signature *committer, const char *message_encoding, const char *message, const git_tree *tree,
    git_commit *parent) {
#if LIBGIT2_VER_MAJOR == 1 && LIBGIT2_VER_MINOR == 8 && LIBGIT2_VER_REVISION == 0
    git_commit *const parents[1] = { parent };
#else
    const git_commit *parents[1] = { parent };
#endif
    return git_commit_create(id, repo, update_ref, author, committer, message_encoding, message, tree, 1, parents);
}

#endif
