"""The 20-combatant round of the perf bench (ten against ten in two lines), four rounds in a row through
`resolve_once` from three seeds, pinned by a SHA-256 of events, states and summaries: a speed-up of the round
must give byte-identical answers. The fingerprints were taken before the round-speed work of 2026-11-27."""
from __future__ import annotations

import hashlib
import json

import pytest

from service.sessions.encounters import resolve_once

FINGERPRINTS = {
    0: "90d09520a71d6203577feb14197373e126eeb6156001309077926ba259fdf924",
    1: "db584f4d25f00ce71e896d632ccc6b49987d2d1dfdeaaa6c6f56769fa615384d",
    2: "b6062fe5f422f0a4fb2889fbdb970a4ac505bde5f6cf74ff80c414853c3a5e62",
}


def two_lines() -> tuple[dict, list[dict]]:
    """Ten against ten in two facing lines, everyone engaging the foe opposite."""
    people = []
    for i in range(10):
        people.append({"id": f"n{i}", "side": "north", "fighter_rank": 4 + i % 3, "strength": 11, "size": 10,
                       "weapons": [{"name": "sword", "skill": 5}], "position": {"q": 0, "r": i}, "facing": 0})
        people.append({"id": f"s{i}", "side": "south", "fighter_rank": 3 + i % 4, "strength": 12, "size": 10,
                       "weapons": [{"name": "axe", "skill": 4}], "position": {"q": 1, "r": i}, "facing": 3})
    declarations = [{"combatant": p["id"], "action": "engage",
                     "target": ("s" if p["side"] == "north" else "n") + p["id"][1:]} for p in people]
    return {"combatants": people}, declarations


def fingerprint(seed: int) -> str:
    state, declarations = two_lines()
    log = []
    for k in range(4):
        step = resolve_once("war-and-combat", state, declarations, seed * 10 + k)
        log.append([step.events, step.state, step.summary])
        state = step.state
    return hashlib.sha256(json.dumps(log, default=repr).encode()).hexdigest()


@pytest.mark.parametrize("seed", sorted(FINGERPRINTS))
def test_two_lines_of_ten_resolve_to_the_pinned_bytes(seed):
    assert fingerprint(seed) == FINGERPRINTS[seed]
