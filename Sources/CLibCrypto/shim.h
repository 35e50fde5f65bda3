// OpenSSL's libcrypto (Debian: libssl-dev; macOS: Homebrew's openssl@3): the JWT signatures relctl sends to
// Google (RS256) and App Store Connect (ES256). Only RelctlCLI/Stores/JWTSigner.swift imports it.
#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/ecdsa.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
