"""Schemas of /v1/runequest-house/damage, /armor and /knockback."""
from __future__ import annotations

from typing import Any

from marshmallow import Schema, ValidationError, fields, validate

from service.api.kit.fields import choice, flag, probability_dict, string_or_null, whole
from service.api.kit.receipts import receipt_answer_field, receipt_field
from service.api.kit.schemas import JsonBoolean, JsonFloat, JsonInteger
from service.api.runequest_house.fields import (
    LOCATIONS,
    WEAPON_TYPES,
    answer_seed,
    assumptions_list,
    dice_field,
    dice_list,
    exact_dict,
    number_or_null,
    options_field,
    rolls_field,
    seed_field,
    trace_field,
)
from service.rules.runequest_house.dice_expr import DICE_SHAPE


class LayerField(fields.Field):
    """One armor layer: its AP (0..30) or an armor-pack name."""

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> int | str:
        if isinstance(value, str) and 1 <= len(value) <= 64:
            return value
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 30:
            return value
        raise ValidationError("Must be an AP 0..30 or an armor-pack name.")


LAYER_META = {"description": "AP (0..30) or an armor-pack name such as \"chainmail\".",
              "oneOf": [{"type": "integer", "minimum": 0, "maximum": 30}, {"type": "string", "minLength": 1,
                                                                          "maxLength": 64}]}


class WeaponField(fields.Field):
    """A weapon as `{damage, type}` or a weapon-pack name."""

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> Any:
        if isinstance(value, str) and 1 <= len(value) <= 64:
            return value
        if isinstance(value, dict):
            return DamageWeaponSchema().load(value)
        raise ValidationError("Must be {damage, type} or a weapon-pack name.")


class DamageWeaponSchema(Schema):
    """A weapon's damage dice and type."""

    damage = dice_field("Dice expression, e.g. \"1d8+1\".", required=True)
    type = choice(WEAPON_TYPES, "crush, slash or impale.", required=True)


class AttackerSchema(Schema):
    """STR and SIZ, for the damage bonus."""

    str = whole(1, 100, "STR.", required=True)
    siz = whole(1, 100, "SIZ.", required=True)


class ParrySchema(Schema):
    """The parry met by the blow."""

    degree = choice(("none", "failure", "success", "special", "critical"), "The parry's degree.", load_default="none")
    ap = whole(0, 60, "The parrying item's AP.", load_default=0)


class DamageTargetSchema(Schema):
    """The struck figure (all optional)."""

    siz = whole(1, 100, "SIZ (for knockback).", load_default=None, allow_none=True)
    str = whole(1, 100, "STR (braced knockback).", load_default=None, allow_none=True)
    dex = whole(1, 100, "DEX (the roll to stay up).", load_default=None, allow_none=True)
    armor = fields.List(LayerField(metadata=LAYER_META), load_default=list, validate=validate.Length(max=5),
                        metadata={"description": "Armor layers on the struck location."})
    protection = whole(0, 30, "Protective spell AP.", load_default=0)
    location_hp = whole(-200, 200, "The location's HP (also the reference for severing).", load_default=None,
                          allow_none=True)
    hp = whole(-200, 200, "Total HP.", load_default=None, allow_none=True)
    braced = flag("Braced against knockback.")


PARRY_DEFAULT = ParrySchema().load({})
TARGET_DEFAULT = DamageTargetSchema().load({})


class DamageRequestSchema(Schema):
    """One landed blow."""

    EXAMPLE = {"weapon": "broadsword", "damage_bonus": "+1d4", "degree": "special", "location": "chest",
               "target": {"siz": 13, "str": 12, "dex": 14, "armor": ["ringmail", "soft_leather"],
                          "location_hp": 6, "hp": 13},
               "seed": 3}
    receipt = receipt_field()

    weapon = WeaponField(required=True, metadata={
        "description": "{damage, type} or a weapon-pack name.",
        "oneOf": [{"type": "object", "additionalProperties": False, "required": ["damage", "type"],
                   "properties": {"damage": DICE_SHAPE,
                                  "type": {"type": "string", "enum": list(WEAPON_TYPES)}}},
                  {"type": "string", "minLength": 1, "maxLength": 64}]})
    damage_bonus = dice_field("Dice expression, e.g. \"+1d4\", \"-1d4\", \"0\".", load_default=None,
                              allow_none=True)
    attacker = fields.Nested(AttackerSchema, load_default=None, allow_none=True,
                             metadata={"description": "STR and SIZ instead of `damage_bonus`."})
    degree = choice(("success", "special", "critical", "critical_max"), "The attack's degree.", load_default="success")
    parry = fields.Nested(ParrySchema, load_default=lambda: dict(PARRY_DEFAULT),
                          metadata={"description": "The parry met."})
    location = choice(LOCATIONS, "The struck location.", required=True)
    target = fields.Nested(DamageTargetSchema, load_default=lambda: {**TARGET_DEFAULT, "armor": []},
                           metadata={"description": "The struck figure."})
    options = options_field()
    seed = seed_field()
    rolls = rolls_field("RunequestHouseDamageRolls", {
        "damage": ("The weapon's dice in order (twice for a special).", 80), "bonus": ("The damage bonus dice.", 40)})


class CollisionSchema(Schema):
    """Damage dice of a knockback into something."""

    dice = fields.String(required=True, metadata={"description": "Dice to a random location, e.g. \"1d6\"."})
    doubled = JsonBoolean(required=True, metadata={"description": "Doubled against a solid object."})


class KnockbackSchema(Schema):
    """Knockback distance and the DEX roll to stay standing."""

    knockback_damage = JsonInteger(required=True, metadata={"description": "Damage counted (doubled/zeroed)."})
    threshold = JsonInteger(required=True, metadata={"description": "SIZ (+ mount) or STR + SIZ when braced."})
    metres = JsonInteger(required=True, metadata={"description": "Metres of knockback."})
    dex_multiplier = JsonInteger(required=True, allow_none=True, metadata={"description": "6 - metres."})
    dex_chance = number_or_null("P(the DEX roll succeeds).")
    dex_chance_exact = string_or_null("The same, exact.")
    automatic_fall = JsonBoolean(required=True, metadata={"description": "The multiple is 0 or less."})
    unhorsed = JsonBoolean(required=True, allow_none=True, metadata={"description": "Knocked off the mount (null: "
                                                                                  "not mounted or up to the DEX roll)."})
    collision = fields.Nested(CollisionSchema, required=True, allow_none=True,
                              metadata={"description": "Collision dice, or null."})


class DamageRollSchema(Schema):
    """One rolled blow followed through."""

    damage = JsonInteger(required=True, metadata={"description": "The blow's damage."})
    through_parry = JsonInteger(required=True, metadata={"description": "Damage past the parrying item."})
    parry_ap_loss = JsonInteger(required=True, metadata={"description": "AP the parrying item loses."})
    armor_absorbed = JsonInteger(required=True, metadata={"description": "Points stopped by armor."})
    to_location = JsonInteger(required=True, metadata={"description": "Points reaching the location's HP."})
    location_hp_after = JsonInteger(required=True, allow_none=True, metadata={"description": "The location's HP after."})
    hp_after = JsonInteger(required=True, allow_none=True, metadata={"description": "Total HP after."})
    location_state = fields.String(required=True, allow_none=True, validate=validate.OneOf(
        ["ok", "useless", "severed", "unconscious", "incapacitated", "dying"]),
        metadata={"description": "What the wound does."})
    dead = JsonBoolean(required=True, allow_none=True, metadata={"description": "Total HP at 0 or less."})
    knockback = fields.Nested(KnockbackSchema, required=True, allow_none=True,
                              metadata={"description": "Knockback (null without the target's SIZ)."})


class DamageSchema(Schema):
    """The blow's expression, armor, the exact damage distribution and the optional roll."""
    receipt = receipt_answer_field()

    expression = fields.String(required=True, metadata={"description": "What is rolled after the special effect."})
    armor_ap = JsonInteger(required=True, metadata={"description": "Layered AP + protection; 0 on a critical."})
    probabilities = probability_dict("Points reaching the location's HP (keys \"0\", \"1\", ...).")
    probabilities_exact = exact_dict("The same.")
    knockback_chance = number_or_null("P(any knockback) (null without the target's SIZ).")
    knockback_chance_exact = string_or_null("The same, exact.")
    roll = fields.Nested(DamageRollSchema, required=True, allow_none=True, metadata={"description": "The roll."})
    dice = dice_list()
    seed = answer_seed()
    assumptions = assumptions_list()
    trace = trace_field()


class ArmorRequestSchema(Schema):
    """The layers worn on one location."""

    EXAMPLE = {"layers": ["plate", "chainmail"], "protection": 2}

    layers = fields.List(LayerField(metadata=LAYER_META), required=True, validate=validate.Length(1, 5),
                         metadata={"description": "Layer APs or armor-pack names."})
    protection = whole(0, 30, "Protective spell AP.", load_default=0)
    options = options_field()


class ArmorSchema(Schema):
    """Layered AP of one location (Page 68)."""

    ap = JsonInteger(required=True, metadata={"description": "Layered AP + protection."})
    highest = JsonInteger(required=True, metadata={"description": "The highest piece's AP."})
    layer_bonus = JsonInteger(required=True, metadata={"description": "What the lower layers add."})
    trace = trace_field()


class MountSchema(Schema):
    """A mounted target's Ride roll and mount."""

    ride_success = JsonBoolean(required=True, metadata={"description": "The Ride roll succeeded."})
    mount_siz = whole(1, 200, "The mount's SIZ.", required=True)


class KnockbackTargetSchema(Schema):
    """The pushed figure."""

    siz = whole(1, 100, "SIZ.", required=True)
    str = whole(1, 100, "STR (needed when braced).", load_default=None, allow_none=True)
    dex = whole(1, 100, "DEX (for the roll to stay up).", load_default=None, allow_none=True)
    braced = flag("Braced against knockback.")
    mounted = fields.Nested(MountSchema, load_default=None, allow_none=True, metadata={"description": "The mount."})


class KnockbackRequestSchema(Schema):
    """A damage figure and its target."""

    EXAMPLE = {"damage": 24, "weapon_type": "crush", "target": {"siz": 13, "dex": 12}}

    damage = whole(0, 1000, "The damage that got past any parry.", required=True)
    weapon_type = choice(WEAPON_TYPES, "crush, slash or impale.", required=True)
    penetrated = JsonBoolean(load_default=True, metadata={"description": "The blow got through the body armor."})
    impaled = flag("A special or critical impale that did damage.")
    target = fields.Nested(KnockbackTargetSchema, required=True, metadata={"description": "The pushed figure."})
    obstacle = choice(("none", "creature", "solid"), "What the target is knocked into.", load_default="none")
    options = options_field()


class KnockbackAnswerSchema(KnockbackSchema):
    """Knockback from a damage figure (Page 49)."""

    trace = trace_field()


__all__ = ["JsonFloat"]
