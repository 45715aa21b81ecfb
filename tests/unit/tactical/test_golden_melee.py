"""A seeded four-combatant melee over six segments: segment 1 checked by hand, all six pinned as a golden log.

The encounter is docs/examples/encounter-of-four.json (knight and squire against two bandits), everyone
re-declaring the same attacks each CS, seeds 1001..1006. Regenerate the golden file after a deliberate
rules change with `REGENERATE_GOLDEN=1 make test` and review the diff.
"""
from __future__ import annotations

import json
import os
import random
from pathlib import Path

from service.rules.tactical.combat_state import EncounterState
from service.rules.tactical.segment import resolve_segment

ROOT = Path(__file__).resolve().parents[3]
GOLDEN = Path(__file__).with_name("golden") / "melee_of_four.json"


def play() -> list[list[dict]]:
    state = EncounterState.from_dict(json.loads((ROOT / "docs/examples/encounter-of-four.json").read_text()))
    declarations = json.loads((ROOT / "docs/examples/declarations.json").read_text())["declarations"]
    log = []
    for number in range(1, 7):
        result = resolve_segment(state, declarations, random.Random(1000 + number))
        log.append(list(result.events))
        state = result.state
    return log


def test_segment_one_by_hand():
    first = play()[0]
    roster = next(e for e in first if e["type"] == "initiative")["roster"]
    # d10 + AWA mod + HRT mod: bandit-2 9+1+0, squire 4+0+0, knight 1+1+1, bandit-1 2+0+0.
    assert [(r["id"], r["initiative"]) for r in roster] == [("bandit-2", 10), ("squire", 4), ("knight", 3),
                                                           ("bandit-1", 2)]
    attacks = [e for e in first if e["type"] == "attack"]
    blows = [e for e in first if e["type"] == "blow"]
    # Club AV 40 vs the squire's spear Parry 30: 100*40/70 = 57.1 -> 57; the d100 rolled 49 hits.
    assert (attacks[0]["av"], attacks[0]["dv"], attacks[0]["chance"], attacks[0]["dice"][0]["total"]) == (40, 30, 57, 49)
    # POT (12 + 12)/2 = 12 + DB(size 4, medium) 4 = 16; knock-back 16 - mSTA 12 = 4 ft; studded padding
    # DR 12 leaves 4; WT (12 + 12)/8 = 3, so one wound; the padding wears by DB 4 to 8.
    assert (blows[0]["pot"], blows[0]["knockback_feet"], blows[0]["pot_through_armor"]) == (16, 4, 4)
    assert (blows[0]["wounds_inflicted"], blows[0]["armor_after"][0]["dr"]) == (1, 8)
    # Sword AV 70 vs the axe's Parry 25 -> 74; POT (14 + 16)/2 = 15 + 5 = 20; bandit-1's padding 10 leaves
    # 10; WT (13 + 12)/8 = 3.125 and 10 > 9.375: three wounds, Serious. Knock-back 20 - 13 = 7 ft, and the
    # keep-your-feet check is AGL 12 vs progressive(7) = 28: 100*12/40 = 30%.
    assert (attacks[1]["chance"], blows[1]["pot"], blows[1]["pot_through_armor"]) == (74, 20, 10)
    assert (blows[1]["wounds_inflicted"], blows[1]["wound_level"], blows[1]["knockback_feet"]) == (3, "serious", 7)
    footing = [e for e in first if e["type"] == "check" and e["combatant"] == "bandit-1"][0]
    assert (footing["dv"], footing["chance"]) == (28, 30)
    # Knocked back out of reach, the squire and bandit-1 lose their attacks this CS.
    assert {e["combatant"] for e in first if e["type"] == "action_lost"} == {"squire", "bandit-1"}


def test_six_segments_match_the_golden_log():
    log = play()
    if os.environ.get("REGENERATE_GOLDEN"):
        GOLDEN.write_text(json.dumps(log, indent=1, sort_keys=True) + "\n")
    assert json.loads(json.dumps(log)) == json.loads(GOLDEN.read_text())
    assert len(log) == 6
