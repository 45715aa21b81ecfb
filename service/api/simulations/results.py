"""What a finished simulation answers, typed (issue 24, items 1 and 2): the blocks every ruleset's result shares
(a share of the fights with its 95% Wilson interval, a draw, the distribution of fight lengths) and the result
of the four round-based rulesets (README of the rules documents, "Simulations"), whose `details` each ruleset
types in its own `simulations` module. tactical's result, counted in Combat Segments, is its own
(service/api/tactical/simulations.py).
"""
from __future__ import annotations

from marshmallow import Schema, fields, validate

from service.api.kit.schemas import JsonFloat, JsonInteger


def chance(text: str) -> JsonFloat:
    """A required share of fights or events, between 0 and 1."""
    return JsonFloat(required=True, metadata={"description": text})


def shares(text: str) -> fields.Dict:
    """A required map of names to shares between 0 and 1."""
    return fields.Dict(keys=fields.String(), values=JsonFloat(), required=True, metadata={"description": text})


class FightShareSchema(Schema):
    """How many of the fights had an outcome, as a count, a share and its 95% Wilson score interval."""

    count = JsonInteger(required=True, metadata={"description": "Fights with this outcome."})
    p = chance("count / trials (0 when there are no fights).")
    ci95 = fields.List(JsonFloat(), required=True, validate=validate.Length(2, 2),
                       metadata={"description": "The 95% Wilson score interval of `p`: [low, high]."})


class SideWinsSchema(FightShareSchema):
    """One side's wins: fights it ended as the only side standing."""

    name = fields.String(required=True, metadata={"description": "The side's name, as the matchup gave it."})


class DrawnFightsSchema(FightShareSchema):
    """Fights no side won: every side down, or still fighting at the step cap (`capped`)."""

    capped = JsonInteger(required=True, metadata={"description": "Draws that were fights still on at the step "
                                                                 "cap (`max_rounds` or `max_segments`)."})


class FightLengthSchema(Schema):
    """How many steps the fights lasted."""

    mean = chance("Mean steps a fight lasted.")
    max = JsonInteger(required=True, metadata={"description": "The longest fight, in steps."})
    histogram = fields.List(JsonInteger(), required=True,
                            metadata={"description": "Fights that lasted 1, 2, ... steps (index 0: one step), up "
                                                     "to the longest."})


def sides_field() -> fields.List:
    """Each side's wins, in matchup order."""
    return fields.List(fields.Nested(SideWinsSchema), required=True,
                       metadata={"description": "Each side's wins, in the matchup's order."})


def draw_field() -> fields.Nested:
    """The fights no side won."""
    return fields.Nested(DrawnFightsSchema, required=True, metadata={"description": "Fights no side won."})


class RoundCombatantFateSchema(Schema):
    """How one combatant ended the fights."""

    name = fields.String(required=True, metadata={"description": "The combatant's `id`."})
    side = fields.String(required=True, metadata={"description": "Its side."})
    outcome = shares("The combatant's state at the end of a fight -> share of fights (states that never "
                     "happened are left out; the ruleset's own states, as its `verdict` names them).")


def round_result(prefix: str, details: type[Schema]) -> type[Schema]:
    """The result of a round-based ruleset's simulation, named `<prefix>SimulationResult`, its `details` typed
    by `details` (that ruleset's own figures)."""
    own = {
        "trials": JsonInteger(required=True, metadata={"description": "Fights played."}),
        "sides": sides_field(),
        "draw": draw_field(),
        "rounds": fields.Nested(FightLengthSchema, required=True,
                                metadata={"description": "Rounds a fight lasted (its steps are rounds)."}),
        "combatants": fields.List(fields.Nested(RoundCombatantFateSchema), required=True,
                                  metadata={"description": "Each combatant's fate, in the matchup's order."}),
        "details": fields.Nested(details, required=True,
                                 metadata={"description": "This ruleset's own figures of the fights."}),
    }
    schema = Schema.from_dict(own, name=f"{prefix}SimulationResultSchema")
    schema.__doc__ = ("A finished simulation's result: win and draw chances with 95% intervals, the rounds "
                      "fights lasted, each combatant's fate and the ruleset's own `details`.")
    return schema
