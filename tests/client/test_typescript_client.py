"""A TypeScript integrator's view, with both generators' default flags: openapi-typescript turns
openapi.yaml into types, a program calling every operation with only the required fields through
openapi-fetch type-checks under `tsc --strict`, and runs against gunicorn + a Celery worker without a
single 5xx. Issue 24: a second strict program (tests/client/ts_walk.py) walks every ruleset's encounter
(create, add, declare, stream, two steps with If-Match, log, undo) and a simulation with no cast, each
step's events narrowed by `switch (ev.type)` down to `never`. Skips (saying why) without Node or the node
tools (`make node-tools`)."""
from __future__ import annotations

import json
import shutil
import subprocess
import time

import pytest
import requests
import yaml

from service.api.encounters.schemas import EXAMPLE_CREATE, EXAMPLE_DECLARATIONS
from service.api.simulations.views import EXAMPLE as SIMULATION
from service.rules import registry
from tests.client import ts_walk
from tests.client.ts_calls import program
from tests.load.stack import ROOT, start_stack

BIN = ROOT / "node_modules" / ".bin"
if not shutil.which("node") or not (BIN / "tsc").exists() or not (BIN / "openapi-typescript").exists():
    pytest.skip("Node.js or the node tools are missing (apt-get install nodejs npm; make node-tools)",
                allow_module_level=True)
pytestmark = pytest.mark.slow
# Rulesets without their own encounter resource yet (/v1/{ruleset}/encounters, issue 24 item 1), so the walk
# leaves them out; pinned so that each one that gains it is walked at once (tactical may use the shared
# /v1/encounters until it has its own).
KNOWN_UNWALKED: list[str] = []


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    running = start_stack(tmp_path_factory.mktemp("ts-stack"), worker=True, REFEREE_RATE_LIMIT="off",
                          GUNICORN_WORKERS="2", REFEREE_SSE_MAX_SECONDS="2")
    yield running.url
    running.close()


def run(*command: str, cwd=ROOT) -> str:
    done = subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def test_every_operation_type_checks_and_runs_with_only_required_fields(server, tmp_path):
    work = ROOT / "var" / f"ts-client-{tmp_path.name}"  # inside the project, so node_modules resolve
    work.mkdir(parents=True, exist_ok=True)
    try:
        run(str(BIN / "openapi-typescript"), str(ROOT / "openapi.yaml"), "-o", str(work / "schema.d.ts"))
        ids, token = resources(server)
        spec = yaml.safe_load((ROOT / "openapi.yaml").read_text(encoding="utf-8"))
        (work / "calls.mts").write_text(program(spec, server, ids, token), encoding="utf-8")
        run(str(BIN / "tsc"), "--strict", "--noUnusedLocals", "--module", "nodenext", "--moduleResolution",
            "nodenext", "--target", "es2022", "calls.mts", cwd=work)
        statuses = json.loads(run("node", "calls.mjs", cwd=work).strip().splitlines()[-1])
    finally:
        shutil.rmtree(work, ignore_errors=True)
    operation_ids = {op["operationId"] for item in spec["paths"].values() for op in item.values()
                     if isinstance(op, dict) and "operationId" in op}
    assert set(statuses) == operation_ids
    assert all(status < 500 for status in statuses.values()), statuses
    assert statuses["createEncounter"] == 201 and statuses["getEncounter"] == 200, statuses


def resources(base: str) -> tuple[dict[str, str], str]:
    """An encounter with a resolved segment (for undo) and a finished simulation (for its plots)."""
    created = requests.post(base + "/v1/encounters", json=EXAMPLE_CREATE, timeout=10).json()
    auth = {"Authorization": f"Bearer {created['token']}"}
    segment = requests.post(f"{base}/v1/encounters/{created['id']}/segments", headers=auth, timeout=10,
                            json={"seed": 1, "declarations": EXAMPLE_DECLARATIONS["declarations"]})
    assert segment.status_code == 201, segment.text
    job = requests.post(base + "/v1/simulations", json={**SIMULATION, "trials": 500}, timeout=10).json()
    deadline = time.monotonic() + 60
    while requests.get(f"{base}/v1/simulations/{job['id']}", timeout=10).json()["state"] != "done":
        assert time.monotonic() < deadline, "the simulation did not finish"
        time.sleep(0.2)
    return {"encounter_id": created["id"], "job_id": job["id"]}, created["token"]


def test_every_rulesets_encounter_and_a_simulation_walk_in_strict_typescript(server, tmp_path):
    spec = yaml.safe_load((ROOT / "openapi.yaml").read_text(encoding="utf-8"))
    plan, unwalked = ts_walk.walks(spec, {r.id: r.terms["steps"] for r in registry.all_rulesets()})
    assert unwalked == KNOWN_UNWALKED
    source = ts_walk.program(spec, server, plan, {**SIMULATION, "trials": 500})
    assert ts_walk.casts(source) == []
    work = ROOT / "var" / f"ts-walk-{tmp_path.name}"  # inside the project, so node_modules resolve
    work.mkdir(parents=True, exist_ok=True)
    try:
        run(str(BIN / "openapi-typescript"), str(ROOT / "openapi.yaml"), "-o", str(work / "schema.d.ts"))
        (work / "walk.mts").write_text(source, encoding="utf-8")
        run(str(BIN / "tsc"), "--strict", "--noUnusedLocals", "--module", "nodenext", "--moduleResolution",
            "nodenext", "--target", "es2022", "walk.mts", cwd=work)  # 0 type errors, or it fails here
        summary = json.loads(run("node", "walk.mjs", cwd=work).strip().splitlines()[-1])
    finally:
        shutil.rmtree(work, ignore_errors=True)
    for walk in plan:
        walked = summary[walk.ruleset]
        assert walked["stepped"] > 0 and walked["logged"] >= walked["stepped"], walked
        assert walked["streamed"] >= walked["stepped"], walked  # the stream opened before the steps got them
    assert summary["simulation"] == {"trials": 500, "done": 1}
