"""The 20-combatant Combat Segment of the perf bench, four segments in a row from three seeds, pinned by a
SHA-256 of its events and final state: a speed-up of the resolver must give byte-identical answers (same
dice faces, events and trace). The fingerprints were taken before the round-speed work of 2026-11-27."""
from __future__ import annotations

import hashlib
import json
import random

import pytest

from service.rules.tactical.combat_state import EncounterState
from service.rules.tactical.segment import resolve_segment

FINGERPRINTS = {
    0: "686ace3f5cac08d4de61211e8bf569b565a0038f896606e76600d2d000743b8d",
    1: "29b2903a3f11e9de8cf5bacef7924c7d6a7bc8735133e4065a19815360f427f8",
    2: "646c2baf36d8a934abeef30bf45e13dda029620c417dc0f8e48abaa3c0bb4dbb",
}

# Event types renamed to snake_case on 2026-12-02 (issue 24, item 2); nothing else about the events changed.
RENAMED = {"segment_began": "segment-began", "segment_ended": "segment-ended", "action_lost": "action-lost",
           "body_check": "body-check"}


def swordsman(i: int) -> dict:
    """A padded swordsman; even ids on one side, odd on the other, lined up in pairs 4 ft apart."""
    return {"id": f"c{i}", "side": "red" if i % 2 else "blue",
            "attributes": {"STR": 13, "mSTA": 12, "CND": 12, "AGL": 12, "HRT": 11, "P-RES": 14, "CRD": 12},
            "mods": {"AWA": 1, "HRT": 0}, "dodge_dv": 20, "armor": [{"type": "padded"}],
            "weapons": [{"name": "sword", "av": 55, "parry": 35, "size": 6, "weight_class": "medium"}],
            "position": {"x": (i // 2) * 10, "y": (i % 2) * 4}, "facing": 180 if i % 2 else 0}


def fingerprint(seed: int) -> str:
    state = EncounterState.from_dict({"combatants": [swordsman(i) for i in range(20)]})
    declarations = [{"combatant": f"c{i}", "action": "attack", "target": f"c{i + 1 if i % 2 == 0 else i - 1}"}
                    for i in range(20)]
    log: list = []
    for k in range(4):
        result = resolve_segment(state, declarations, random.Random(seed * 10 + k))
        log.append(result.events)
        state = result.state
    log.append(state.to_dict())
    text = json.dumps(log)
    for new, old in RENAMED.items():  # hashed under the names they had when the pins were taken
        text = text.replace(f'"type": "{new}"', f'"type": "{old}"')
    return hashlib.sha256(text.encode()).hexdigest()


@pytest.mark.parametrize("seed", sorted(FINGERPRINTS))
def test_twenty_swordsmen_resolve_to_the_pinned_bytes(seed):
    assert fingerprint(seed) == FINGERPRINTS[seed]
