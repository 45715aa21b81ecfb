"""/v1/war-and-combat/encounters...: War & Combat encounters kept between requests, typed for this ruleset
(rules document §3, §12.8; the operations are the shared ones, service/api/encounters/typed.py)."""
from __future__ import annotations

from service.api.encounters.typed import encounter_blueprint
from service.api.war_and_combat.state import EXAMPLE_FIGHTER, EXAMPLE_FOE
from service.api.war_and_combat.steps import EXAMPLE, RoundResponseSchema

ADDED = {**EXAMPLE_FOE, "id": "hakon", "position": {"q": 0, "r": 2}}
EXAMPLES = {"create": {"combatants": [EXAMPLE_FIGHTER, EXAMPLE_FOE]}, "added": ADDED,
            "replaced": {**ADDED, "fighter_rank": 5}, "combatant_id": "hakon",
            "declarations": {"declarations": EXAMPLE["declarations"]}}

blp = encounter_blueprint("war-and-combat", RoundResponseSchema, EXAMPLES)
