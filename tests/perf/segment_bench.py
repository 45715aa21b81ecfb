"""Encounter step benchmarks: in-process time per step as the crowd grows (2 to 2,000 combatants, every
ruleset), and requests/s of POST /v1/encounters/{id}/segments through gunicorn with Redis for every ruleset,
4 combatants, beside the bare Flask endpoint in the same run (issue 27, items 2 and 5)."""
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

from service.rules.errors import RulesError
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


def crowd(ruleset: str, n: int) -> tuple[list[dict], list[dict]]:
    """`n` combatants of `ruleset` in facing pairs, each attacking the other, and their declarations; built
    to last (ars-magica's fighters wear plate and hit weakly) so a stored encounter takes many steps."""
    pairs = range(n // 2)
    if ruleset == "tactical":
        state, declarations = encounter(n)
        return state["combatants"], declarations
    if ruleset == "ars-magica":
        people = [{"id": f"{side}-{i}", "side": side, "weapon": weapon, "abilities": {"weapon": 0}, "armor": "plate",
                   "characteristics": {"dex": 1, "str": 0, "stm": 3}} for i in pairs
                  for side, weapon in (("red", "longsword"), ("blue", "mace"))]
        return people, [{"combatant": f"{a}-{i}", "action": "attack", "target": f"{b}-{i}"} for i in pairs
                        for a, b in (("red", "blue"), ("blue", "red"))]
    if ruleset == "runequest-house":
        from tests.perf.ruleset_runequest_house import fighter
        people = [fighter(f"{side}-{i}", side, 8 + (i + k) % 10) for i in pairs for k, side in enumerate(("red", "blue"))]
        return people, [{"combatant": f"{a}-{i}", "actions": [{"type": "attack", "target": f"{b}-{i}", "weapon": 0},
                                                             {"type": "parry"}]}
                        for i in pairs for a, b in (("red", "blue"), ("blue", "red"))]
    if ruleset == "war-and-combat":
        people = [{"id": f"{side}{i}", "side": "north" if side == "n" else "south", "fighter_rank": 4 + i % 3,
                   "strength": 11, "size": 10, "weapons": [{"name": "sword", "skill": 5}],
                   "position": {"q": 0 if side == "n" else 1, "r": i}, "facing": 0 if side == "n" else 3}
                  for i in pairs for side in "ns"]
        return people, [{"combatant": f"{a}{i}", "action": "engage", "target": f"{b}{i}"} for i in pairs
                        for a, b in (("n", "s"), ("s", "n"))]
    people = [{"id": f"c{i}", "side": "red" if i % 2 else "blue", "physical_rank": 5, "mental_rank": 4,
               "xposures": {"attack": 4, "parry": 2}} for i in range(n)]
    return people, [{"combatant": f"c{i}", "action": "attack", "target": f"c{i ^ 1}", "defence": "parry"}
                    for i in range(n)]


RULESETS = ("tactical", "war-and-combat", "ars-magica", "runequest-house", "smoting")


def step_costs(sizes: tuple[int, ...] = (2, 20, 200, 2000), budget: float = 1.0) -> list[dict]:
    """CPU milliseconds of one step (`resolve_once`: read the JSON state, check the declarations, resolve,
    write the JSON state) for each ruleset and crowd size, the best of as many steps as `budget` CPU-seconds
    allow (at least two): what a worker spends on the rules of a stored step, beside the HTTP and Redis
    costs that do not grow with the crowd."""
    from service.sessions.steps import resolve_once

    rows = []
    for ruleset in RULESETS:
        row: dict = {"ruleset": ruleset}
        for n in sizes:
            people, declarations = crowd(ruleset, n)
            state = {"combatants": people}
            best, spent, count = float("inf"), 0.0, 0
            try:
                resolve_once(ruleset, state, declarations, 0)
            except RulesError as error:  # past the ruleset's own bound on a crowd
                row[n] = str(error)
                continue
            while count < 2 or spent < budget:
                start = time.process_time()
                resolve_once(ruleset, state, declarations, count)
                took = time.process_time() - start
                best, spent, count = min(best, took), spent + took, count + 1
            row[n] = best * 1000
        rows.append(row)
    return rows


def step_cost_table(rows: list[dict]) -> str:
    sizes = [key for key in rows[0] if key != "ruleset"]
    lines = ["| one step in process (read, check, resolve, write), CPU ms | "
             + " | ".join(f"{n:,} combatants" for n in sizes) + " |", "|---|" + "---:|" * len(sizes)]
    for row in rows:
        lines.append(f"| {row['ruleset']} | " + " | ".join(
            f"{row[n]:,.2f}" if isinstance(row[n], float) else f"refused ({row[n]})" for n in sizes) + " |")
    return "\n".join(lines)


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


STEP_SCRIPT = """
local encounters = {{{entries}}}
local i = 0
local body = {body}
request = function()
  i = i % #encounters + 1
  local e = encounters[i]
  return wrk.format("POST", "/v1/encounters/" .. e[1] .. "/segments",
    {{["Content-Type"] = "application/json", ["Authorization"] = "Bearer " .. e[2]}}, body)
end
"""


def http_steps(rulesets: tuple[str, ...] = RULESETS, encounters: int = 300, seconds: int = 2, rounds: int = 3,
               connections: int = 16) -> list[dict]:
    """Stored steps through gunicorn + the embedded Redis, every ruleset with 4 combatants, beside the bare
    endpoint, measured in `rounds` interleaved rounds (best kept). wrk turns over `encounters` distinct
    encounters per ruleset, so no request waits for another's write to the same encounter (no 409)."""
    from service.sessions.connection import embedded_server
    from tests.perf.http_bench import RUNS, TO_HIT, run_wrk

    with tempfile.TemporaryDirectory() as tmp:
        url, stop = embedded_server(str(Path(tmp) / "steps.db"))
        ports = free_port(), free_port()
        servers = [start_gunicorn("tests.perf.bare_app:app", ports[0], 2),
                   start_gunicorn("service.wsgi:app", ports[1], 2, REDIS_URL=url, REFEREE_MAX_ENCOUNTERS_PER_CLIENT="0")]
        try:
            base = f"http://127.0.0.1:{ports[1]}"
            scenarios = [("bare Flask JSON endpoint", f"http://127.0.0.1:{ports[0]}/bare", TO_HIT)]
            for ruleset in rulesets:
                people, declarations = crowd(ruleset, 4)
                made = []
                for _ in range(encounters):
                    body = requests.post(base + "/v1/encounters", json={"ruleset": ruleset, "combatants": people},
                                         timeout=30).json()
                    made.append((body["id"], body["token"]))
                script = Path(tmp) / f"{ruleset}.lua"
                entries = ",".join(f'{{"{ident}", "{token}"}}' for ident, token in made)
                script.write_text(STEP_SCRIPT.format(entries=entries, body=json.dumps(
                    json.dumps({"declarations": declarations}))))
                scenarios.append((f"POST /v1/encounters/{{id}}/segments, {ruleset}, 4 combatants", base + "/", script))
            for _, target, body in scenarios:
                run_wrk(target, body, 1, connections)  # warm-up
            best: dict[str, dict] = {}
            for _ in range(rounds):
                for label, target, body in scenarios:
                    result = run_wrk(target, body, seconds, connections)
                    if label not in best or result["rps"] > best[label]["rps"]:
                        best[label] = result
            rows = [{"scenario": label, **best[label]} for label, *_ in scenarios]
            RUNS.append(rows)
            return rows
        finally:
            for server in servers:
                server.send_signal(signal.SIGTERM)
            for server in servers:
                server.wait(timeout=30)
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
    from tests.perf.http_bench import http_table

    print(step_cost_table(step_costs()), http_table(http_steps()), sep="\n\n", file=sys.stdout)
