# Two commands: `make run` serves the app, `make test` runs the whole suite.
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test serve bench clean

$(STAMP): pyproject.toml
	@command -v python3 >/dev/null || { echo "Python 3.11+ is needed"; exit 1; }
	@python3 -c "import ensurepip" 2>/dev/null || scripts/system-deps.sh
	python3 -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[test]'
	@touch $@

run: $(STAMP)
	$(BIN)/flask --app scorekeeper db upgrade
	$(BIN)/flask --app scorekeeper run --host 127.0.0.1 --port 5000

test: $(STAMP)
	scripts/system-deps.sh
	scripts/test.sh

serve: $(STAMP)
	$(BIN)/flask --app scorekeeper db upgrade
	$(BIN)/gunicorn --workers 1 --threads 8 --bind 127.0.0.1:8000 'scorekeeper:create_app()'

bench: $(STAMP)
	$(BIN)/python bench/bench.py

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis
