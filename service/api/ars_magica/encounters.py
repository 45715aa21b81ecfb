"""/v1/ars-magica/encounters...: Ars Magica encounters kept between requests, typed for this ruleset (seed
002, §12.6; the operations are the shared ones, service/api/encounters/typed.py)."""
from __future__ import annotations

from service.api.ars_magica.state import EXAMPLE_COMBATANT, EXAMPLE_FOE
from service.api.ars_magica.steps import EXAMPLE_REQUEST, RoundResolvedSchema
from service.api.encounters.typed import encounter_blueprint

ADDED = {**EXAMPLE_FOE, "id": "saxon-2"}
EXAMPLES = {"create": {"combatants": [EXAMPLE_COMBATANT, EXAMPLE_FOE]}, "added": ADDED,
            "replaced": {**ADDED, "armor": "leather"}, "combatant_id": "saxon-2",
            "declarations": {"declarations": EXAMPLE_REQUEST["declarations"]}}

blp = encounter_blueprint("ars-magica", RoundResolvedSchema, EXAMPLES)
