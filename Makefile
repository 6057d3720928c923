# Kindly: two commands do all the set-up.
#   make run   - install what is missing, build, migrate, demo data, Firebase Auth emulator + server
#   make test  - install what is missing, then every check against PostgreSQL and Redis on 127.0.0.1
#                (and the tests marked `sqlite` once more on SQLite, the embedded default of make run)
SHELL := /bin/bash
.DEFAULT_GOAL := help

PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
PY := $(VENV)/bin/python
STAMPS := .stamps
# Python writes the bytecode of what it imports (__pycache__, ignored by git) even where the shell says
# not to (PYTHONDONTWRITEBYTECODE, set on this machine): pip installs without compiling (below), so
# without this every process recompiled Django and the rest on import, 5 of manage.py check's 7.5 s,
# and make test starts dozens (xdist workers, Celery workers, Daphne, Gunicorn, manage.py).
unexport PYTHONDONTWRITEBYTECODE
TEST_ENV := DJANGO_SETTINGS_MODULE=marketplace.settings.test \
	DATABASE_URL=$${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/kindly} \
	REDIS_URL=$${REDIS_URL:-redis://127.0.0.1:6379/0}

.PHONY: help run test install python-deps node-deps chromium services lint lint-python lint-ts lint-eslint lint-format lint-catalogues typecheck types-check \
	api-types build vitest pytest pytest-sqlite pytest-browser messages

help:
	@echo "make run   - start Kindly locally on http://127.0.0.1:8000 (demo data, Firebase Auth emulator)"
	@echo "make test  - run every check (lint, type check, build, unit, API, websocket, browser)"

$(STAMPS):
	@mkdir -p $(STAMPS)

$(STAMPS)/python: requirements.txt requirements-dev.txt | $(STAMPS)
	@test -x $(PY) || { echo "==> Creating the Python environment $(VENV) with $(PYTHON) (a few seconds)..."; \
		$(PYTHON) -m venv $(VENV); }
	@echo "==> Installing the Python packages (Django, Channels, Daphne, pytest, Playwright... from"
	@echo "    requirements-dev.txt) into $(VENV): about 2-3 minutes the first time."
	$(PY) -m pip install --quiet --upgrade pip
# --no-compile: Python compiles a module when it is first imported, only those the project uses (and
# keeps it: unexport above);
# pip compiling every file of every package took 40 of its 95 s here.
	$(PY) -m pip install --quiet --no-compile -r requirements-dev.txt
	@echo "==> Python packages installed."
	@touch $@

$(STAMPS)/node: package.json package-lock.json | $(STAMPS)
	@echo "==> Installing the Node packages (React, Vite, TypeScript, the Firebase emulator... from"
	@echo "    package-lock.json) into node_modules: about 1-2 minutes the first time. npm downloads and"
	@echo "    unpacks them with a spinner on a terminal, then says how many it added."
# loglevel notice (npm's default), not error: at error npm printed nothing at all for minutes.
# --ignore-scripts: of the four packages with an install script, re2 (an optional dependency of the
# Firebase CLI's hosting server, which the Auth emulator does not use; the CLI runs without it) finds
# no prebuilt binary offline and compiles itself from C++: 166 s instead of 88 s from an empty cache.
# The other three do nothing here: esbuild's checks its binary (it runs from its platform package),
# protobufjs's checks versions, @firebase/util's reads FIREBASE_WEBAPP_CONFIG, which no build sets.
	npm ci --prefer-offline --no-audit --no-fund --loglevel=notice --ignore-scripts
	@echo "==> Node packages installed."
	@touch $@

python-deps: $(STAMPS)/python
node-deps: $(STAMPS)/node
install: python-deps node-deps

# Debian's Chromium for the browser tests (Playwright drives it; never `playwright install`): its headless
# shell runs the tests (conftest.py), the full browser takes the screenshots and Lighthouse's measures.
chromium:
	@{ command -v chromium && command -v chromium-headless-shell; } >/dev/null 2>&1 || { \
		echo "Installing Chromium and its headless shell from Debian..."; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-headless-shell >/dev/null; }

services:
	@scripts/services.sh

# The build is a file, made again only when one of its sources is newer (the islands and their
# catalogues, the configs, the packages): make test's build stage makes it, and the pytest stages that
# need it no longer build it twice more (14 s each).
BUILD_SOURCES := $(shell find frontend -type f) vite.config.js lingui.config.js lingui.islands.config.js \
	tsconfig.json package.json package-lock.json
static/dist/manifest.json: $(BUILD_SOURCES) $(STAMPS)/node
	npx --no-install vite build --logLevel warn

build: static/dist/manifest.json

lint: lint-ts lint-python typecheck types-check

lint-python: python-deps
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/lint-imports
	@# Every word of every template is marked for translation (docs/i18n.md); needs no database or Redis.
	$(PY) -m pytest -q -p no:cacheprovider --noconftest marketplace/tests/test_i18n_templates.py

# ESLint (typescript-eslint, react-hooks, jsx-a11y, lingui: eslint.config.js), Prettier (.prettierrc.json),
# and the islands' catalogues: every message extracted, none without Spanish (scripts/i18n-check.sh).
# Three targets, so that make lint -j runs them side by side with the others (ESLint alone is ~40 s).
lint-ts: lint-eslint lint-format lint-catalogues

lint-eslint: node-deps
	npm run --silent lint

lint-format: node-deps
	npm run --silent format:check

lint-catalogues: node-deps
	scripts/i18n-check.sh

typecheck: node-deps
	npx --no-install tsc --noEmit -p tsconfig.json

# frontend/lib/api-schema.ts (the API schema) and frontend/lib/rules.generated.ts (the server's limits
# and messages, manage.py export_rules) are generated: they must match.
types-check: python-deps node-deps
	@scripts/api-types.sh --check

# Rewrite both after a serializer or rule change (then commit them).
api-types: python-deps node-deps
	@scripts/api-types.sh

# The Spanish catalogue (docs/i18n.md): makemessages collects every marked string of the templates and
# the Python code into locale/es/LC_MESSAGES/django.po (new ones untranslated, to be written against
# docs/glossary-es.md), compilemessages writes django.mo. Both files are committed, so make run needs no
# gettext; core/tests/test_catalogue.py fails when a marked string has no Spanish or the .mo is stale.
MESSAGES_IGNORE := --ignore 'static/*' --ignore 'staticfiles/*' --ignore 'frontend/*' --ignore 'bench/*' \
	--ignore 'scripts/*' --ignore 'node_modules/*'
# The islands have their own catalogues (frontend/locales/{en,es}/messages.po, Lingui's extractor): new
# messages arrive there with an empty msgstr, to be written the same way; the build compiles them.
messages: python-deps node-deps
	$(PY) manage.py makemessages -l es --add-location file --no-obsolete $(MESSAGES_IGNORE)
	$(PY) manage.py compilemessages -l es
	npm run --silent i18n:extract

# Unit tests of frontend/lib and frontend/components (Vitest, Testing Library, jsdom).
vitest: node-deps
	npx --no-install vitest run

# pytest-xdist: PYTEST_WORKERS processes (one more than the cores by default), each with a test database and a
# Redis database of its own (pytest-django; marketplace/settings/workers.py), free ports for every
# server it starts; the tests that use the Firebase Auth emulator run in one worker (--dist loadgroup,
# marketplace/testing/firebase.py), which starts it once. The browser tests mostly wait (pages, sockets, servers starting), so they run
# BROWSER_WORKERS processes, each with its own Chromium, live server and Firebase emulator.
# The PostgreSQL stage waits on its servers (Celery, SMTP, Daphne, the emulator) a quarter of the
# time: one process more than the cores took 421 s instead of 469 s here.
PYTEST_WORKERS ?= $(shell echo $$(( $$(nproc) + 1 )))
SQLITE_WORKERS ?= auto
BROWSER_WORKERS ?= 3

pytest: python-deps services build
	$(TEST_ENV) $(VENV)/bin/pytest --create-db -m "not browser" -q -n $(PYTEST_WORKERS) --dist loadgroup --durations=10

# `make run` uses SQLite: the tests of database-specific queries and the schemathesis suite
# (marked `sqlite`) run on it too, in memory (one per xdist worker, as PostgreSQL's test databases); Redis as above.
pytest-sqlite: python-deps services
	DJANGO_SETTINGS_MODULE=marketplace.settings.test DATABASE_URL=sqlite:///:memory: \
		REDIS_URL=$${REDIS_URL:-redis://127.0.0.1:6379/0} $(VENV)/bin/pytest --create-db -m "sqlite and not browser" -q \
		-n $(SQLITE_WORKERS)

# Browser tests run as their own pytest command: Playwright's sync API owns an event loop.
# make test runs them right after the PostgreSQL stage and takes over its test databases
# (BROWSER_DB=--reuse-db, scripts/test.sh): the same migrations, just applied, every test's rows
# rolled back or flushed; each worker skips its ~10 CPU-s of migrating. On its own, it makes them anew.
BROWSER_DB ?= --create-db
pytest-browser: python-deps services build chromium
	$(TEST_ENV) DJANGO_ALLOW_ASYNC_UNSAFE=true $(VENV)/bin/pytest $(BROWSER_DB) -m browser -q -n $(BROWSER_WORKERS) --dist loadgroup --durations=10; \
		status=$$?; if [ $$status -eq 5 ]; then echo "No browser tests collected."; exit 0; fi; exit $$status

# Each stage in turn, then the time each took (scripts/test.sh).
test:
	@scripts/test.sh

run: install build
	@scripts/run.sh
