import CLibGit2
let _libgit2Version = LIBGIT2_VER_MAJOR
