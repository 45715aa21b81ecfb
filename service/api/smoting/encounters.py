"""/v1/smoting/encounters...: smoting encounters kept between requests, typed for this ruleset (smoting.md
sections 3 and 12.8; the operations are the shared ones, service/api/encounters/typed.py)."""
from __future__ import annotations

from service.api.encounters.typed import encounter_blueprint
from service.api.smoting.steps import EXAMPLE, RoundSchema

STATE = EXAMPLE["state"]
GIANT = STATE["combatants"][1]
EXAMPLES = {"create": {"combatants": STATE["combatants"], "state": {"zones": STATE["zones"]}},
            "added": {**GIANT, "id": "ginat-2"}, "replaced": {**GIANT, "id": "ginat-2", "mental_rank": 4},
            "combatant_id": "ginat-2", "declarations": {"declarations": EXAMPLE["declarations"]}}

blp = encounter_blueprint("smoting", RoundSchema, EXAMPLES)
