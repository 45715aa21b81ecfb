"""Fights played one at a time through the Combat Segment resolver, with the simulator's own policy
(everyone attacks the lowest-index standing foe): the oracle for the engine and the bench baseline.

Written against the resolver's API as briefed (`combat_state.EncounterState.from_dict/to_dict`,
`segment.resolve_segment(state, declarations, rng)`) before that module existed: `_declare`,
`_standing` and `_next` are the only places that know its shapes, to adapt when it lands.
"""
from __future__ import annotations

import copy
import random
from typing import Any

from service.sim.matchup import parse


def fights(matchup: dict[str, Any], n: int, seed: int) -> list[tuple[int, int]]:
    """`n` fights of `matchup`: (winning side index or -1, segments played) each."""
    m = parse(matchup)
    combatants = [dict(raw, side=m.sides[int(m.side[i])], id=m.names[i])
                  for i, raw in enumerate(_combatants(matchup))]
    rng = random.Random(seed)
    o = m.options
    # The simulator ignores positions (everyone is engaged with everyone), so knock-back only costs footing.
    options = {"task_resolution": o.method, "heroic": o.heroic, "heroic_doubles_pot": o.heroic,
               "bumble": o.bumble, "armor_wear": o.armor_wear, "reprisals": o.reprisals,
               "progression": o.progression, "knockback_moves": False}
    return [_fight(m, {"combatants": copy.deepcopy(combatants), "options": options}, rng) for _ in range(n)]


def _fight(m: Any, encounter: dict[str, Any], rng: random.Random) -> tuple[int, int]:
    from service.rules.tactical import combat_state, segment

    state = combat_state.EncounterState.from_dict(encounter)
    for number in range(1, m.options.max_segments + 1):
        up = _standing(state)
        state = _next(segment.resolve_segment(state, _declare(m, up), rng))
        sides = {int(m.side[m.names.index(name)]) for name in _standing(state)}
        if len(sides) <= 1:
            return (sides.pop() if sides else -1), number
    return -1, m.options.max_segments


def _combatants(matchup: dict[str, Any]) -> list[dict[str, Any]]:
    if "sides" in matchup:
        return [c for side in matchup["sides"] for c in side["combatants"]]
    return list(matchup["combatants"])


def _declare(m: Any, up: list[str]) -> list[dict[str, Any]]:
    """Each standing combatant attacks the lowest-index standing foe with his first weapon."""
    out = []
    for name in up:
        side = m.side[m.names.index(name)]
        foes = [f for f in up if m.side[m.names.index(f)] != side]
        if foes:
            out.append({"combatant": name, "action": "attack", "target": foes[0], "weapon": 0})
    return out


def _standing(state: Any) -> list[str]:
    data = state.to_dict()
    return [c["id"] for c in data["combatants"]
            if c.get("status", "standing") in ("standing", "active", "ok")
            and not any(c.get(flag) for flag in ("dead", "unconscious", "collapsed", "incapacitated"))]


def _next(result: Any) -> Any:
    return getattr(result, "state", result)
