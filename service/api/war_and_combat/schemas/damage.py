"""Schemas of /v1/war-and-combat/damage (rules document §12.3): the impact, the weapon, the armored target
and the landed blow's exact result distribution."""
from __future__ import annotations

from marshmallow import fields, validate

from service.api.kit.fields import choice, probability_dict, whole
from service.api.kit.receipts import receipt_answer_field, receipt_field
from service.api.kit.schemas import JsonBoolean, Strict, calculator_rolls_field, seed_field, trace_field
from service.api.war_and_combat.fields import (
    LOCATION_SPECIFIC,
    answer_seed_field,
    assumptions_field,
    dice_field,
    exact_field,
    options_field,
)
from service.rules.war_and_combat.damage import ATTACK_TYPES, DAMAGE_TYPES
from service.rules.war_and_combat.task import GENERAL

DAMAGE_ROLES = {"impact": "The weapon's impact dice in order (one d3 face, or k d6 faces).",
                "critical": "One d6 face per extra critical die."}


class StrengthSchema(Strict):
    """The attacker's strength."""

    strength = whole(-20, 100, "STR (impact cap = STR + weapon impact modifier).", required=True)


class BlowWeaponSchema(Strict):
    """The weapon's damage statistics."""

    impact_mod = whole(-50, 50, "Weapon impact modifier.", 0)
    penetration_value = whole(-50, 50, "Penetration value (subtracted from the armor's threshold).", 0)
    damage_type = choice(DAMAGE_TYPES, "Nature of a penetrating wound.", "blunt")


class ArmorPieceSchema(Strict):
    """Armor on one general location."""

    absorption = whole(0, 100, "Absorbed impact.", 0)
    penetration_threshold = whole(0, 100, "Effective impact it stops from penetrating.", 0)
    defence_bonus = whole(0, 20, "Near hits glance off (acts in to-hit and attack).", 0)


ArmorSchema = Strict.from_dict({loc: fields.Nested(ArmorPieceSchema, metadata={"description": f"Armor on the {loc}."})
                                for loc in GENERAL}, name="WarAndCombatArmorSchema")
ArmorSchema.__doc__ = "Armor by general location: any subset; a missing location has no armor."


class TargetSchema(Strict):
    """The struck fighter: size, innate absorption, armor."""

    size = whole(0, 200, "Size (gives the damage thresholds).", required=True)
    innate_absorption = whole(0, 100, "Innate absorption (default: option `innate_absorption`).")
    armor = fields.Nested(ArmorSchema, load_default=dict, metadata={"description": "Armor by general location."})


class ImpactFieldsSchema(Strict):
    """Where the impact comes from."""

    impact_cap = whole(-50, 200, "The impact cap (or send `attacker.strength` and `weapon.impact_mod`).")
    attacker = fields.Nested(StrengthSchema, metadata={"description": "The attacker's STR."})
    weapon = fields.Nested(BlowWeaponSchema, load_default=dict, metadata={"description": "The weapon."})
    target = fields.Nested(TargetSchema, required=True, metadata={"description": "The struck fighter."})


class DamageRequestSchema(ImpactFieldsSchema):
    """One landed blow."""

    EXAMPLE = {"impact_cap": 14, "margin": 6, "location": "left_leg",
               "weapon": {"penetration_value": 1, "damage_type": "cut"},
               "target": {"size": 9, "armor": {"leg": {"absorption": 1, "penetration_threshold": 2}}},
               "rolls": {"impact": [2, 5, 6], "critical": [3]}}
    receipt = receipt_field()

    margin = whole(1, 100, "How far the attack beat its TL (>= 5: a critical).", 1)
    attack_type = choice(ATTACK_TYPES, "strike, or a disarm/grapple/subdual/tackle/throw.", "strike")
    location = fields.String(required=True, validate=LOCATION_SPECIFIC,
                             metadata={"description": "The specific location struck."})
    options = options_field()
    seed = seed_field()
    rolls = calculator_rolls_field(DAMAGE_ROLES)


class ThresholdsSchema(Strict):
    """Damage thresholds of a size."""

    impaired = whole(0, 10_000, "Impaired threshold.", required=True)
    disabled = whole(0, 10_000, "Disabled threshold.", required=True)
    destroyed = whole(0, 10_000, "Destroyed threshold.", required=True)


class DamageRollSchema(Strict):
    """A rolled blow."""

    impact = whole(-1000, 10_000, "Impact rolled.", required=True)
    effective_impact = whole(-1000, 10_000, "Impact less absorption (all of it on a critical).", required=True)
    penetrating = JsonBoolean(required=True, metadata={"description": "The blow penetrated."})
    severity = choice(("none", "light", "serious", "critical", "mortal"), "Wound severity.", required=True)
    wound_type = fields.String(required=True, allow_none=True, validate=validate.OneOf(DAMAGE_TYPES),
                               metadata={"description": "blunt, cut or pierce (null for none)."})
    effects = fields.List(fields.String(), required=True, metadata={"description": "The wound's effect (0 or 1)."})
    action_penalty = whole(-7, 0, "-1, -3, -7; 0 for none; null for mortal.", required=True, allow_none=True)


class CombatOptionSchema(Strict):
    """The secondary effect of a non-strike attack."""

    column = choice(("superficial", "light", "serious", "critical"), "COMBAT OPTIONS column.", required=True)
    effect = choice(("fumble", "restrict", "shock", "stumble", "break"), "The check (or a break).", required=True)
    tl = whole(0, 100, "N of the check (null for a break).", required=True, allow_none=True)
    check_attribute = choice(("dex", "str", "agl"), "Attribute the victim adds.", required=True)


class DamageSchema(Strict):
    """Impact, absorption, penetration, severity and effect of a landed blow, as an exact distribution."""
    receipt = receipt_answer_field()

    impact_cap = whole(-1000, 1000, "The impact cap.", required=True)
    impact_dice = fields.String(required=True, metadata={"description": "The weapon's dice from the cap."})
    critical = JsonBoolean(required=True, metadata={"description": "margin >= 5."})
    critical_dice = whole(0, 1000, "Extra d6.", required=True)
    impact_expression = fields.String(required=True, metadata={"description": "The whole impact roll."})
    absorption = whole(0, 1000, "Absorption applied (0 on a critical).", required=True)
    penetration_limit = whole(-1000, 1000, "PT - PV (null on a critical).", required=True, allow_none=True)
    thresholds = fields.Nested(ThresholdsSchema, required=True,
                               metadata={"description": "The target size's damage thresholds."})
    probabilities = probability_dict("Exclusive results over the impact dice.")
    probabilities_exact = exact_field("The same")
    combat_option_probabilities = fields.Dict(keys=fields.String(), values=fields.Float(), allow_none=True,
                                              required=True, metadata={"description": "Non-strike attacks: the "
                                                                       "COMBAT OPTIONS column's distribution."})
    combat_option_probabilities_exact = fields.Dict(keys=fields.String(), values=fields.String(), allow_none=True,
                                                    required=True, metadata={"description": "The same, exactly."})
    roll = fields.Nested(DamageRollSchema, required=True, allow_none=True,
                         metadata={"description": "The rolled blow (null without `seed` or `rolls`)."})
    combat_option = fields.Nested(CombatOptionSchema, required=True, allow_none=True,
                                  metadata={"description": "The rolled non-strike attack's secondary effect."})
    dice = dice_field()
    seed = answer_seed_field()
    assumptions = assumptions_field()
    trace = trace_field()


