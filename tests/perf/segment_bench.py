"""Combat Segment resolver benchmarks: in-process time per CS for 2, 20 and 200 combatants, and
requests/s of POST /v1/encounters/{id}/segments through gunicorn with Redis (one round trip a write)."""
from __future__ import annotations

import json
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import requests

from service.rules.tactical.combat_state import EncounterState
from service.rules.tactical.segment import resolve_segment
from tests.perf.http_bench import free_port, parse_wrk, start_gunicorn

ROOT = Path(__file__).resolve().parents[2]


def combatant(i: int) -> dict:
    """A padded swordsman; even ids on one side, odd on the other, lined up in pairs 4 ft apart."""
    return {"id": f"c{i}", "side": "red" if i % 2 else "blue",
            "attributes": {"STR": 13, "mSTA": 12, "CND": 12, "AGL": 12, "HRT": 11, "P-RES": 14, "CRD": 12},
            "mods": {"AWA": 1, "HRT": 0}, "dodge_dv": 20, "armor": [{"type": "padded"}],
            "weapons": [{"name": "sword", "av": 55, "parry": 35, "size": 6, "weight_class": "medium"}],
            "position": {"x": (i // 2) * 10, "y": (i % 2) * 4}, "facing": 180 if i % 2 else 0}


def encounter(n: int) -> tuple[dict, list[dict]]:
    people = [combatant(i) for i in range(n)]
    declarations = [{"combatant": f"c{i}", "action": "attack", "target": f"c{i + 1 if i % 2 == 0 else i - 1}"}
                    for i in range(n)]
    return {"combatants": people}, declarations


def resolve_times(sizes: tuple[int, ...] = (2, 20, 200), seconds: float = 2.0) -> list[dict]:
    """Mean milliseconds per CS resolved in process (events as JSON-ready dicts included)."""
    rows = []
    for n in sizes:
        state_json, declarations = encounter(n)
        state = EncounterState.from_dict(state_json)
        resolve_segment(state, declarations, random.Random(0))
        count, start = 0, time.perf_counter()
        while time.perf_counter() - start < seconds:
            resolve_segment(state, declarations, random.Random(count))
            count += 1
        rows.append({"combatants": n, "ms_per_segment": (time.perf_counter() - start) / count * 1000})
    return rows


def http_segments(seconds: int = 8, connections: int = 8, encounters: int = 32) -> dict:
    """wrk against POST /v1/encounters/{id}/segments on gunicorn + the embedded Redis, rotating encounters."""
    from service.sessions.connection import embedded_server

    with tempfile.TemporaryDirectory() as tmp:
        url, stop = embedded_server(str(Path(tmp) / "bench.db"))
        port = free_port()
        import os

        os.environ["REDIS_URL"] = url
        server = start_gunicorn("service.wsgi:app", port, 2)
        try:
            base = f"http://127.0.0.1:{port}"
            state_json, declarations = encounter(4)
            made = []
            for _ in range(encounters):
                body = requests.post(base + "/v1/encounters", json=state_json, timeout=10).json()
                requests.put(f"{base}/v1/encounters/{body['id']}/declarations",
                             headers={"Authorization": f"Bearer {body['token']}"},
                             json={"declarations": declarations}, timeout=10)
                made.append((body["id"], body["token"]))
            script = _lua(made, declarations)
            out = subprocess.run(["wrk", "-t1", f"-c{connections}", f"-d{seconds}s", "--latency", "-s", script,
                                  base + "/"], capture_output=True, text=True, check=True).stdout
            Path(script).unlink()
            return parse_wrk(out)
        finally:
            server.send_signal(signal.SIGTERM)
            server.wait(timeout=30)
            os.environ.pop("REDIS_URL", None)
            stop()


def _lua(made: list[tuple[str, str]], declarations: list[dict]) -> str:
    entries = ",".join(f'{{"{ident}", "{token}"}}' for ident, token in made)
    body = json.dumps({"declarations": declarations})
    script = tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False)
    script.write(f"""
local encounters = {{{entries}}}
local i = 0
local body = {json.dumps(body)}
request = function()
  i = i % #encounters + 1
  local e = encounters[i]
  return wrk.format("POST", "/v1/encounters/" .. e[1] .. "/segments",
    {{["Content-Type"] = "application/json", ["Authorization"] = "Bearer " .. e[2]}}, body)
end
""")
    script.close()
    return script.name


if __name__ == "__main__":
    print(json.dumps({"resolve": resolve_times(), "http": http_segments()}, indent=2), file=sys.stdout)
