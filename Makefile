# Muster: one command per chore. `make demo` and `make test` set everything up themselves.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
PG_URL ?= postgres://postgres@127.0.0.1:5432/muster
REDIS_URL_CI ?= redis://127.0.0.1:6379/15

.PHONY: setup demo test test-statistical test-postgres test-integration test-fuzz test-load \
        test-browser browser-deps lint format bench print-references clean

setup: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

demo: setup
	$(PY) manage.py migrate --noinput
	$(PY) manage.py seed_demo
	$(PY) manage.py runserver 127.0.0.1:8000

test: setup
	$(PY) -m pytest -n 2 --dist loadfile -q

test-statistical: setup
	$(PY) -m pytest -n 2 -q -m statistical tests/rules

# The whole default suite again, on the machine's PostgreSQL instead of SQLite.
test-postgres: setup
	DATABASE_URL=$(PG_URL) $(PY) -m pytest -n 2 --dist loadfile -q

# Real PostgreSQL, real Redis, real worker processes; the fault tests start their own Redis.
test-integration: setup
	DATABASE_URL=$(PG_URL) REDIS_URL=$(REDIS_URL_CI) $(PY) -m pytest -q -m integration \
	  tests/integration tests/faults

# Schemathesis against /api/schema/ on a live server (bounded: FUZZ_EXAMPLES, default 25).
test-fuzz: setup
	$(PY) -m pytest -q -m fuzz tests/fuzz

# gunicorn on PostgreSQL under a bounded loopback load; asserts zero errors.
test-load: setup
	$(PY) -m pytest -q -m load tests/ops/test_load_bench.py

browser-deps:
	@command -v chromium >/dev/null || (apt-get update -q && apt-get install -y -q chromium)

test-browser: setup browser-deps
	$(PY) -m pytest -q -m browser tests/browser

lint: setup
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy

format: setup
	$(VENV)/bin/ruff format .
	$(VENV)/bin/ruff check --fix .

# Regenerate the printed documents' visual references (tests/printing/references/) on purpose,
# after a layout change: look at every new PNG before committing it.
print-references: setup
	$(PY) -m tests.printing.references

bench: setup
	@for script in bench/*.py; do $(PY) $$script || exit 1; done

clean:
	rm -rf $(VENV) var staticfiles .pytest_cache .mypy_cache .ruff_cache .hypothesis
