# transition-host: the commands a newcomer runs. `make test` and `make run` work on a fresh Debian
# machine: they install what is missing first (as root, or through sudo).

SWIFT ?= swift
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
export DEBIAN_FRONTEND := noninteractive

.PHONY: deps build release run test lint format demo bench clean

# json-c (and pkg-config to find it) from Debian's packages, only when missing.
deps:
	@if ! pkg-config --exists json-c 2>/dev/null; then \
	  echo "installing libjson-c-dev (json-c not found by pkg-config)"; \
	  $(SUDO) apt-get update && $(SUDO) apt-get install -y libjson-c-dev pkg-config; \
	fi

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release

# Serve JSON-RPC on stdin/stdout (release build).
run: release
	@exec "$$($(SWIFT) build -c release --show-bin-path)/transition-host" $(ARGS)

lint:
	$(SWIFT) format lint --strict --recursive Package.swift Sources Tests Plugins

format:
	$(SWIFT) format --in-place --recursive Package.swift Sources Tests Plugins

# Every test (debug build), then the style check.
test: deps
	$(SWIFT) build
	$(SWIFT) test
	$(MAKE) --no-print-directory lint

clean:
	rm -rf .build
