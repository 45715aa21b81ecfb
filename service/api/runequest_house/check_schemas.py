"""Schemas of /v1/runequest-house/check, /to-hit and /attack."""
from __future__ import annotations

from typing import Any

from marshmallow import Schema, ValidationError, fields, validate

from service.api.kit.fields import choice, flag, probability_dict, string_or_null, whole
from service.api.kit.receipts import receipt_answer_field, receipt_field
from service.api.runequest_house.common import (
    ITEMS,
    LOCATIONS,
    WEAPON_KINDS,
    WEAPON_TYPES,
    BandsSchema,
    answer_seed,
    assumptions_list,
    chance_pair,
    dice_field,
    dice_list,
    exact_dict,
    number_or_null,
    options_field,
    rolls_field,
    seed_field,
    trace_field,
)
from service.api.runequest_house.damage_schemas import LAYER_META, LayerField
from service.api.kit.schemas import JsonBoolean, JsonFloat, JsonInteger
from service.rules.runequest_house.dice_expr import DICE_SHAPE

MULTIPLIERS = ("1", "3/4", "1/2", "1/5")


class CharacteristicSchema(Schema):
    """A characteristic roll: the characteristic times a multiple (DEX x5 "difficult", DEX x3 "very difficult")."""

    value = whole(1, 100, "The characteristic (1..100).", required=True)
    multiple = whole(1, 5, "The multiple (1..5).", required=True)


class CheckRequestSchema(Schema):
    """One percentile roll: a skill or a characteristic x multiple, with modifiers."""
    receipt = receipt_field()

    skill = whole(-100, 300, "The skill % (give this or `characteristic`).", load_default=None, allow_none=True)
    characteristic = fields.Nested(CharacteristicSchema, load_default=None, allow_none=True,
                                   metadata={"description": "A characteristic roll instead of a skill."})
    modifier = whole(-200, 200, "Additive modifier in percentage points.", load_default=0)
    multiplier = choice(MULTIPLIERS, "Fractional multiplier applied after the additive modifier.", load_default="1")
    fumble_multiplier = whole(1, 2, "2 doubles the fumble count (flexible or chain weapons, Page 63).",
                                load_default=1)
    options = options_field()
    seed = seed_field()
    rolls = rolls_field("RunequestHouseCheckRolls", {"d100": ("The d100 face (1..100, 100 = 00).", 1)})


class CheckRollSchema(Schema):
    """The rolled d100 and its degree."""

    d100 = whole(1, 100, "The face rolled.", required=True)
    degree = choice(("fumble", "failure", "success", "special", "critical"), "Its degree.", required=True)


class CheckSchema(Schema):
    """The effective percentage, its bands, the exact degree odds and the optional roll."""
    receipt = receipt_answer_field()

    effective = JsonInteger(required=True, metadata={"description": "The modified skill after rounding."})
    bands = fields.Nested(BandsSchema, required=True, metadata={"description": "The degree bands."})
    chance = JsonFloat(required=True, metadata={"description": "P(success of any degree)."})
    chance_exact = fields.String(required=True, metadata={"description": "`chance` as an exact fraction."})
    probabilities = probability_dict("Exclusive odds of critical, special, success, failure, fumble.")
    probabilities_exact = exact_dict("The same odds.")
    roll = fields.Nested(CheckRollSchema, required=True, allow_none=True,
                         metadata={"description": "The roll, when `seed` or `rolls` was sent."})
    dice = dice_list()
    seed = answer_seed()
    assumptions = assumptions_list()
    trace = trace_field()


class WeaponSchema(Schema):
    """The attacking weapon's properties that change the odds."""

    kind = choice(WEAPON_KINDS, "melee, thrown or projected.", load_default="melee")
    hands = whole(1, 2, "One- or two-handed.", load_default=1)
    flexible = flag("A flexible or chain weapon (double fumble count; parried x3/4 by larger shields).")
    hacking = flag("A hacking weapon (two-handed hacking weapons are x3/4 mounted).")
    length_m = JsonFloat(load_default=1, validate=validate.Range(0, 10),
                         metadata={"description": "Length in metres (2 m or more: x1/2 when closed)."})


class AttackWeaponSchema(WeaponSchema):
    """The attacking weapon: odds properties plus its damage and type (or `name` from the weapon pack)."""

    name = fields.String(load_default=None, allow_none=True, validate=validate.Length(1, 64),
                         metadata={"description": "A weapon-pack name: fills damage and type when not given."})
    damage = dice_field("Dice expression, e.g. \"1d8+1\".", load_default=None, allow_none=True)
    type = choice(WEAPON_TYPES, "crush, slash or impale.", load_default=None, allow_none=True)


class SituationSchema(Schema):
    """The attacker's situation (every flag defaults to false)."""

    high_ground = flag("Standing half again higher than the target: +10% (Page 54).")
    same_weapon_twice = flag("One of two attacks with the same weapon: -10% (1) Statement of Intent).")
    mounted = flag("Mounted against a footman: high ground; two-handed hacking weapons x3/4 (Page 52).")
    shooter_adjacent = flag("The shooter began the round adjacent to an enemy: projected x1/2, full dodge.")
    point_blank = flag("Within point blank range (1/10 of effective range).")
    closed_vs_long = flag("The attacker is closed while wielding a weapon of 2 m or more.")
    prone_attacker = flag("The attacker is prone.")
    prone_target = flag("The target is prone.")
    high_ground_location = flag("Two-handed melee weapon from high ground: use 1d10+10 locations.")
    giant_exposed = flag("The target is a giant attacking with the limb struck: it cannot dodge (Page 63).")
    terrain_bonus = JsonInteger(load_default=0, validate=validate.OneOf([0, 10, 20]),
                                metadata={"description": "Bonus after crossing terrain: 10 special, 20 critical."})
    target_movement = choice(("none", "moved", "fast"), "Missile target movement (penalty doubled at point blank).",
                             load_default="none")


class DefenceSchema(Schema):
    """The defender's declared dodge or parry."""

    type = choice(("none", "dodge", "parry"), "The defence.", load_default="none")
    skill = whole(0, 300, "Dodge or parry % (required with dodge or parry).", load_default=None, allow_none=True)
    modifier = whole(-200, 200, "Additive modifier.", load_default=0)
    item = choice(ITEMS, "What parries.", load_default="weapon")
    high_ground = flag("The parrier has high ground: +10% to parries.")
    defensive_abort = flag("A defensive abort: -20%.")
    double_dodge = flag("Two dodge actions declared: -10% per opponent after the first.")
    two_attackers_same_weapon = flag("One one-handed weapon parries two attackers: -20%.")
    braced = flag("Braced against knockback (cannot dodge: 422).")
    opponent_number = whole(1, 20, "This attacker's place among the opponents dodged this round.", load_default=1)
    same_sr_attacks = whole(0, 20, "Other attacks landing on the same SR (dodge only).", load_default=0)


class AttackDefenceSchema(DefenceSchema):
    """The defence, with the parrying item's AP."""

    ap = whole(0, 60, "The parrying item's AP (required for a parry).", load_default=None, allow_none=True)


WEAPON_DEFAULT = WeaponSchema().load({})
SITUATION_DEFAULT = SituationSchema().load({})
DEFENCE_DEFAULT = DefenceSchema().load({})
ATTACK_DEFENCE_DEFAULT = AttackDefenceSchema().load({})
TO_HIT_ROLES = {"attack": ("The attack d100.", 1), "defence": ("The dodge or parry d100.", 1),
                "location": ("The location d20 (d10 from high ground).", 1)}


class ToHitRequestSchema(Schema):
    """An attack % against a declared dodge, parry or nothing."""
    receipt = receipt_field()

    attack = whole(0, 300, "The weapon's attack %.", required=True)
    attack_modifier = whole(-200, 200, "Any other additive modifier.", load_default=0)
    weapon = fields.Nested(WeaponSchema, load_default=lambda: dict(WEAPON_DEFAULT),
                           metadata={"description": "The attacking weapon."})
    situation = fields.Nested(SituationSchema, load_default=lambda: dict(SITUATION_DEFAULT),
                              metadata={"description": "The attacker's situation."})
    defence = fields.Nested(DefenceSchema, load_default=lambda: dict(DEFENCE_DEFAULT),
                            metadata={"description": "The defender's declared defence."})
    options = options_field()
    seed = seed_field()
    rolls = rolls_field("RunequestHouseToHitRolls", TO_HIT_ROLES)


class ToHitRollSchema(Schema):
    """The rolled attack, defence and location."""

    attack = whole(1, 100, "The attack d100.", required=True)
    attack_degree = choice(("fumble", "failure", "success", "special", "critical"), "Its degree.", required=True)
    defence = JsonInteger(required=True, allow_none=True, metadata={"description": "The defence d100 (null: none)."})
    defence_degree = string_or_null("Its degree.")
    outcome = fields.String(required=True, metadata={"description": "One of the probability keys."})
    location = string_or_null("Where the blow lands (null when it does not).")


class ToHitSchema(Schema):
    """Degree outcome odds of the attack against the defence, and the location table."""
    receipt = receipt_answer_field()

    attack_effective = JsonInteger(required=True, metadata={"description": "The attack % after modifiers."})
    attack_bands = fields.Nested(BandsSchema, required=True, metadata={"description": "The attack's bands."})
    defence_effective = JsonInteger(required=True, allow_none=True,
                                    metadata={"description": "The dodge or parry % used (unreduced when critical only)."})
    defence_bands = fields.Nested(BandsSchema, required=True, allow_none=True,
                                  metadata={"description": "The defence's bands."})
    defence_critical_only = JsonBoolean(required=True, metadata={"description": "Only a critical defence counts."})
    defence_chance = number_or_null("P(the defence succeeds with a degree that counts).")
    defence_chance_exact = string_or_null("The same, exact.")
    chance = JsonFloat(required=True, metadata={"description": "P(the attack lands on the body)."})
    chance_exact = fields.String(required=True, metadata={"description": "The same, exact."})
    probabilities = probability_dict("Exclusive outcome odds (keys depend on the defence).")
    probabilities_exact = exact_dict("The same odds.")
    location_table = choice(("melee", "missile", "high_ground"), "The location table used.", required=True)
    location_probabilities = probability_dict("The location roll's distribution.")
    location_probabilities_exact = exact_dict("The same.")
    roll = fields.Nested(ToHitRollSchema, required=True, allow_none=True, metadata={"description": "The roll."})
    dice = dice_list()
    seed = answer_seed()
    assumptions = assumptions_list()
    trace = trace_field()


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


__all__ = ["chance_pair"]
