"""Schemas of /v1/tactical/damage and /v1/tactical/armor-wear: shape only (the rules check the rest)."""
from __future__ import annotations

from typing import Any

from marshmallow import Schema, ValidationError, fields, validate

from service.api.schemas import JsonBoolean, JsonFloat, JsonInteger, trace_field
from service.rules.tactical.armor import ARMOR_TYPES, ATTACKS
from service.rules.tactical.damage import RANGE_BANDS
from service.rules.tactical.potence import WEIGHT_CLASSES

GRIPS = ("one-handed", "hand-and-a-half", "two-handed", "hurled", "bow", "crossbow", "brawling")
EDGES = ("blunt", "edged", "pointed")
STAT = validate.Range(0, 500)


def _int(**kw: Any) -> fields.Integer:
    return JsonInteger(**kw)


def _mph(**kw: Any) -> fields.Float:
    return JsonFloat(allow_nan=False, validate=validate.Range(0, 200), **kw)


class WeightClassField(fields.Field):
    """A weight class by name or by index 0..5 (RULINGS 10)."""

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> int | str:
        if isinstance(value, str) and value in WEIGHT_CLASSES:
            return value
        if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 5:
            return value
        raise ValidationError(f"Must be an index 0..5 or one of: {', '.join(WEIGHT_CLASSES)}.")


class BlowAttackerSchema(Schema):
    strength = _int(required=True, validate=STAT)
    modified_sta = _int(required=True, validate=STAT)
    coordination = _int(load_default=None, validate=STAT, metadata={"description": "Needed for a slash."})
    charge_mph = _mph(load_default=0.0, metadata={"description": "Charge speed: added to melee blows, left out "
                                                               "(with a trace step) for hurled and missile ones."})
    wounds = _int(load_default=0, validate=validate.Range(0, 50),
                  metadata={"description": "The attacker's wounds: Grievous halves STR, Mortal quarters it."})


class BlowWeaponSchema(Schema):
    grip = fields.String(required=True, validate=validate.OneOf(GRIPS))
    size = _int(load_default=None, validate=validate.Range(0, 20),
                metadata={"description": "Table 6-5 size (0..20; 0..13 for the DM table); a bow's size."})
    weight_class = WeightClassField(load_default=None, metadata={"oneOf": [
        {"type": "integer", "minimum": 0, "maximum": 5}, {"type": "string", "enum": list(WEIGHT_CLASSES)},
        {"type": "null"}]})
    edge = fields.String(load_default="blunt", validate=validate.OneOf(EDGES))
    arrowhead_db = _int(load_default=0, validate=validate.Range(0, 100))
    fixed_pot = _int(load_default=None, validate=validate.Range(0, 1000),
                     metadata={"description": "A crossbow's fixed POT."})
    dm = JsonFloat(load_default=None, allow_nan=False, validate=validate.Range(0, 10),
                      metadata={"description": "Overrides the DM table under Body Points (0 allowed)."})
    bodkin = JsonBoolean(load_default=False,
                            metadata={"description": "Bodkin arrow or heavy crossbow bolt."})


class ArmorLayerSchema(Schema):
    type = fields.String(required=True, validate=validate.OneOf(ARMOR_TYPES))
    dr = _int(load_default=None, validate=validate.Range(0, 40),
              metadata={"description": "Effective DR now; below the left number it sets durability."})
    durability = _int(load_default=None, validate=validate.Range(0, 40),
                      metadata={"description": "The right-hand number, which takes the wear."})
    proof = JsonBoolean(load_default=False)


class BlowTargetSchema(Schema):
    modified_sta = _int(required=True, validate=STAT)
    condition = _int(required=True, validate=STAT)
    pain_resistance = _int(required=True, validate=STAT)
    armor = fields.List(fields.Nested(ArmorLayerSchema), load_default=list, validate=validate.Length(max=10),
                        metadata={"description": "Worn layers, outermost first."})
    clothing_layers = _int(load_default=0, validate=validate.Range(0, 20))
    wounds = _int(load_default=0, validate=validate.Range(0, 50))
    moving_mph = _mph(load_default=0.0, metadata={"description": "For an Opportunity hit on a moving foe."})
    barrier_feet = JsonFloat(load_default=None, allow_nan=False, validate=validate.Range(0, 1000))
    range_band = fields.String(load_default="short", validate=validate.OneOf(RANGE_BANDS))
    body_points = _int(load_default=None, validate=validate.Range(1, 100000),
                       metadata={"description": "Total Body Points (with options.body_points): the level then "
                                                "follows the share of BP lost (A50)."})
    damage_taken = _int(load_default=0, validate=validate.Range(0, 100000),
                        metadata={"description": "BP already lost before this blow."})


class BlowOptionsSchema(Schema):
    armor_wear = JsonBoolean(load_default=True)
    body_points = JsonBoolean(load_default=False)
    heroic_double = JsonBoolean(load_default=False)
    first_edged_blow = JsonBoolean(load_default=True)
    progression = fields.String(load_default="triangular", validate=validate.OneOf(["triangular", "linear"]))


class DamageRequestSchema(Schema):
    attacker = fields.Nested(BlowAttackerSchema, required=True)
    weapon = fields.Nested(BlowWeaponSchema, required=True)
    attack = fields.String(load_default="common", validate=validate.OneOf(ATTACKS))
    target = fields.Nested(BlowTargetSchema, required=True)
    options = fields.Nested(BlowOptionsSchema, load_default=dict)


class ArmorLayerStateSchema(Schema):
    type = fields.String(required=True)
    dr = JsonInteger(required=True)
    durability = JsonInteger(required=True)
    proof = JsonBoolean(required=True)


class PainStunSchema(Schema):
    check_dv = JsonInteger(required=True)
    penalty_if_failed = JsonInteger(required=True)
    penalty_if_passed = JsonInteger(required=True)


class WoundDeathCheckSchema(Schema):
    dv = JsonInteger(required=True)


class BodyPointsSchema(Schema):
    damage = JsonInteger(required=True, metadata={"description": "BP lost in all, this blow included."})
    total = JsonInteger(required=True)
    remaining = JsonInteger(required=True)
    level = fields.String(required=True, validate=validate.OneOf(["none", "light", "serious", "grievous",
                                                                  "mortal"]))


class DamageResultSchema(Schema):
    pot = JsonInteger(required=True)
    knockback_feet = JsonInteger(required=True)
    keep_feet_dv = JsonInteger(required=True)
    pot_through_armor = JsonInteger(required=True)
    wound_threshold = JsonFloat(required=True)
    wounds_inflicted = JsonInteger(required=True)
    wounds_total = JsonInteger(required=True)
    wound_level = fields.String(required=True,
                                validate=validate.OneOf(["none", "light", "serious", "grievous", "mortal"]))
    status = fields.String(required=True, validate=validate.OneOf(["alive", "collapsed", "dead"]))
    death_check = fields.Nested(WoundDeathCheckSchema, required=True, allow_none=True)
    effective_strength_factor = JsonFloat(required=True)
    stun = fields.Nested(PainStunSchema, required=True, allow_none=True)
    armor_before = fields.List(fields.Nested(ArmorLayerStateSchema), required=True)
    armor_after = fields.List(fields.Nested(ArmorLayerStateSchema), required=True)
    body_points = fields.Nested(BodyPointsSchema, allow_none=True,
                                metadata={"description": "With options.body_points and target.body_points."})
    trace = trace_field()


class WearStrikeSchema(Schema):
    db = _int(required=True, validate=validate.Range(0, 1000),
              metadata={"description": "The weapon's DB (or DM bonus under Body Points): the wear."})
    attack = fields.String(load_default="common", validate=validate.OneOf(ATTACKS))
    pot = _int(load_default=None, validate=validate.Range(0, 10000),
               metadata={"description": "Needed for a slash."})


class ArmorWearOptionsSchema(Schema):
    body_points = JsonBoolean(load_default=False)


class ArmorWearRequestSchema(Schema):
    armor = fields.List(fields.Nested(ArmorLayerSchema), required=True, validate=validate.Length(1, 10))
    strikes = fields.List(fields.Nested(WearStrikeSchema), required=True, validate=validate.Length(1, 100))
    options = fields.Nested(ArmorWearOptionsSchema, load_default=dict)


class ArmorWearResultSchema(Schema):
    states = fields.List(fields.List(fields.Nested(ArmorLayerStateSchema)), required=True)
    trace = trace_field()
