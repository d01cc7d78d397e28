# transition-host: the commands a newcomer runs. `make test` and `make run` work on a fresh Debian
# machine: they install what is missing first (as root, or through sudo).

SWIFT ?= swift
PYTHON ?= python3
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
export DEBIAN_FRONTEND := noninteractive

.PHONY: deps test-deps build release run test lint format demo bench clean test-python test-browser test-editors previews

# json-c (and pkg-config to find it) from Debian's packages, only when missing.
deps:
	@if ! pkg-config --exists json-c 2>/dev/null; then \
	  echo "installing libjson-c-dev (json-c not found by pkg-config)"; \
	  $(SUDO) apt-get update && $(SUDO) apt-get install -y libjson-c-dev pkg-config; \
	fi

# The end-to-end tests drive the host with an LSP (Content-Length) client from PyPI: python-lsp-jsonrpc,
# installed only when it cannot be imported. Without python3 at all, that one test reports itself skipped.
test-deps:
	@if command -v $(PYTHON) >/dev/null 2>&1 && ! $(PYTHON) -c "import pylsp_jsonrpc" 2>/dev/null; then \
	  echo "installing python-lsp-jsonrpc (LSP-framed client for the end-to-end tests)"; \
	  $(PYTHON) -m pip install --quiet python-lsp-jsonrpc 2>/dev/null \
	  || $(PYTHON) -m pip install --quiet --break-system-packages python-lsp-jsonrpc 2>/dev/null \
	  || { $(SUDO) apt-get update && $(SUDO) apt-get install -y python3-pylsp-jsonrpc; }; \
	fi

build: deps
	$(SWIFT) build

# The built-in animators are products of their own: build them beside the binary, which auto-loads them.
BUILTIN_PLUGINS := PullDown Sheet MagicMove Flip SegueSlide

release: deps
	$(SWIFT) build -c release --product transition-host
	@for p in $(BUILTIN_PLUGINS); do $(SWIFT) build -c release --product TransitionPlugin$$p || exit 1; done

# Serve JSON-RPC on stdin/stdout (release build). Extra flags: make run ARGS="--log-level debug".
# stdout belongs to the protocol: everything the build prints goes to stderr.
run:
	@$(MAKE) --no-print-directory release >&2
	@exec "$$($(SWIFT) build -c release --show-bin-path)/transition-host" $(ARGS)

# The project's figures (docs/bench.md): release builds of the benchmark, the host and its five built-in plugins (the
# host auto-loads them; the plugin case loads PullDown from the build folder; the isolation cases start hosts with all
# five), the looping test fixture (the isolation cases' SIGTERM), the C json-c baselines of Benchmarks/c beside them,
# then the tables on stdout. Extra flags: make bench ARGS="--quick", ARGS="goals", ARGS="isolation".
bench: deps
	$(SWIFT) build -c release --product transition-bench
	$(MAKE) --no-print-directory release
	$(SWIFT) build -c release --product TestPluginFaultLoopAnimate
	@command -v $(CC) >/dev/null 2>&1 || { $(SUDO) apt-get update && $(SUDO) apt-get install -y gcc; }
	@bin="$$($(SWIFT) build -c release --show-bin-path)" && for p in jsonc-echo jsonc-sample timer-floor; do \
	  $(CC) -O2 -Wall -Wextra -o "$$bin/$$p" Benchmarks/c/$$p.c $$(pkg-config --cflags --libs json-c) || exit 1; done
	"$$($(SWIFT) build -c release --show-bin-path)/transition-bench" $(ARGS)

lint:
	$(SWIFT) format lint --strict --recursive Package.swift Sources Tests Plugins Examples Benchmarks

format:
	$(SWIFT) format --in-place --recursive Package.swift Sources Tests Plugins Examples Benchmarks

# Every test (debug build), then the style check.
test: deps test-deps
	$(SWIFT) build
	$(SWIFT) test
	$(MAKE) --no-print-directory test-python test-browser test-editors
	$(MAKE) --no-print-directory lint

# Plays every built-in animator through the real host: builds it (debug: the build `make test` reuses, and the demo
# runs in well under a second either way), then Examples/demo.py (Python 3, standard library only) sends the
# conversation in Examples/demo.jsonrpc and prints one table per transition. Exit status 0 when every transition ended
# as the conversation expects. Then one HTML preview per built-in animator (`previews`).
demo: deps
	@command -v $(PYTHON) >/dev/null 2>&1 || { echo "installing python3 (the demo's driver needs it)"; \
	  $(SUDO) apt-get update && $(SUDO) apt-get install -y python3; }
	$(SWIFT) build
	$(PYTHON) Examples/demo.py "$$($(SWIFT) build --show-bin-path)/transition-host"
	@$(MAKE) --no-print-directory previews

clean:
	rm -rf .build

# --- Python client, HTML previews (issue 7) ---
HOST_BIN = $$($(SWIFT) build --show-bin-path)/transition-host

# The Python client's tests and its three examples against the debug build. jsonrpcclient (PyPI) is only for the
# third-party-library example, installed when missing.
test-python:
	@$(PYTHON) -c "import jsonrpcclient" 2>/dev/null || $(PYTHON) -m pip install --quiet jsonrpcclient 2>/dev/null \
	  || $(PYTHON) -m pip install --quiet --break-system-packages jsonrpcclient
	cd Clients/python && TRANSITION_HOST_BIN="$(HOST_BIN)" $(PYTHON) -m unittest discover
	cd Clients/python && export TRANSITION_HOST_BIN="$(HOST_BIN)" && $(PYTHON) examples/render_json.py -o /dev/null \
	  && $(PYTHON) examples/drive_gesture.py && $(PYTHON) examples/jsonrpcclient_pipe.py

# render --format html of every built-in animator in headless Chromium (Debian's chromium, installed when missing).
test-browser:
	@command -v chromium >/dev/null 2>&1 || { $(SUDO) apt-get update && $(SUDO) apt-get install -y chromium; } \
	  || echo "chromium could not be installed: the browser tests will report themselves skipped"
	TRANSITION_HOST_BIN="$(HOST_BIN)" $(PYTHON) -m unittest discover -s Tests/Browser

# The editor recipes of docs/editors.md, cut from the page, in Neovim 0.7 (headless) and Emacs 28 (batch) against the
# debug build (Debian's neovim and emacs-nox, installed when missing).
test-editors:
	@{ command -v nvim >/dev/null 2>&1 && command -v emacs >/dev/null 2>&1; } \
	  || { $(SUDO) apt-get update && $(SUDO) apt-get install -y neovim emacs-nox; } \
	  || echo "neovim or emacs could not be installed: their recipe tests will report themselves skipped"
	TRANSITION_HOST_BIN="$(HOST_BIN)" $(PYTHON) -m unittest discover -s Tests/Editors

# One HTML preview per built-in animator (sample scene), written to build/previews/.
previews: build
	@mkdir -p build/previews && "$(HOST_BIN)" render --animator all --format html -o build/previews --quiet
	@echo "previews of every built-in animator: build/previews/<animator>.html (open in a browser)"
