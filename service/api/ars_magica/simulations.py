"""/v1/ars-magica/simulations...: Monte Carlo batches of Ars Magica fights, typed for this ruleset (the
operations are the shared ones, service/api/simulations/typed.py); the fight policy is
service/sim/policies/ars-magica.md."""
from __future__ import annotations

from marshmallow import Schema

from service.api.simulations.results import chance, round_result, shares
from service.api.simulations.typed import simulation_blueprint

EXAMPLE = {"trials": 2000, "seed": 1, "matchup": {"options": {"max_rounds": 50}, "sides": [
    {"name": "red", "combatants": [{"id": "knight", "weapon": "longsword", "abilities": {"weapon": 5},
                                    "characteristics": {"dex": 2, "qik": 1, "str": 1, "stm": 2}, "armor": "leather"}]},
    {"name": "blue", "combatants": [{"id": "brute", "weapon": "mace", "abilities": {"weapon": 5},
                                     "characteristics": {"dex": 1, "str": 2, "stm": 2}, "shield": {"defence": 3}}]}]}}


class SimulationDetailsSchema(Schema):
    """ars-magica's own figures of the simulated fights."""

    levels_lost = shares("Body levels a fight's losers had lost -> share of those losers.")
    botch_rate = chance("Botches per stress roll.")
    exceptional_rate = chance("Exceptional blows per attack.")
    first_strike_wins = chance("Share of decided rounds won by the combatant who struck first.")


blp = simulation_blueprint("ars-magica", round_result("ArsMagica", SimulationDetailsSchema), EXAMPLE)
