"""Schemas of /v1/tactical/damage and /v1/tactical/armor-wear: shape only (the rules check the rest)."""
from __future__ import annotations

from typing import Any

from marshmallow import Schema, fields, validate

from service.api.kit.schemas import JsonBoolean, JsonFloat, JsonInteger, trace_field
from service.api.tactical.fields import WeightClassField
from service.rules.tactical.armor import ARMOR_TYPES, ATTACKS
from service.rules.tactical.damage import RANGE_BANDS
from service.rules.tactical.potence import WEIGHT_CLASSES

GRIPS = ("one-handed", "hand-and-a-half", "two-handed", "hurled", "bow", "crossbow", "brawling")
EDGES = ("blunt", "edged", "pointed")
STAT = validate.Range(0, 500)


def _mph(**kw: Any) -> fields.Float:
    return JsonFloat(allow_nan=False, validate=validate.Range(0, 200), **kw)


class BlowAttackerSchema(Schema):
    """Who strikes: the numbers the POT of his blow comes from."""

    strength = JsonInteger(required=True, validate=STAT,
                    metadata={"description": "STR: the base of the blow's POT."})
    modified_sta = JsonInteger(required=True, validate=STAT,
                        metadata={"description": "Modified STA (size): scales the POT."})
    coordination = JsonInteger(load_default=None, validate=STAT, metadata={"description": "Needed for a slash."})
    charge_mph = _mph(load_default=0.0, metadata={"description": "Charge speed: added to melee blows, left "
                                                                 "out "
                                                               "(with a trace step) for hurled and missile ones."})
    wounds = JsonInteger(load_default=0, validate=validate.Range(0, 50),
                  metadata={"description": "The attacker's wounds: Grievous halves STR, Mortal quarters it."})


class BlowWeaponSchema(Schema):
    """What strikes: grip, size and weight class (table 6-5), edge."""

    grip = fields.String(required=True, validate=validate.OneOf(GRIPS),
                         metadata={"description": "one-handed, hand-and-a-half, two-handed, hurled, bow, "
                                                  "crossbow or brawling."})
    size = JsonInteger(load_default=None, validate=validate.Range(0, 20),
                metadata={"description": "Table 6-5 size (0..20; 0..13 for the DM table); a bow's size."})
    weight_class = WeightClassField(load_default=None, metadata={"description": "Weight class from table 6-5 "
                                                                                "(a name or 0-5).", "oneOf": [
        {"type": "integer", "minimum": 0, "maximum": 5}, {"type": "string", "enum": list(WEIGHT_CLASSES)},
        {"type": "null"}]})
    edge = fields.String(load_default="blunt", validate=validate.OneOf(EDGES),
                         metadata={"description": "blunt, edged or pointed."})
    arrowhead_db = JsonInteger(load_default=0, validate=validate.Range(0, 100),
                        metadata={"description": "Damage bonus of the arrowhead (missiles)."})
    fixed_pot = JsonInteger(load_default=None, validate=validate.Range(0, 1000),
                     metadata={"description": "A crossbow's fixed POT."})
    dm = JsonFloat(load_default=None, allow_nan=False, validate=validate.Range(0, 10),
                      metadata={"description": "Overrides the DM table under Body Points (0 allowed)."})
    bodkin = JsonBoolean(load_default=False,
                            metadata={"description": "Bodkin arrow or heavy crossbow bolt."})
    days_cocked = JsonInteger(load_default=0, validate=validate.Range(0, 365),
                              metadata={"description": "A crossbow: full days it was kept cocked before this "
                                                       "shot, -1 POT each, never below 0 (RULINGS 25; the GM's "
                                                       "call). Other grips: 0."})


class ArmorLayerSchema(Schema):
    """An armor layer or shield, outermost first."""

    type = fields.String(required=True, validate=validate.OneOf(ARMOR_TYPES),
                         metadata={"description": "Armor type from the catalog (`GET "
                                                  "/v1/rulesets/tactical/tables/armor-dr`)."})
    dr = JsonInteger(load_default=None, validate=validate.Range(0, 40),
              metadata={"description": "Effective DR now; below the left number it sets durability."})
    durability = JsonInteger(load_default=None, validate=validate.Range(0, 40),
                      metadata={"description": "The right-hand number, which takes the wear."})
    proof = JsonBoolean(load_default=False, metadata={"description": "Proof armor: bodkins and heavy bolts "
                                                                     "do not pierce it."})


class BlowTargetSchema(Schema):
    """Who is struck: size, condition, pain resistance and armor."""

    modified_sta = JsonInteger(required=True, validate=STAT,
                        metadata={"description": "Modified STA (size): resists knock-back."})
    condition = JsonInteger(required=True, validate=STAT, metadata={"description": "CND: sets the wound threshold."})
    pain_resistance = JsonInteger(required=True, validate=STAT,
                           metadata={"description": "P-RES: resists stun by pain."})
    armor = fields.List(fields.Nested(ArmorLayerSchema), load_default=list, validate=validate.Length(max=10),
                        metadata={"description": "Worn layers, outermost first."})
    clothing_layers = JsonInteger(load_default=0, validate=validate.Range(0, 20),
                           metadata={"description": "Layers of clothing under the armor."})
    wounds = JsonInteger(load_default=0, validate=validate.Range(0, 50),
                  metadata={"description": "Wounds taken before this blow."})
    moving_mph = _mph(load_default=0.0, metadata={"description": "For an Opportunity hit on a moving foe."})
    barrier_feet = JsonFloat(load_default=None, allow_nan=False, validate=validate.Range(0, 1000),
                             metadata={"description": "Feet to a wall or barrier behind him (knock-back into "
                                                      "it); null: none."})
    range_band = fields.String(load_default="short", validate=validate.OneOf(RANGE_BANDS),
                               metadata={"description": "Range band of a missile hit (its POT falls with "
                                                        "range)."})
    body_points = JsonInteger(load_default=None, validate=validate.Range(1, 100000),
                       metadata={"description": "Total Body Points (with options.body_points): the level "
                                                "then "
                                                "follows the share of BP lost (A50)."})
    damage_taken = JsonInteger(load_default=0, validate=validate.Range(0, 100000),
                        metadata={"description": "BP already lost before this blow."})


class BlowOptionsSchema(Schema):
    """Rule switches for one blow."""

    armor_wear = JsonBoolean(load_default=True, metadata={"description": "The armor wears."})
    body_points = JsonBoolean(load_default=False,
                              metadata={"description": "Count body points as well as wounds."})
    heroic_double = JsonBoolean(load_default=False, metadata={"description": "A Heroic hit: double POT."})
    first_edged_blow = JsonBoolean(load_default=True,
                                   metadata={"description": "This is the first edged blow the target takes."})
    progression = fields.String(load_default="triangular", validate=validate.OneOf(["triangular", "linear"]),
                                metadata={"description": "Wound progression: triangular or linear."})


class DamageRequestSchema(Schema):
    """One landed blow: attacker, weapon, attack type, target and options."""

    EXAMPLE = {"attacker": {"strength": 16, "modified_sta": 14},
               "weapon": {"grip": "one-handed", "size": 6, "weight_class": "medium", "edge": "edged"},
               "target": {"modified_sta": 12, "condition": 12, "pain_resistance": 6, "armor": [{"type": "padded"}]}}

    attacker = fields.Nested(BlowAttackerSchema, required=True, metadata={"description": "Who strikes."})
    weapon = fields.Nested(BlowWeaponSchema, required=True, metadata={"description": "What strikes."})
    attack = fields.String(load_default="common", validate=validate.OneOf(ATTACKS),
                           metadata={"description": "Attack type: common, slash or thrust."})
    target = fields.Nested(BlowTargetSchema, required=True, metadata={"description": "Who is struck."})
    options = fields.Nested(BlowOptionsSchema, load_default=dict, metadata={"description": "Rule switches."})


class ArmorLayerStateSchema(Schema):
    """An armor layer as it stands."""

    type = fields.String(required=True, metadata={"description": "Armor type."})
    dr = JsonInteger(required=True, metadata={"description": "Damage Reduction left."})
    durability = JsonInteger(required=True, metadata={"description": "Durability (wear number) left."})
    proof = JsonBoolean(required=True, metadata={"description": "Whether it is proofed."})


class PainStunSchema(Schema):
    """Stun by pain: the check and what failing it costs."""

    check_dv = JsonInteger(required=True, metadata={"description": "DV of the P-RES check."})
    penalty_if_failed = JsonInteger(required=True,
                                    metadata={"description": "Stun penalty when the check fails."})
    penalty_if_passed = JsonInteger(required=True, metadata={"description": "Stun penalty when it succeeds."})


class WoundDeathCheckSchema(Schema):
    """A death check the wounds call for."""

    dv = JsonInteger(required=True, metadata={"description": "DV of the check."})


class BodyPointsSchema(Schema):
    """Body points, when counted."""

    damage = JsonInteger(required=True, metadata={"description": "BP lost in all, this blow included."})
    total = JsonInteger(required=True, metadata={"description": "Body points in all."})
    remaining = JsonInteger(required=True, metadata={"description": "Body points left."})
    level = fields.String(required=True, validate=validate.OneOf(["none", "light", "serious", "grievous",
                                                                  "mortal"]),
        metadata={"description": "Injury level they amount to."})


class DamageResultSchema(Schema):
    """What one landed blow does: POT, knock-back, armor, wounds, stun."""

    pot = JsonInteger(required=True, metadata={"description": "Potence of the blow."})
    knockback_feet = JsonInteger(required=True, metadata={"description": "Feet the target is knocked back."})
    keep_feet_dv = JsonInteger(required=True, metadata={"description": "DV of the check to keep his feet."})
    pot_through_armor = JsonInteger(required=True, metadata={"description": "POT left after the armor."})
    wound_threshold = JsonFloat(required=True, metadata={"description": "POT per wound for this target."})
    wounds_inflicted = JsonInteger(required=True, metadata={"description": "Wounds this blow deals."})
    wounds_total = JsonInteger(required=True, metadata={"description": "Wounds after it."})
    wound_level = fields.String(required=True,
                                validate=validate.OneOf(["none", "light", "serious", "grievous", "mortal"]),
        metadata={"description": "Wound level after it."})
    status = fields.String(required=True, validate=validate.OneOf(["alive", "collapsed", "dead"]),
                           metadata={"description": "alive, collapsed or dead."})
    death_check = fields.Nested(WoundDeathCheckSchema, required=True, allow_none=True,
                                metadata={"description": "The death check called for (null: none)."})
    effective_strength_factor = JsonFloat(required=True, metadata={"description": "STR factor the POT used."})
    stun = fields.Nested(PainStunSchema, required=True, allow_none=True,
                         metadata={"description": "Stun by pain (null: no pain check)."})
    armor_before = fields.List(fields.Nested(ArmorLayerStateSchema), required=True,
                               metadata={"description": "Armor layers before the blow."})
    armor_after = fields.List(fields.Nested(ArmorLayerStateSchema), required=True,
                              metadata={"description": "Armor layers after it (worn when armor wear is on)."})
    body_points = fields.Nested(BodyPointsSchema, allow_none=True,
                                metadata={"description": "With options.body_points and target.body_points."})
    trace = trace_field()


class WearStrikeSchema(Schema):
    """One strike on the armor."""

    db = JsonInteger(required=True, validate=validate.Range(0, 1000),
              metadata={"description": "The weapon's DB (or DM bonus under Body Points): the wear."})
    attack = fields.String(load_default="common", validate=validate.OneOf(ATTACKS),
                           metadata={"description": "Attack type (a slash wears differently)."})
    pot = JsonInteger(load_default=None, validate=validate.Range(0, 10000),
               metadata={"description": "Needed for a slash."})


class ArmorWearOptionsSchema(Schema):
    """Rule switches for armor wear."""

    body_points = JsonBoolean(load_default=False, metadata={"description": "Count body points too."})


class ArmorWearRequestSchema(Schema):
    """Armor layers and the strikes that land on them, in order."""

    EXAMPLE = {"armor": [{"type": "singlemail"}, {"type": "padded"}],
               "strikes": [{"db": 5}, {"db": 5}, {"attack": "slash", "db": 5, "pot": 25}]}

    armor = fields.List(fields.Nested(ArmorLayerSchema), required=True, validate=validate.Length(1, 10),
                        metadata={"description": "Layers, outermost first."})
    strikes = fields.List(fields.Nested(WearStrikeSchema), required=True, validate=validate.Length(1, 100),
                          metadata={"description": "Strikes in order."})
    options = fields.Nested(ArmorWearOptionsSchema, load_default=dict,
                            metadata={"description": "Rule switches."})


class ArmorWearResultSchema(Schema):
    """The armor after each strike."""

    states = fields.List(fields.List(fields.Nested(ArmorLayerStateSchema)), required=True,
                         metadata={"description": "Layers after each strike, one list per strike."})
    trace = trace_field()
