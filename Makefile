# Muster: one command per chore. `make demo` and `make test` set everything up themselves.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
PG_URL ?= postgres://postgres@127.0.0.1:5432/muster
REDIS_URL_CI ?= redis://127.0.0.1:6379/15

.PHONY: setup demo test test-statistical test-postgres test-integration test-fuzz test-load \
        test-browser test-crawl test-runtime browser-deps lint format bench lock print-references clean

setup: $(STAMP)

# The lock pins every version (a constraint file, so a dependency new in pyproject.toml still
# installs before the next `make lock`).
$(STAMP): pyproject.toml requirements-dev.lock
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -c requirements-dev.lock -e '.[dev]'
	touch $(STAMP)

# Pin every runtime (requirements.lock: the image) and dev (requirements-dev.lock) version again.
LOCK_FLAGS := --python-version 3.11 --universal --custom-compile-command "make lock" --quiet
lock: setup
	$(VENV)/bin/uv pip compile pyproject.toml $(LOCK_FLAGS) -o requirements.lock
	$(VENV)/bin/uv pip compile pyproject.toml --extra dev $(LOCK_FLAGS) -o requirements-dev.lock

# The production install (requirements.lock, no dev extras) in a fresh virtualenv: a print job,
# the game-night packet, the post-battle tasks and `check --deploy` must work on it.
RUNTIME_VENV := var/runtime-venv
RUNTIME_PY := $(RUNTIME_VENV)/bin/python
PRODUCTION_ENV := MUSTER_PRODUCTION=true SECRET_KEY=$$($(PYTHON) -c 'import secrets; print(secrets.token_urlsafe(50))') \
  ALLOWED_HOSTS=muster.example.org CSRF_TRUSTED_ORIGINS=https://muster.example.org
test-runtime:
	rm -rf $(RUNTIME_VENV) var/runtime-smoke && mkdir -p var/runtime-smoke
	$(PYTHON) -m venv $(RUNTIME_VENV)
	$(RUNTIME_PY) -m pip install --quiet --upgrade pip
	$(RUNTIME_PY) -m pip install --quiet -r requirements.lock
	$(RUNTIME_PY) -m pip install --quiet --no-deps .
	$(RUNTIME_PY) -m pip check
	env -u DATABASE_URL -u REDIS_URL MUSTER_VAR_DIR=var/runtime-smoke \
	  $(RUNTIME_PY) tests/ops/runtime_smoke.py
	env -u DATABASE_URL -u REDIS_URL -u DEBUG MUSTER_VAR_DIR=var/runtime-smoke $(PRODUCTION_ENV) \
	  $(RUNTIME_PY) manage.py check --deploy --fail-level WARNING

demo: setup
	$(PY) manage.py migrate --noinput
	$(PY) manage.py seed_demo
	# ASGI (uvicorn), so the live table's event streams do not hold a worker each.
	$(PY) -m uvicorn config.asgi:application --host 127.0.0.1 --port 8000 --timeout-graceful-shutdown 2

test: setup
	$(PY) -m pytest -n 2 --dist loadfile -q

test-statistical: setup
	$(PY) -m pytest -n 2 -q -m statistical tests/rules

# The default suite again, on the machine's PostgreSQL instead of SQLite. tests/rules is left
# out: the rules engine is pure Python (no test there opens a database; a guard test says so),
# so a second run would repeat the same 2,000 tests for nothing.
test-postgres: setup
	DATABASE_URL=$(PG_URL) $(PY) -m pytest -n 2 --dist loadfile -q --ignore=tests/rules

# The whole-site crawls (tests/crawl, marker `crawl`): every page, link and form as every actor
# answers without a server error, and every form saved unchanged changes no row. On PostgreSQL.
test-crawl: setup
	DATABASE_URL=$(PG_URL) $(PY) -m pytest -n 2 --dist loadfile -q -m crawl tests/crawl

# Real PostgreSQL, real Redis, real worker processes; the fault tests start their own Redis.
test-integration: setup
	DATABASE_URL=$(PG_URL) REDIS_URL=$(REDIS_URL_CI) $(PY) -m pytest -q -m integration \
	  tests/integration tests/faults

# Schemathesis against /api/schema/ on a live server (bounded: FUZZ_EXAMPLES, default 25).
test-fuzz: setup
	$(PY) -m pytest -q -m fuzz tests/fuzz

# gunicorn on PostgreSQL under a bounded loopback load, and a short club night (uvicorn, Redis,
# a worker); both assert zero errors.
test-load: setup
	$(PY) -m pytest -q -m load tests/ops/test_load_bench.py tests/ops/test_club_night_bench.py \
	  tests/ops/test_live_bench.py

browser-deps:
	@command -v chromium >/dev/null || (apt-get update -q && apt-get install -y -q chromium)

test-browser: setup browser-deps
	$(PY) -m pytest -q -m browser tests/browser

lint: setup
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy
	$(VENV)/bin/mypy --config-file bench/mypy.ini

format: setup
	$(VENV)/bin/ruff format .
	$(VENV)/bin/ruff check --fix .

# Regenerate the printed documents' visual references (tests/printing/references/) on purpose,
# after a layout change: look at every new PNG before committing it.
print-references: setup
	$(PY) -m tests.printing.references

bench: setup
	@for script in bench/*.py; do $(PY) $$script || exit 1; done
	$(PY) bench/rules.py --house

clean:
	rm -rf $(VENV) var staticfiles .pytest_cache .mypy_cache .ruff_cache .hypothesis
