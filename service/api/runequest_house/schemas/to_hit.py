"""Schemas of /v1/runequest-house/to-hit (rules document §4, §12): shapes and bounds only."""
from __future__ import annotations

from marshmallow import Schema, fields, validate

from service.api.kit.fields import choice, flag, probability_dict, string_or_null, whole
from service.api.kit.receipts import receipt_answer_field, receipt_field
from service.api.kit.schemas import JsonBoolean, JsonFloat, JsonInteger
from service.api.runequest_house.fields import (
    ITEMS,
    WEAPON_KINDS,
    BandsSchema,
    answer_seed,
    assumptions_list,
    dice_list,
    exact_dict,
    number_or_null,
    options_field,
    rolls_field,
    seed_field,
    trace_field,
)


class WeaponSchema(Schema):
    """The attacking weapon's properties that change the odds."""

    kind = choice(WEAPON_KINDS, "melee, thrown or projected.", load_default="melee")
    hands = whole(1, 2, "One- or two-handed.", load_default=1)
    flexible = flag("A flexible or chain weapon (double fumble count; parried x3/4 by larger shields).")
    hacking = flag("A hacking weapon (two-handed hacking weapons are x3/4 mounted).")
    length_m = JsonFloat(load_default=1, validate=validate.Range(0, 10),
                         metadata={"description": "Length in metres (2 m or more: x1/2 when closed)."})


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


WEAPON_DEFAULT = WeaponSchema().load({})


SITUATION_DEFAULT = SituationSchema().load({})


DEFENCE_DEFAULT = DefenceSchema().load({})


TO_HIT_ROLES = {"attack": ("The attack d100.", 1), "defence": ("The dodge or parry d100.", 1),
                "location": ("The location d20 (d10 from high ground).", 1)}


class ToHitRequestSchema(Schema):
    """An attack % against a declared dodge, parry or nothing."""

    EXAMPLE = {"attack": 70, "defence": {"type": "parry", "skill": 55, "item": "medium_shield"}, "seed": 11}
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
