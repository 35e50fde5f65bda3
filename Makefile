# relctl: the two set-up commands are `make demo` and `make test`.
# Both install libgit2-dev, libssl-dev, pkg-config, git and curl when they are missing (Debian/Ubuntu).

SWIFT ?= swift
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: deps test-deps build release-build demo check test test-plain opens format-lint sanitize asan tsan bench clean release install uninstall

deps:
	@if ! command -v pkg-config >/dev/null 2>&1 || ! pkg-config --exists libgit2 || ! pkg-config --exists libcrypto; then \
		echo "installing libgit2-dev, libssl-dev and pkg-config"; \
		$(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq libgit2-dev libssl-dev pkg-config git curl; \
	fi
	@command -v curl >/dev/null 2>&1 || { $(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq curl; }
	@command -v git >/dev/null 2>&1 || { $(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq git; }

# What only the tests use: groff renders the man page, zsh and fish are asked for completions, node runs the
# seed's reference code for the gate's differential test, openssl makes the test keys of the store tests.
test-deps: deps
	@missing=""; \
	for pair in groff:groff-base zsh:zsh fish:fish node:nodejs openssl:openssl; do \
		command -v $${pair%%:*} >/dev/null 2>&1 || missing="$$missing $${pair#*:}"; \
	done; \
	if [ -n "$$missing" ]; then \
		echo "installing$$missing"; \
		$(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq $$missing; \
	fi

build: deps
	$(SWIFT) build

# The binary to install and ship: optimised, the Swift runtime and Foundation linked in statically, so it runs
# where only glibc, libstdc++ and libgit2 are installed (no Swift toolchain); no $ORIGIN rpath (a dozen failed
# opens at every start); linked by lld as a position-dependent executable: the Swift metadata's ~100,000 pointers
# then need no relocation at start (about 200 fewer copied pages and 1 ms less per command, README "Speed").
# scripts/link-order puts the libraries of libgit2's closure that bind the most symbols first in the search order
# (computed in the recipe, after deps has installed libgit2-dev). Prints its path.
RELEASE_FLAGS = -c release --static-swift-stdlib --disable-local-rpath -Xswiftc -use-ld=lld -Xlinker -no-pie
release-build: deps
	$(SWIFT) build $(RELEASE_FLAGS) $$(scripts/link-order) --product relctl
	@echo "$$($(SWIFT) build $(RELEASE_FLAGS) --show-bin-path)/relctl"

demo: deps
	$(SWIFT) build
	scripts/demo "$$($(SWIFT) build --show-bin-path)/relctl"

# The edit loop's check (one debug build; no sanitizer build, no libFuzzer build): the package and its tests built,
# the plain suite, which holds the golden transcripts, the differential tests and the seeded fuzz pass, then the
# read-once check. Not the gate: `make test` is (.ci/run).
check: test-deps format-lint
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build
	scripts/count-opens --check 1 "$$($(SWIFT) build --show-bin-path)/relctl"

# The toolchain's formatter (swift-format 6.3.1) in lint mode with the house configuration, .swift-format (4-space
# indentation, lines up to 160 characters, the rules the code keeps), held to a ratchet (scripts/format-lint): the
# findings per file, recorded in .ci/format-lint-baseline, may only go down, so new code is formatted and old code
# gets better as it is touched. `scripts/format-lint --record` lowers the baseline after a clean-up.
format-lint:
	SWIFT="$(SWIFT)" scripts/format-lint

# The whole suite: the plain debug run, the read-once check, then again under AddressSanitizer and
# ThreadSanitizer, then a short libFuzzer pass over every harness.
test: format-lint test-plain opens sanitize
	$(MAKE) fuzz FUZZ_SECONDS=10

test-plain: test-deps
	$(SWIFT) test

# A release dry run opens each version file once (strace; scripts/count-opens installs it when missing).
opens: deps
	scripts/count-opens --check 1 "$$($(SWIFT) build --show-bin-path)/relctl"

# The sanitizer runs use optimised builds (-c release, -enable-testing for @testable): a Swift buffer lent to
# C (withUnsafeBytes) is released right after its last use only when optimised, so a use-after-free past the
# closure shows up there and not in a debug build. Each has its own build folder.
SANITIZER_FLAGS = -c release -Xswiftc -enable-testing
sanitize: asan tsan

asan: test-deps
	LSAN_OPTIONS=suppressions=$(CURDIR)/.ci/lsan.supp:print_suppressions=0 ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:halt_on_error=1 \
		$(SWIFT) test $(SANITIZER_FLAGS) --sanitize=address --scratch-path .build/asan

tsan: test-deps
	TSAN_OPTIONS=halt_on_error=1 \
		$(SWIFT) test $(SANITIZER_FLAGS) --sanitize=thread --scratch-path .build/tsan

bench: release-build
	scripts/bench "$$($(SWIFT) build $(RELEASE_FLAGS) --show-bin-path)/relctl"

# make install [PREFIX=/usr/local] [DESTDIR=]: the static release binary (release-build), relctl.1 and the bash, zsh and fish completions
# (scripts/install generates the man page and the scripts with the binary it installs).
PREFIX ?= /usr/local
DESTDIR ?=

release: release-build

install: release-build
	scripts/install --prefix "$(PREFIX)" --destdir "$(DESTDIR)" "$$($(SWIFT) build $(RELEASE_FLAGS) --show-bin-path)/relctl"

uninstall:
	scripts/install --uninstall --prefix "$(PREFIX)" --destdir "$(DESTDIR)"

clean:
	rm -rf .build

# Fuzzing (README, "Fuzzing"): each harness for FUZZ_SECONDS under libFuzzer and AddressSanitizer, in its own build
# folder, linked with lld (gold fails on the instrumented objects). New inputs libFuzzer finds go to
# .build/fuzz-corpus/<target>, a crash to .build/fuzz-crash-<target>-*.
FUZZ_SECONDS ?= 20
FUZZ_SEED ?= 1
FUZZ_TARGETS = conventional-commit semver json editors config
.PHONY: fuzz fuzz-seeded
fuzz: deps
	$(SWIFT) build -c release --product relctl-fuzz -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING \
		-Xswiftc -Xclang-linker -Xswiftc -fuse-ld=lld --scratch-path .build/fuzz
	@for target in $(FUZZ_TARGETS); do \
		mkdir -p .build/fuzz-corpus/$$target; \
		echo "fuzzing $$target for $(FUZZ_SECONDS) s"; \
		RELCTL_FUZZ_TARGET=$$target .build/fuzz/release/relctl-fuzz -max_total_time=$(FUZZ_SECONDS) -timeout=10 \
			-detect_leaks=0 -print_final_stats=1 -artifact_prefix=.build/fuzz-crash-$$target- \
			.build/fuzz-corpus/$$target Fuzz/corpus/$$target || exit 1; \
	done

# The same harnesses as a plain seeded mutation driver, where libFuzzer is missing (FUZZ_SEED picks the run); the
# debug build the tests use, so nothing else is built.
fuzz-seeded: deps
	$(SWIFT) build --product relctl-fuzz
	"$$($(SWIFT) build --show-bin-path)/relctl-fuzz" all --seconds $(FUZZ_SECONDS) --seed $(FUZZ_SEED)

# make dist: the release archive relctl's own release publishes, relctl-<version>-linux-x86_64.tar.gz (the stripped
# release-build binary, its man page and completions) and its .sha256, in DIST_DIR (scripts/dist; README "make dist").
DIST_DIR ?= .build/dist
.PHONY: dist
dist: release-build
	scripts/dist "$$($(SWIFT) build $(RELEASE_FLAGS) --show-bin-path)/relctl" "$(DIST_DIR)"
