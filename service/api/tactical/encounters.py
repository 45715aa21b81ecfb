"""/v1/tactical/encounters...: tactical encounters kept between requests, typed for this ruleset (seed 000, "The
Order of Play each CS"; the operations are the shared ones, service/api/encounters/typed.py). Its steps are
Combat Segments: `.../segments`."""
from __future__ import annotations

from service.api.encounters.schemas import EXAMPLE_ADDED, EXAMPLE_BANDIT, EXAMPLE_COMBATANT, EXAMPLE_DECLARATIONS
from service.api.encounters.typed import encounter_blueprint

EXAMPLES = {"create": {"options": {"bumble": False}, "combatants": [EXAMPLE_COMBATANT, EXAMPLE_BANDIT]},
            "added": EXAMPLE_ADDED, "replaced": {**EXAMPLE_ADDED, "dodge_dv": 25}, "combatant_id": EXAMPLE_ADDED["id"],
            "declarations": EXAMPLE_DECLARATIONS}

blp = encounter_blueprint("tactical", None, EXAMPLES)
