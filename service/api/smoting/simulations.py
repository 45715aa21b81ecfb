"""/v1/smoting/simulations...: Monte Carlo batches of smoting fights, typed for this ruleset (smoting.md; the
operations are the shared ones, service/api/simulations/typed.py); the fight policy is
service/sim/policies/smoting.md."""
from __future__ import annotations

from marshmallow import Schema

from service.api.simulations.results import chance, round_result, shares
from service.api.simulations.typed import simulation_blueprint

GEOREG = {"id": "georeg", "heroic": True, "physical_rank": 4, "mental_rank": 4, "attributes": {"str": 1, "agl": 2},
          "xposures": {"attack": 5, "parry": 3}}
GINAT = {"id": "ginat", "physical_rank": 6, "mental_rank": 3, "xposures": {"attack": 4, "dodge": 2},
         "weapon": {"damage_dice": 5, "speed": 5}}
EXAMPLE = {"trials": 2000, "seed": 7, "matchup": {"sides": [{"name": "heroes", "combatants": [GEOREG]},
                                                            {"name": "giants", "combatants": [GINAT]}],
                                                  "options": {"max_rounds": 30}}}


class SimulationDetailsSchema(Schema):
    """smoting's own figures of the simulated fights, per fight unless said otherwise."""

    traumas = chance("Traumas taken, on average per fight.")
    killing_blows = chance("Killing blows, on average per fight.")
    kia_rate = chance("Combatants killed in action, on average per fight.")
    mean_ranks_lost = shares("Side -> ranks its combatants lost, on average per fight.")
    actions_per_round = chance("Actions taken per round fought.")


blp = simulation_blueprint("smoting", round_result("Smoting", SimulationDetailsSchema), EXAMPLE)
