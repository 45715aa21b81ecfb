"""`ars-magica`: the Ars Magica 4th-edition combat summary (seed 002) - stress dice against totals and ease
factors, soak and body levels, botches, exactly.

Rule families: `stress` (the stress die, exact odds and rolls), `totals` (MELEE TOTALS), `to_hit`, `damage`,
`checks` (ease factors, fatigue, formulaic casting), `movement`, `ladders` (body and fatigue levels),
`botches`, and the round engine (`engine`, `round`, `state`) with its duel policy (`duel`).
"""
from __future__ import annotations

import json
from importlib import resources

from service.rules.ars_magica import tables
from service.rules.ars_magica.options import OPTIONS
from service.rules.interface import Ruleset, assumptions_from


def _assumptions():
    text = resources.files(__package__).joinpath("data", "assumptions.json").read_text(encoding="utf-8")
    return assumptions_from(json.loads(text)["rows"])


def _build() -> Ruleset:
    from service.rules.ars_magica.duel import DUEL
    from service.rules.ars_magica.engine import ENGINE

    return Ruleset(
        id="ars-magica", name="Ars Magica (4th edition combat summary)",
        source="002_477d4803bb5147c1.txt: Ars Magica 4th-edition combat rules summary",
        summary="Stress die + totals against defence rolls and ease factors; damage against soak in body "
                "levels; exceptional blows, botches, fatigue and formulaic casting, with exact odds.",
        tables=dict(tables.LOADERS), table_titles=tables.titles(), options=OPTIONS,
        assumptions=_assumptions(), engine=ENGINE, duel=DUEL)


RULESET = _build()
