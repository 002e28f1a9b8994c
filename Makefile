# Two commands for a newcomer: `make run` and `make test`. Both set up .venv when needed.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP_RUN := $(VENV)/.installed-run
STAMP_DEV := $(VENV)/.installed-dev

.PHONY: run test lint bench migrate clean activity-sdk image-test

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP_RUN): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(STAMP_DEV): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $@ $(STAMP_RUN)

# The Discord Activity's Embedded App SDK (bot/adapters/web/activity: package.json and its
# lockfile), bundled by esbuild into one ES module the bot serves; built only when npm exists
# (without it everything else works, the Activity page says the SDK is missing).
ACTIVITY := bot/adapters/web/activity
ACTIVITY_SDK := bot/adapters/web/static/vendor/discord-sdk.js

activity-sdk:
	@if ! command -v npm >/dev/null 2>&1; then \
		echo "npm not found: the Discord Activity's SDK is not built (nothing else needs it)"; \
	elif ! $(MAKE) -s --no-print-directory $(ACTIVITY_SDK); then \
		echo "warning: the Discord Activity's SDK could not be built (npm registry?); the rest runs"; fi

$(ACTIVITY_SDK): $(ACTIVITY)/package.json $(ACTIVITY)/package-lock.json $(ACTIVITY)/sdk-entry.js
	cd $(ACTIVITY) && npm ci --no-audit --no-fund --ignore-scripts --loglevel=error && npm run --silent build

run: $(STAMP_RUN) activity-sdk
	$(BIN)/python -m bot $(ARGS)

test: $(STAMP_DEV) activity-sdk
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports --no-logo
	$(BIN)/mypy
	$(BIN)/python -m pytest -n auto $(PYTEST_ARGS)

migrate: $(STAMP_RUN)
	$(BIN)/python -m storage upgrade

lint: $(STAMP_DEV)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports --no-logo
	$(BIN)/mypy

bench: $(STAMP_DEV)
	@set -e; for f in benchmarks/bench_*.py; do m=$$(basename $$f .py); echo "== $$f"; $(BIN)/python -m benchmarks.$$m; done

# The container image (Dockerfile), built and started for real: docs/deploy.md. Needs root.
image-test:
	bash .ci/image-test.sh

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis .mypy_cache .import_linter_cache .grimp_cache
