/* Nothing to call: linking this target makes libgit2's init skip the CA bundle (see SkipCA.c). */
