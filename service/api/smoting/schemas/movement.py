"""Schemas of the smoting /movement calculator (smoting.md section 12), as a JSON body or a query string;
shapes and bounds only."""
from __future__ import annotations

from marshmallow import Schema, fields

from service.api.kit.fields import flag, whole
from service.api.kit.schemas import JsonBoolean, JsonFloat, JsonInteger, trace_field
from service.api.smoting.fields import (
    exact_field,
    named_schema,
    odds_field,
    options_field,
)

MOVEMENT_FIELDS = {
    "agl": whole(-3, 6, "AGL level.", 0),
    "movement_dice": whole(0, 12, "Movement dice before AGL.", 4),
    "mr": whole(0, 10, "Zones a round.", 1),
    "modifiers": whole(-30, 30, "Other dice.", 0),
}


MovementRequestSchema = named_schema("SmotingMovementRequestSchema", "A mover's pool and speed.", {
    **MOVEMENT_FIELDS, "running": flag("+1 die."), "stunned": flag("-2 dice."), "options": options_field()},
    {"agl": 1, "mr": 1, "running": False})


MovementQuerySchema = named_schema("SmotingMovementQuerySchema", "A mover's pool and speed (query string).", {
    **{name: fields.Integer(load_default=field.load_default, validate=field.validate,
                            metadata=field.metadata) for name, field in MOVEMENT_FIELDS.items()}, "running": fields.Boolean(load_default=False, metadata={"description": "+1 die."}),
    "stunned": fields.Boolean(load_default=False, metadata={"description": "-2 dice."})})


class BattleMoveSchema(Schema):
    """A battle or trivial move."""

    roll_needed = JsonBoolean(required=True, metadata={"description": "Pool below 4 dice."})
    success = JsonFloat(required=True, metadata={"description": "P(the move succeeds)."})


MovementSchema = named_schema("SmotingMovementSchema", "Zone and battle moves and speeds.", {
    "pool": JsonInteger(required=True, metadata={"description": "Movement dice rolled."}),
    "zone_move": odds_field("Zone move outcomes.", "arrive, boundary, stay"),
    "zone_move_exact": exact_field("Zone move outcomes."),
    "battle_move": fields.Nested(BattleMoveSchema, required=True,
                                 metadata={"description": "A battle or trivial move: whether it is rolled, and "
                                                          "P(success)."}),
    "battle_move_exact": fields.Dict(keys=fields.String(), values=fields.String(), required=True,
                                     metadata={"description": "{success} as a fraction."}),
    "zones_per_round": JsonInteger(required=True, metadata={"description": "MR."}),
    **{name: JsonFloat(required=True, metadata={"description": name.replace("_", " ")})
       for name in ("metres_per_round", "metres_per_second", "km_per_hour")},
    **{f"{name}_exact": fields.String(required=True, metadata={"description": "Exact."})
       for name in ("metres_per_round", "metres_per_second", "km_per_hour")},
    "trace": trace_field()})
