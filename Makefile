# relctl: the two set-up commands are `make demo` and `make test`.
# Both install libgit2-dev and pkg-config when they are missing (Debian/Ubuntu).

SWIFT ?= swift
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: deps build demo test bench clean

deps:
	@if ! command -v pkg-config >/dev/null 2>&1 || ! pkg-config --exists libgit2; then \
		echo "installing libgit2-dev and pkg-config"; \
		$(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq libgit2-dev pkg-config git; \
	fi
	@command -v git >/dev/null 2>&1 || { $(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq git; }

build: deps
	$(SWIFT) build

demo: deps
	$(SWIFT) build
	scripts/demo "$$($(SWIFT) build --show-bin-path)/relctl"

test: deps
	$(SWIFT) test

bench: deps
	$(SWIFT) build -c release
	scripts/bench "$$($(SWIFT) build -c release --show-bin-path)/relctl"

clean:
	rm -rf .build
