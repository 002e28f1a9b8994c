# Two commands for a newcomer: `make run` and `make test`. Both set up .venv when needed.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP_RUN := $(VENV)/.installed-run
STAMP_DEV := $(VENV)/.installed-dev

.PHONY: run test lint bench migrate clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP_RUN): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(STAMP_DEV): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $@ $(STAMP_RUN)

run: $(STAMP_RUN)
	$(BIN)/python -m bot $(ARGS)

test: $(STAMP_DEV)
	$(BIN)/ruff check .
	$(BIN)/lint-imports --no-logo
	$(BIN)/mypy
	$(BIN)/python -m pytest -n auto $(PYTEST_ARGS)

migrate: $(STAMP_RUN)
	$(BIN)/python -m storage upgrade

lint: $(STAMP_DEV)
	$(BIN)/ruff check .
	$(BIN)/lint-imports --no-logo
	$(BIN)/mypy

bench: $(STAMP_DEV)
	@set -e; for f in benchmarks/bench_*.py; do m=$$(basename $$f .py); echo "== $$f"; $(BIN)/python -m benchmarks.$$m; done

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis .mypy_cache .import_linter_cache .grimp_cache
