# relctl: the two set-up commands are `make demo` and `make test`.
# Both install libgit2-dev and pkg-config when they are missing (Debian/Ubuntu).

SWIFT ?= swift
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: deps build release-build demo test test-plain opens sanitize asan tsan bench clean

deps:
	@if ! command -v pkg-config >/dev/null 2>&1 || ! pkg-config --exists libgit2; then \
		echo "installing libgit2-dev and pkg-config"; \
		$(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq libgit2-dev pkg-config git; \
	fi
	@command -v git >/dev/null 2>&1 || { $(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq git; }

build: deps
	$(SWIFT) build

# The binary to install and ship: optimised, the Swift runtime and Foundation linked in statically, so it runs
# where only glibc, libstdc++ and libgit2 are installed (no Swift toolchain); no $ORIGIN rpath (a dozen failed
# opens at every start). Prints its path.
RELEASE_FLAGS = -c release --static-swift-stdlib --disable-local-rpath
release-build: deps
	$(SWIFT) build $(RELEASE_FLAGS) --product relctl
	@echo "$$($(SWIFT) build $(RELEASE_FLAGS) --show-bin-path)/relctl"

demo: deps
	$(SWIFT) build
	scripts/demo "$$($(SWIFT) build --show-bin-path)/relctl"

# The whole suite: the plain debug run, the read-once check, then again under AddressSanitizer and
# ThreadSanitizer.
test: test-plain opens sanitize

test-plain: deps
	$(SWIFT) test

# A release dry run opens each version file once (strace; scripts/count-opens installs it when missing).
opens: deps
	scripts/count-opens --check 1 "$$($(SWIFT) build --show-bin-path)/relctl"

# The sanitizer runs use optimised builds (-c release, -enable-testing for @testable): a Swift buffer lent to
# C (withUnsafeBytes) is released right after its last use only when optimised, so a use-after-free past the
# closure shows up there and not in a debug build. Each has its own build folder.
SANITIZER_FLAGS = -c release -Xswiftc -enable-testing
sanitize: asan tsan

asan: deps
	LSAN_OPTIONS=suppressions=$(CURDIR)/.ci/lsan.supp ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:halt_on_error=1 \
		$(SWIFT) test $(SANITIZER_FLAGS) --sanitize=address --scratch-path .build/asan

tsan: deps
	TSAN_OPTIONS=halt_on_error=1 \
		$(SWIFT) test $(SANITIZER_FLAGS) --sanitize=thread --scratch-path .build/tsan

bench: release-build
	scripts/bench "$$($(SWIFT) build $(RELEASE_FLAGS) --show-bin-path)/relctl"

clean:
	rm -rf .build
