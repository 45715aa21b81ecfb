"""/v1/war-and-combat/simulations...: Monte Carlo batches of War & Combat fights, typed for this ruleset (the
operations are the shared ones, service/api/simulations/typed.py); the fight policy is
service/sim/policies/war-and-combat.md."""
from __future__ import annotations

from marshmallow import Schema

from service.api.simulations.results import chance, round_result, shares
from service.api.simulations.typed import simulation_blueprint

EXAMPLE = {"trials": 2000, "seed": 1, "matchup": {"options": {"max_rounds": 30}, "sides": [
    {"name": "north", "combatants": [{"id": "sigrid", "fighter_rank": 5, "strength": 10, "size": 9,
                                      "weapons": [{"name": "sword", "skill": 5}]}]},
    {"name": "south", "combatants": [{"id": "ulf", "fighter_rank": 3, "strength": 12, "size": 10,
                                      "weapons": [{"name": "axe", "skill": 4}]}]}]}}


class SimulationDetailsSchema(Schema):
    """war-and-combat's own figures of the simulated fights."""

    finishing_wound = shares("`<location>:<severity>` of the wound that ended a fight -> share of the fights a "
                             "wound ended.")
    critical_share = chance("Share of landed blows that were criticals.")
    actions_per_flurry = chance("Actions per flurry, on average.")


blp = simulation_blueprint("war-and-combat", round_result("WarAndCombat", SimulationDetailsSchema), EXAMPLE)
