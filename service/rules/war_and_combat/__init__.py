"""`war-and-combat`: Ken St-Cyr's *War & Combat* (seed 001) — 3d6 + skill against Defense, impact dice,
absorption and penetration, wound severity by size, flurries of actions on a hex map.

Modules: `task` (task rolls, Defense by state, locations), `to_hit`, `damage`, `checks`, `wounds`,
`movement`, `state`, `engine` (the RoundEngine) and `round` (one round: `moves`, `flurries`, `attacks`,
`blows`), `duel` (simulations); tables in `data/`, options in `option_specs`. `RULESET` is what the rest
of the service sees.
"""
from __future__ import annotations

from functools import partial

from service.rules.interface import Ruleset, assumptions_from
from service.rules.war_and_combat.duel import DUEL
from service.rules.war_and_combat.engine import ENGINE
from service.rules.war_and_combat.option_specs import SPECS
from service.rules.war_and_combat.tables import TABLES, load

RULESET = Ruleset(
    id="war-and-combat",
    name="War & Combat",
    source="001_d3fcdeb4abcc49d7.txt: Ken St-Cyr, War & Combat (1998-2005)",
    summary="Hex skirmish in 5-second rounds: 3d6 + skill against Defense, impact dice from an impact cap, "
            "armor absorption and penetration, wound severity by size, flurries of actions.",
    tables={name: partial(load, name) for name in TABLES},
    table_titles={name: title for name, (_, title) in TABLES.items()},
    options=SPECS,
    assumptions=assumptions_from(load("assumptions")),
    engine=ENGINE,
    duel=DUEL,
    terms={"step": "round", "steps": "rounds"},
)
