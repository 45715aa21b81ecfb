"""Schemas of /v1/runequest-house/attack (rules document §4-§6, §12): shapes and bounds only."""
from __future__ import annotations

from typing import Any

from marshmallow import Schema, ValidationError, fields, validate

from service.api.kit.fields import choice, flag, probability_dict, whole
from service.api.kit.receipts import receipt_answer_field, receipt_field
from service.api.kit.schemas import JsonFloat, JsonInteger
from service.api.runequest_house.fields import (
    LOCATIONS,
    WEAPON_KINDS,
    WEAPON_TYPES,
    answer_seed,
    assumptions_list,
    dice_field,
    dice_list,
    exact_dict,
    rolls_field,
    trace_field,
)
from service.api.runequest_house.schemas.damage import LAYER_META, LayerField
from service.api.runequest_house.schemas.to_hit import (
    TO_HIT_ROLES,
    WEAPON_DEFAULT,
    DefenceSchema,
    ToHitRequestSchema,
    WeaponSchema,
)
from service.rules.runequest_house.dice_expr import DICE_SHAPE


class AttackWeaponSchema(WeaponSchema):
    """The attacking weapon: odds properties plus its damage and type (or `name` from the weapon pack)."""

    name = fields.String(load_default=None, allow_none=True, validate=validate.Length(1, 64),
                         metadata={"description": "A weapon-pack name: fills damage and type when not given."})
    damage = dice_field("Dice expression, e.g. \"1d8+1\".", load_default=None, allow_none=True)
    type = choice(WEAPON_TYPES, "crush, slash or impale.", load_default=None, allow_none=True)


class AttackDefenceSchema(DefenceSchema):
    """The defence, with the parrying item's AP."""

    ap = whole(0, 60, "The parrying item's AP (required for a parry).", load_default=None, allow_none=True)


ATTACK_DEFENCE_DEFAULT = AttackDefenceSchema().load({})


class TargetSchema(Schema):
    """The target of a whole attack (default an unarmored human, SIZ/STR/DEX 13, full HP 13)."""

    siz = whole(1, 100, "SIZ.", load_default=13)
    str = whole(1, 100, "STR.", load_default=13)
    dex = whole(1, 100, "DEX.", load_default=13)
    armor = fields.Dict(keys=choice(LOCATIONS, "A location."), values=fields.List(LayerField(metadata=LAYER_META)),
                        load_default=dict,
                        metadata={"description": "Location -> list of layer APs or armor-pack names."})
    protection = whole(0, 30, "Protective spell AP.", load_default=0)
    location_hp = fields.Dict(keys=choice(LOCATIONS, "A location."), values=JsonInteger(), load_default=None,
                              allow_none=True, metadata={"description": "Current HP per location."})
    hp = whole(-200, 200, "Current total HP.", load_default=None, allow_none=True)
    braced = flag("Braced against knockback.")


TARGET_DEFAULT = TargetSchema().load({})


class AttackWeaponField(fields.Field):
    """The attacking weapon: an object (AttackWeapon) or a weapon-pack name."""

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> Any:
        if isinstance(value, str) and 1 <= len(value) <= 64:
            return {**WEAPON_DEFAULT, "name": value, "damage": None, "type": None}
        if isinstance(value, dict):
            return AttackWeaponSchema().load(value)
        raise ValidationError("Must be a weapon object or a weapon-pack name.")


ATTACK_WEAPON_JSON = {
    "type": "object", "additionalProperties": False, "description": "The weapon's statistics.",
    "properties": {"kind": {"type": "string", "enum": list(WEAPON_KINDS)}, "hands": {"type": "integer", "minimum": 1,
                                                                                   "maximum": 2},
                   "flexible": {"type": "boolean"}, "hacking": {"type": "boolean"},
                   "length_m": {"type": "number", "minimum": 0, "maximum": 10},
                   "name": {"type": ["string", "null"], "minLength": 1, "maxLength": 64},
                   "damage": {**DICE_SHAPE, "type": ["string", "null"]},
                   "type": {"type": ["string", "null"], "enum": [*WEAPON_TYPES, None]}}}


class AttackRequestSchema(ToHitRequestSchema):
    """One whole attack, roll to location damage."""

    EXAMPLE = {"attack": 70, "weapon": {"name": "broadsword"}, "damage_bonus": "+1d4",
               "defence": {"type": "parry", "skill": 55, "item": "medium_shield", "ap": 12},
               "target": {"siz": 13, "armor": {"chest": ["ringmail", "soft_leather"]}}}
    receipt = receipt_field()

    weapon = AttackWeaponField(required=True, metadata={
        "description": "The attacking weapon: statistics (name fills damage and type from the weapon pack) or a "
                       "weapon-pack name.",
        "oneOf": [ATTACK_WEAPON_JSON, {"type": "string", "minLength": 1, "maxLength": 64}]})
    defence = fields.Nested(AttackDefenceSchema, load_default=lambda: dict(ATTACK_DEFENCE_DEFAULT),
                            metadata={"description": "The defender's declared defence."})
    damage_bonus = dice_field("The attacker's damage bonus, e.g. \"+1d4\".", load_default="0")
    target = fields.Nested(TargetSchema, load_default=lambda: {**TARGET_DEFAULT, "armor": {}},
                           metadata={"description": "The target (default an unarmored human)."})
    rolls = rolls_field("RunequestHouseAttackRolls", {
        **TO_HIT_ROLES, "damage": ("The weapon's dice in order (twice for a special).", 80),
        "bonus": ("The damage bonus dice.", 40)})


class AttackSchema(Schema):
    """Exact odds of the attack's result and of the damage reaching a location."""
    receipt = receipt_answer_field()

    chance = JsonFloat(required=True, metadata={"description": "P(the attack lands on the body), as to-hit."})
    chance_exact = fields.String(required=True, metadata={"description": "The same, exact."})
    probabilities = probability_dict("fumble, miss, no_damage, damage (exclusive).")
    probabilities_exact = exact_dict("The same odds.")
    damage_probabilities = probability_dict("Points reaching a location's HP (keys \"0\", \"1\", ...).")
    damage_probabilities_exact = exact_dict("The same.")
    roll = fields.Dict(required=True, allow_none=True, metadata={"description": "The to-hit roll merged with the "
                                                                               "damage roll, or null."})
    dice = dice_list()
    seed = answer_seed()
    assumptions = assumptions_list()
    trace = trace_field()
