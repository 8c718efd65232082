# Vitrine: the two commands a new user runs are `make start` and `make test`.
# Both call `make install`, which installs only what is missing (see scripts/install.sh).
SHELL := /bin/bash
ROOT := $(abspath $(dir $(lastword $(MAKEFILE_LIST))))
TOOLS_NODE := $(ROOT)/.tools/node

# Node.js 24 is fetched into .tools/ when the system's Node is older than 22; every target then
# runs with it first on PATH, and native addons build against its headers (offline).
SYSTEM_NODE_MAJOR := $(shell node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
ifeq ($(shell [ "$(SYSTEM_NODE_MAJOR)" -lt 22 ] && echo old),old)
export PATH := $(TOOLS_NODE)/bin:$(PATH)
export npm_config_nodedir := $(TOOLS_NODE)
endif

.PHONY: install start test check lint format typecheck bench docs services clean fidelity fidelity-app faults

install:
	@bash scripts/install.sh

start: install
	@bin/vitrine serve

# The whole suite: lint, types, generated docs up to date, then every test (real Chromium,
# SQLite, PostgreSQL, Redis, s3rver). The test setup starts its own throwaway PostgreSQL and
# redis-server on free ports and stops them at the end (test/support/global-setup.ts).
test: install
	@$(MAKE) --no-print-directory check
	@npx vitest run
	@npx vitest run --config vitest.fidelity.config.ts

# The real-page fidelity suite (issue 32, test/fidelity/): real templates and libraries captured
# and compared with the same page after a long wait in plain Chromium. Not part of `make test`
# yet. FIDELITY_RUNS=20 runs it 20 times in a row and stops at the first failing run, whose
# images stay in test-output/fidelity/ (test/fidelity/README.md).
FIDELITY_RUNS ?= 1
fidelity: install
	@for run in $$(seq 1 $(FIDELITY_RUNS)); do \
	  echo "==> fidelity run $$run of $(FIDELITY_RUNS)"; rm -rf test-output/fidelity; \
	  npx vitest run --config vitest.fidelity.config.ts || { echo "==> fidelity run $$run failed"; exit 1; }; \
	done; echo "==> $(FIDELITY_RUNS) fidelity run(s) passed"

# The long fault scenarios (issue 41, test/faults/*.faults.test.ts): PostgreSQL down 20 s, the
# object store hanging 30 s, Redis with persistence, failing webhook receivers, SIGTERM to every
# process, Chromium killed and hung, a full image disk (as root: a tmpfs). Not part of `make
# test`, which runs the short ones (test/faults/dependency-outages.test.ts); test/faults/README.md.
faults: install
	@npx vitest run --config vitest.faults.config.ts

# Rebuilds the code-split app of the fidelity suite (test/fidelity/app-src -> pages/app, committed).
fidelity-app: install
	@npx vite build --config test/fidelity/app-src/vite.config.js

check: lint typecheck

lint:
	@npx biome check .

format:
	@npx biome check --write .

typecheck:
	@npx tsc -p tsconfig.json --noEmit

docs: install
	@node packages/server/src/docs/generate-docs.ts
	@node packages/cli/src/docs/generate-cli-docs.ts
	@node packages/sdk/scripts/generate-openapi-types.ts
	@node packages/server/scripts/docs-images.ts

bench: install
	@bash scripts/ensure-services.sh
	@node $$(grep -v "^#" bin/node-flags) bench/run.ts

services:
	@bash scripts/ensure-services.sh

clean:
	rm -rf node_modules packages/*/node_modules .tools data test-output
