"""/v1/runequest-house/encounters...: runequest-house encounters kept between requests, typed for this ruleset
(rules document §3, §8, §12.12; the operations are the shared ones, service/api/encounters/typed.py)."""
from __future__ import annotations

from service.api.encounters.typed import encounter_blueprint
from service.api.runequest_house.state import EXAMPLE_STATE
from service.api.runequest_house.steps import EXAMPLE, RoundResponseSchema

BROO = EXAMPLE_STATE["combatants"][1]
EXAMPLES = {"create": {"combatants": EXAMPLE_STATE["combatants"]}, "added": {**BROO, "id": "broo-2"},
            "replaced": {**BROO, "id": "broo-2", "weapons": [{"name": "mace", "attack": 60, "parry": 40}]},
            "combatant_id": "broo-2", "declarations": {"declarations": EXAMPLE["declarations"]}}

blp = encounter_blueprint("runequest-house", RoundResponseSchema, EXAMPLES)
