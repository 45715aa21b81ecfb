"""/v1/runequest-house/simulations...: Monte Carlo batches of runequest-house fights, typed for this ruleset
(rules document section 9; the operations are the shared ones, service/api/simulations/typed.py); the fight
policy is service/sim/policies/runequest-house.md."""
from __future__ import annotations

from marshmallow import Schema, fields

from service.api.simulations.results import chance, round_result
from service.api.simulations.typed import simulation_blueprint
from service.rules.runequest_house.pack import LOCATIONS

EXAMPLE = {"trials": 2000, "seed": 1, "matchup": {"options": {"max_rounds": 30}, "sides": [
    {"name": "sartar", "combatants": [{"id": "vasana", "characteristics": {"str": 14, "con": 13, "siz": 13, "int": 13,
                                                                           "dex": 15},
                                       "weapons": [{"name": "broadsword", "attack": 70, "parry": 40}],
                                       "shield": {"size": "medium", "ap": 12, "parry": 65}}]},
    {"name": "chaos", "combatants": [{"id": "broo", "characteristics": {"str": 15, "con": 12, "siz": 14, "int": 8,
                                                                        "dex": 10},
                                      "weapons": [{"name": "mace", "attack": 55, "parry": 40}]}]}]}}

LocationDamageSchema = Schema.from_dict({place: chance(f"Damage taken in the {place.replace('_', ' ')}, on "
                                                       "average per fight.") for place in LOCATIONS},
                                        name="RunequestHouseSimulatedLocationDamageSchema")
LocationDamageSchema.__doc__ = "Damage one side took in each hit location, on average per fight."


class SimulationDetailsSchema(Schema):
    """runequest-house's own figures of the simulated fights, on average per fight."""

    location_damage = fields.Dict(keys=fields.String(), values=fields.Nested(LocationDamageSchema), required=True,
                                  metadata={"description": "Side -> damage its combatants took per location."})
    parry_ap_lost = chance("Armour points parrying weapons and shields lost.")
    knockback_falls = chance("Falls from knockback.")
    fumbles = chance("Fumbles.")
    criticals = chance("Critical successes.")


blp = simulation_blueprint("runequest-house", round_result("RunequestHouse", SimulationDetailsSchema), EXAMPLE)
