"""A TypeScript integrator's view, with both generators' default flags: openapi-typescript turns
openapi.yaml into types, a program calling every operation with only the required fields through
openapi-fetch type-checks under `tsc --strict`, and runs against gunicorn + a Celery worker without a
single 5xx. Skips (saying why) without Node or the node tools (`make node-tools`)."""
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
from tests.client.ts_calls import program
from tests.load.stack import ROOT, start_stack

BIN = ROOT / "node_modules" / ".bin"
if not shutil.which("node") or not (BIN / "tsc").exists() or not (BIN / "openapi-typescript").exists():
    pytest.skip("Node.js or the node tools are missing (apt-get install nodejs npm; make node-tools)",
                allow_module_level=True)
pytestmark = pytest.mark.slow


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
