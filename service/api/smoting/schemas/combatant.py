"""Schemas of the smoting /combatant calculator (smoting.md section 12): ranks and attributes in, derived
values out; shapes and bounds only."""
from __future__ import annotations

from marshmallow import Schema, fields, validate

from service.api.kit.fields import flag, whole
from service.api.kit.schemas import JsonBoolean, JsonInteger, trace_field
from service.api.smoting.fields import (
    named_schema,
    options_field,
)

ATTRIBUTE_NAMES = ("str", "agl", "dex", "bod", "will", "spirit")


AttributesSchema = named_schema("SmotingAttributesSchema", "Extra dice per attribute (missing keys are 0).",
                           {name: whole(-3, 6, f"{name.upper()} level.", 0) for name in ATTRIBUTE_NAMES})


GROUPS = ["none", "mob", "crowd", "horde", "company", "unit"]


CombatantRequestSchema = named_schema("SmotingCombatantRequestSchema", "A combatant's ranks and attributes.", {
    "id": fields.String(validate=validate.Length(1, 64), metadata={"description": "Ignored."}),
    "side": fields.String(validate=validate.Length(1, 64), metadata={"description": "Ignored."}),
    "physical_rank": whole(1, 9, "Starting real physical rank.", required=True),
    "mental_rank": whole(1, 9, "Starting real mental rank.", required=True),
    "bonus_physical": whole(0, 9, "Bonus physical ranks.", 0),
    "bonus_mental": whole(0, 9, "Bonus mental ranks.", 0),
    "lost_physical": whole(0, 30, "Physical ranks marked lost.", 0),
    "lost_mental": whole(0, 30, "Mental ranks marked lost.", 0),
    "heroic": flag("Heroic (soaks, falls to -3)."),
    "attributes": fields.Nested(AttributesSchema, load_default=dict, metadata={"description": "Attributes."}),
    "group": fields.String(load_default="none", validate=validate.OneOf(GROUPS),
                           metadata={"description": "Mob, crowd, horde, company or unit."}),
    "movement_dice": whole(0, 12, "Movement dice before AGL.", 4),
    "action_dice_modifier": whole(-8, 8, "Added to the base action dice.", 0),
    "options": options_field()}, {"physical_rank": 4, "mental_rank": 3, "heroic": True,
                                  "attributes": {"str": 1, "agl": 2}})


def _pair(text: str) -> fields.Dict:
    return fields.Dict(keys=fields.String(), values=JsonInteger(), required=True, metadata={"description": text})


class ActionDiceSchema(Schema):
    """Action dice rolled and kept."""

    rolled = JsonInteger(required=True, metadata={"description": "Dice rolled."})
    kept = JsonInteger(required=True, metadata={"description": "Dice kept (at most 8)."})
    reroll_ones = JsonBoolean(required=True, metadata={"description": "The count was raised to 1: re-roll 1s."})


CombatantSchema = named_schema("SmotingDerivedValuesSchema", "A combatant's derived values.", {
    "action_dice": fields.Nested(ActionDiceSchema, required=True,
                                 metadata={"description": "Action dice: rolled, kept and whether 1s are "
                                                          "re-rolled."}),
    "soak_dice": _pair("Soak dice {physical, mental}."),
    "movement_pool": JsonInteger(required=True, metadata={"description": "Movement dice + AGL."}),
    "thresholds": _pair("T per domain."),
    "defeats_to_out_of_action": _pair("Direct single defeats to OoA per domain."),
    "crossover_mental_losses_at": fields.List(JsonInteger(), required=True,
                                              metadata={"description": "Direct physical losses causing a "
                                                                       "mental crossover loss."}),
    "group_bonus": _pair("{physical, mental, dice, attacks}."),
    "trace": trace_field()})
