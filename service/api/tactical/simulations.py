"""/v1/tactical/simulations...: Monte Carlo batches of tactical fights, played in Combat Segments by the numpy
engine (service/sim), typed for this ruleset (the operations are the shared ones,
service/api/simulations/typed.py); the fight policy is service/sim/policies/tactical.md. Its result, counted
in segments, is its own: wounds, wound levels and armor per combatant, first strike and event counts."""
from __future__ import annotations

from marshmallow import Schema, fields

from service.api.kit.schemas import JsonInteger
from service.api.simulations.results import (
    FightLengthSchema,
    FightShareSchema,
    chance,
    draw_field,
    shares,
    sides_field,
)
from service.api.simulations.schemas import EXAMPLE as SHARED
from service.api.simulations.typed import simulation_blueprint
from service.sim.summary import LEVELS
from service.sim.tally import EVENTS

EXAMPLE = {key: value for key, value in SHARED.items() if key != "ruleset"}


class SimulatedWoundsSchema(Schema):
    """Wounds a combatant took."""

    mean = chance("Wounds taken, on average per fight.")
    distribution = fields.List(chance(""), required=True,
                               metadata={"description": "Share of fights that left him with 0, 1, 2, ... wounds."})


class SimulatedArmorLayerSchema(Schema):
    """One layer of a combatant's armor at the end of the fights."""

    layer = fields.String(required=True, metadata={"description": "The layer's `type`."})
    dr_mean = chance("Its DR at a fight's end, on average.")
    durability_mean = chance("Its durability at a fight's end, on average.")


WoundLevelsSchema = Schema.from_dict({name: chance(f"Share of fights ending with {lo}-{hi} wounds." if hi else
                                                   "Share of fights ending unwounded.") for name, lo, hi in LEVELS},
                                     name="SimulatedWoundLevelsSchema")
WoundLevelsSchema.__doc__ = "Share of fights by the wound level a combatant ended them at."


class SimulatedCombatantSchema(Schema):
    """How one combatant ended the fights."""

    name = fields.String(required=True, metadata={"description": "The combatant's `id`."})
    side = fields.String(required=True, metadata={"description": "His side."})
    wounds = fields.Nested(SimulatedWoundsSchema, required=True, metadata={"description": "Wounds he took."})
    levels = fields.Nested(WoundLevelsSchema, required=True, metadata={"description": "His wound level at the end."})
    outcome = shares("standing, unconscious, collapsed or dead at a fight's end -> share of fights.")
    armor = fields.List(fields.Nested(SimulatedArmorLayerSchema), required=True,
                        metadata={"description": "His armor layers, outermost first."})


class SimulatedFirstStrikeSchema(Schema):
    """Whether the side that acted first in segment 1 won more often than the others."""

    fights = JsonInteger(required=True, metadata={"description": "Fights where one side acted first."})
    first_side_wins = fields.Nested(FightShareSchema, required=True,
                                    metadata={"description": "Of those, fights the side that acted first won."})
    other_side_wins = fields.Nested(FightShareSchema, required=True,
                                    metadata={"description": "Of those, fights another side won."})


EventCountsSchema = Schema.from_dict({name: JsonInteger(required=True, metadata={
    "description": f"{name.replace('_', ' ').capitalize()} over every fight."}) for name in EVENTS},
                                     name="SimulatedEventCountsSchema")
EventCountsSchema.__doc__ = "How often each kind of event happened over every fight."


class TacticalSimulationResultSchema(Schema):
    """A finished tactical simulation's result: win and draw chances with 95% intervals, the Combat Segments
    fights lasted, first strike, each combatant's wounds, wound levels, fate and armor, and event counts."""

    trials = JsonInteger(required=True, metadata={"description": "Fights played."})
    sides = sides_field()
    draw = draw_field()
    segments = fields.Nested(FightLengthSchema, required=True,
                             metadata={"description": "Combat Segments a fight lasted."})
    first_strike = fields.Nested(SimulatedFirstStrikeSchema, required=True,
                                 metadata={"description": "The first side to act against the others."})
    combatants = fields.List(fields.Nested(SimulatedCombatantSchema), required=True,
                             metadata={"description": "Each combatant, in the matchup's order."})
    events = fields.Nested(EventCountsSchema, required=True, metadata={"description": "Event counts."})


blp = simulation_blueprint("tactical", TacticalSimulationResultSchema, EXAMPLE)
