#ifndef RELCTL_CLIBGIT2_SHIM_H
#define RELCTL_CLIBGIT2_SHIM_H

#include <git2.h>

/* git_libgit2_opts is C-variadic, which Swift cannot call: one wrapper per option used. */
static inline int relctl_git_enable_caching(int enabled) {
    return git_libgit2_opts(GIT_OPT_ENABLE_CACHING, enabled);
}
static inline int relctl_git_enable_strict_hash_verification(int enabled) {
    return git_libgit2_opts(GIT_OPT_ENABLE_STRICT_HASH_VERIFICATION, enabled);
}
static inline int relctl_git_set_ssl_cert_locations(const char *file, const char *path) {
    return git_libgit2_opts(GIT_OPT_SET_SSL_CERT_LOCATIONS, file, path);
}

#endif
