# Two commands: `make run` serves the app, `make test` runs the whole suite.
# `make run` and `make serve` listen on HOST:PORT: `make serve HOST=0.0.0.0` for phones on the LAN.
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1

.PHONY: run test check proof serve bench load screenshots catalogs lock format clean

# The exact versions of requirements.lock (every file's hash checked), then the app itself.
$(STAMP): pyproject.toml requirements.lock
	@command -v python3 >/dev/null || { echo "Python 3.11+ is needed"; exit 1; }
	@python3 -c "import ensurepip" 2>/dev/null || scripts/system-deps.sh
	python3 -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q --require-hashes -r requirements.lock
	$(BIN)/pip install -q --no-deps -e .
	@touch $@

run: $(STAMP)
	HOST=$(HOST) PORT=$(or $(PORT),5000) scripts/serve.sh run

test: $(STAMP)
	scripts/system-deps.sh
	scripts/test.sh

# The fast lane, a few minutes: ruff, the engine, and the web and API tests on SQLite alone (no
# browser, no PostgreSQL, no Redis, no proofs). `make test` is what CI runs.
check: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	TEST_POSTGRES_URL= TEST_REDIS_URL= $(BIN)/python -m pytest -q -n 2 --dist worksteal tests/games tests/api tests/web \
		tests/test_architecture.py tests/test_catalogs.py

# The proofs alone (they also run in `make test`): fuzzing, races, kill -9; prints the figures.
proof: $(STAMP)
	scripts/system-deps.sh
	scripts/test.sh -m proof tests/proof

serve: $(STAMP)
	HOST=$(HOST) PORT=$(or $(PORT),8000) scripts/serve.sh serve

# The translations: every marked text of the code into each language's catalog (new texts arrive
# empty, for a translator; `make test` fails until every one is translated). README "Translations".
catalogs: $(STAMP)
	scripts/catalogs.sh update

# requirements.lock anew from pyproject.toml (after changing a dependency there): the newest versions
# its bounds allow, each with its files' hashes. Commit both.
lock: $(STAMP)
	$(BIN)/uv pip compile pyproject.toml --extra test --generate-hashes --python-version 3.11 --upgrade \
		-o requirements.lock -q

# The code laid out as ruff lays it out (`make test` fails on any file it would change).
format: $(STAMP)
	$(BIN)/ruff format .

bench: $(STAMP)
	$(BIN)/python bench/bench.py

# A club night against a real gunicorn (issue 19): SQLite with 1 worker, then PostgreSQL with 2 and
# Redis; the script starts and stops what it needs. `make load LOAD_ARGS="--only sqlite --seconds 30"`.
load: $(STAMP)
	scripts/system-deps.sh
	$(BIN)/python bench/load.py $(LOAD_ARGS)

# The README's pictures, taken by the browser test that plays the table they show.
screenshots: $(STAMP)
	scripts/system-deps.sh
	SCREENSHOTS=docs/screenshots $(BIN)/python -m pytest -q tests/browser/test_screenshots.py

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis
