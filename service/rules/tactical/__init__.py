"""The `tactical` ruleset: seed 000, "The Mechanics 7. Tactical Contests & Armed Combat"."""
from __future__ import annotations

from service.rules.interface import Ruleset
from service.rules.tactical import tables
from service.rules.tactical.duel import DUEL
from service.rules.tactical.engine import ENGINE
from service.rules.tactical.rulings import OPTIONS, RULINGS

RULESET = Ruleset(
    id="tactical",
    name="Tactical Contests & Armed Combat",
    source="seed 000: The Mechanics 7. Tactical Contests & Armed Combat",
    summary=("10-second Combat Segments with one-second Pulse movement, AV vs DV on d100, potence "
             "through armor with wear, wound thresholds, stun by pain, surprise and ranged fire."),
    tables={name: loader for name, (_, loader) in tables.CATALOG.items()},
    table_titles={name: title for name, (title, _) in tables.CATALOG.items()},
    rulings=RULINGS,
    options=OPTIONS,
    engine=ENGINE,
    duel=DUEL,
    terms={"step": "segment", "steps": "segments"},
)
