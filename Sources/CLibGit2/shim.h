#ifndef RELCTL_CLIBGIT2_SHIM_H
#define RELCTL_CLIBGIT2_SHIM_H

#include <git2.h>

/*
 * What differs between the libgit2 versions relctl builds with (1.5 on Debian 12, 1.7-1.9 from Homebrew and newer
 * distributions) is kept here, so the Swift code sees one API (guard a difference with LIBGIT2_VER_* when a cast
 * cannot bridge it).
 */

/* git_libgit2_opts is C-variadic, which Swift cannot call: one wrapper per option used. */
static inline int relctl_git_enable_caching(int enabled) {
    return git_libgit2_opts(GIT_OPT_ENABLE_CACHING, enabled);
}
static inline int relctl_git_enable_strict_hash_verification(int enabled) {
    return git_libgit2_opts(GIT_OPT_ENABLE_STRICT_HASH_VERIFICATION, enabled);
}
static inline int relctl_git_set_owner_validation(int enabled) {
    return git_libgit2_opts(GIT_OPT_SET_OWNER_VALIDATION, enabled);
}
static inline int relctl_git_set_ssl_cert_locations(const char *file, const char *path) {
    return git_libgit2_opts(GIT_OPT_SET_SSL_CERT_LOCATIONS, file, path);
}

/*
 * git_commit_create with one parent. libgit2 1.8.0, 1.8.1 and 1.8.3 declare the parents as
 * `git_commit * const parents[]`, every other version as `const git_commit *parents[]`; Swift imports the two as
 * different pointer types. The array goes through `void *`, which C converts to either without a warning.
 */
static inline int relctl_git_commit_create_one_parent(
    git_oid *id, git_repository *repo, const char *update_ref, const git_signature *author,
    const git_signature *committer, const char *message_encoding, const char *message, const git_tree *tree,
    git_commit *parent) {
    const git_commit *parents[1] = { parent };
    return git_commit_create(id, repo, update_ref, author, committer, message_encoding, message, tree, 1,
                             (void *)parents);
}

#endif
