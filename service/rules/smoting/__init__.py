"""`smoting`: *Smoting thy Enemy* (seed 003) - d6 success pools, the action-dice countdown, zones and
ranks instead of hit points (rules document `smoting.md`)."""
from __future__ import annotations

import json
from importlib import resources

from service.rules.interface import Ruleset, assumptions_from
from service.rules.smoting import tables
from service.rules.smoting.options import OPTIONS

TITLES = {name: tables.load(name)["title"] for name in tables.FILES}
ASSUMPTIONS = assumptions_from(json.loads(resources.files(__package__).joinpath("data")
                                          .joinpath("assumptions.json").read_text()))


def _ruleset() -> Ruleset:
    from service.rules.smoting.engine import DUEL, ENGINE
    return Ruleset(id="smoting", name="Smoting thy Enemy",
                   source="003_ef89a6ad2b11b110.txt: 06. Smoting thy Enemy",
                   summary="Zoned battlefield, an action-dice countdown, d6 success pools and ranks instead of "
                           "hit points.",
                   tables={name: (lambda name=name: tables.data(name)) for name in tables.FILES},
                   table_titles=TITLES, options=OPTIONS, assumptions=ASSUMPTIONS, engine=ENGINE, duel=DUEL)


RULESET = _ruleset()
