/* libgit2 1.5 on Debian (mbedTLS) parses the whole system CA bundle in git_libgit2_init. relctl defers that to
   its first network call (DeferredCertificates); the floor skips it, so that it measures what relctl cannot
   avoid. The executable's own definitions come first in the dynamic linker's search, so libgit2 calls these. */
int mbedtls_x509_crt_parse_file(void *chain, const char *path) { (void)chain; (void)path; return 0; }
int mbedtls_x509_crt_parse_path(void *chain, const char *path) { (void)chain; (void)path; return 0; }
