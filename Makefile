# Referee: `make run` serves the API on :8000; `make test` runs every test. Both create .venv first.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PORT ?= 8000

.PHONY: install run test bench spec clean

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[dev]'
	touch $@

install: $(VENV)/.installed

run: install
	PORT=$(PORT) $(PY) -m service serve

test: install
	$(PY) -m pytest

bench: install
	command -v wrk >/dev/null || apt-get install -y -q wrk
	$(PY) -m tests.perf.run_bench

spec: install
	$(PY) -m service spec > openapi.yaml

clean:
	rm -rf $(VENV) var
