/* The same floor in C (scripts/bench): what loading and initialising Debian's libgit2 costs without Swift. */
#include <git2.h>
#include <stdio.h>
#include <string.h>

/* Skip the CA bundle in git_libgit2_init, as relctl defers it (see Sources/SkipCA/SkipCA.c). Link with -rdynamic. */
int mbedtls_x509_crt_parse_file(void *chain, const char *path) { (void)chain; (void)path; return 0; }
int mbedtls_x509_crt_parse_path(void *chain, const char *path) { (void)chain; (void)path; return 0; }

int main(int argc, char **argv) {
    git_libgit2_init();
    if (argc == 4 && strcmp(argv[1], "log") == 0) {
        git_repository *repository; git_revwalk *walk; git_oid oid; char ref[256];
        snprintf(ref, sizeof ref, "refs/tags/%s", argv[3]);
        if (git_repository_open(&repository, argv[2]) || git_revwalk_new(&walk, repository) ||
            git_revwalk_push_head(walk) || git_revwalk_hide_ref(walk, ref)) { fputs("floor: cannot walk\n", stderr); return 1; }
        while (git_revwalk_next(&oid, walk) == 0) {
            git_commit *commit;
            if (git_commit_lookup(&commit, repository, &oid)) { fputs("floor: cannot read a commit\n", stderr); return 1; }
            fputs(git_commit_message(commit), stdout); fputc('\n', stdout);
            git_commit_free(commit);
        }
        return 0;
    }
    puts("floor 1");
    return 0;
}
