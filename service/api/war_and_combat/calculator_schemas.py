"""Schemas of /v1/war-and-combat/to-hit, /check, /damage and /attack (rules document §12.1-12.4)."""
from __future__ import annotations

from marshmallow import fields, validate

from service.api.fields import choice, probability_dict, whole
from service.api.schemas import (
    JsonBoolean,
    JsonFloat,
    Strict,
    calculator_rolls_field,
    seed_field,
    trace_field,
)
from service.api.war_and_combat.common import (
    LOCATION_SPECIFIC,
    answer_seed_field,
    assumptions_field,
    dice_field,
    exact_field,
    options_field,
    pace_field,
)
from service.rules.war_and_combat.checks import KINDS
from service.rules.war_and_combat.damage import ATTACK_TYPES, DAMAGE_TYPES
from service.rules.war_and_combat.task import GENERAL, STATES
from service.rules.war_and_combat.to_hit import BANDS, TARGET_STATES

TO_HIT_ROLES = {"attack": "The attack's 3d6 (3 faces).", "location": "The location's 3d6 (3 faces; only when the "
                "total beats the TL and no shot was called).", "side": "The limb side's d2 (1 = left, 2 = right)."}
DAMAGE_ROLES = {"impact": "The weapon's impact dice in order (one d3 face, or k d6 faces).",
                "critical": "One d6 face per extra critical die."}


class AttackerSchema(Strict):
    """The attacker's roll: weapon skill, attribute modifier, wound penalty and pace."""

    skill = whole(-20, 50, "Weapon skill level.", required=True)
    attribute_mod = whole(-10, 10, "Agility modifier (melee) or dexterity modifier (missiles).", 0)
    action_penalty = whole(0, 100, "Wound action penalties as a positive number (subtracted).", 0)
    pace = pace_field()


class DefenderSchema(Strict):
    """A melee defender: fighter rank, agility modifier and state (rules document §4)."""

    fighter_rank = whole(0, 50, "Fighter rank (FR).", required=True)
    agl_mod = whole(-10, 10, "Agility modifier.", 0)
    state = choice(STATES, "The defender's state (Defense by state, §4).", "normal")
    def_modifier = whole(-50, 50, "Any other modifier to Defense.", 0)


class MissileTargetSchema(Strict):
    """The target's fighter rank and agility (aware, evading targets and the point-blank rule)."""

    fighter_rank = whole(0, 50, "Target's fighter rank.", required=True)
    agl_mod = whole(-10, 10, "Target's agility modifier.", 0)


class MissileSchema(Strict):
    """A shot: its range band (or distance and base range), the target's state, a melee in the way."""

    range_band = choice(BANDS, "Range band; or send `distance_m` and `base_range_m`.")
    distance_m = JsonFloat(allow_nan=False, validate=validate.Range(0, 100_000, min_inclusive=False),
                           metadata={"description": "Distance to the target in metres."})
    base_range_m = JsonFloat(allow_nan=False, validate=validate.Range(0, 100_000, min_inclusive=False),
                             metadata={"description": "The weapon's base (short) range in metres."})
    target_state = choice(TARGET_STATES, "Target state (MOVING TARGET MODIFIERS TO RANGED ATTACKS).", required=True)
    into_melee = JsonBoolean(load_default=False, metadata={"description": "The target is obstructed by moving "
                                                                         "bodies: +5 TL."})
    target = fields.Nested(MissileTargetSchema, metadata={"description": "Needed for `aware_evading`."})


class CalledShotSchema(Strict):
    """A called location (missiles at point blank or short range)."""

    location = choice(GENERAL, "The general location called.", required=True)
    sub_location = JsonBoolean(load_default=False, metadata={"description": "A sub-location (hand, eye...): "
                                                                           "a bigger penalty."})


DefenceBonusSchema = Strict.from_dict({loc: whole(0, 20, f"Armor defence bonus of the {loc}.") for loc in GENERAL},
                                      name="WarAndCombatDefenceBonusSchema")
DefenceBonusSchema.__doc__ = ("Armor defence bonus by general location (0-20): near hits on that location glance "
                              "off; a missing location is 0.")


class ToHitFieldsSchema(Strict):
    """What an attack or shot is rolled against."""

    attacker = fields.Nested(AttackerSchema, required=True, metadata={"description": "The attacker's roll."})
    modifiers = whole(-50, 50, "Any other situational modifier added to the roll.", 0)
    defender = fields.Nested(DefenderSchema, metadata={"description": "A melee defender (or send `tl` or "
                                                                      "`missile`)."})
    tl = whole(-50, 200, "An explicit target level instead of a defender.")
    missile = fields.Nested(MissileSchema, metadata={"description": "A shot (or send `defender` or `tl`)."})
    called_shot = fields.Nested(CalledShotSchema, allow_none=True, load_default=None,
                                metadata={"description": "A called location (missiles only)."})
    options = options_field()
    seed = seed_field()


class ToHitRequestSchema(ToHitFieldsSchema):
    """Chance that an attack or shot lands (exactly one of `defender`, `tl`, `missile`)."""

    defence_bonus = fields.Nested(DefenceBonusSchema, load_default=dict,
                                  metadata={"description": "Armor defence bonus by general location."})
    rolls = calculator_rolls_field(TO_HIT_ROLES)


class ToHitRollSchema(Strict):
    """A rolled attack."""

    total = whole(-1000, 1000, "3d6 + roll_bonus.", required=True)
    margin = whole(-1000, 1000, "Total less the TL (and the location's defence bonus when it counts).",
                   required=True)
    outcome = choice(("miss", "glance", "hit", "critical"), "What happened.", required=True)
    extra_dice = whole(0, 1000, "Extra impact d6 of a critical.", required=True)
    location_roll = whole(3, 18, "The location's 3d6 total (null when not rolled).", required=True, allow_none=True)
    location = fields.String(required=True, allow_none=True, validate=LOCATION_SPECIFIC,
                             metadata={"description": "The specific location struck (null on a miss)."})


class ToHitSchema(Strict):
    """Exact odds of miss, glance, hit and critical, the extra dice and locations; the roll when asked."""

    mode = choice(("melee", "missile"), "Melee or missile.", required=True)
    tl = whole(-1000, 1000, "Target level before any location's defence bonus.", required=True)
    roll_bonus = whole(-1000, 1000, "Everything added to 3d6.", required=True)
    need = whole(-1000, 1000, "Smallest 3d6 total that beats the TL.", required=True)
    chance = JsonFloat(required=True, metadata={"description": "P(the blow lands): hit + critical."})
    chance_exact = fields.String(required=True, metadata={"description": "The same, exactly."})
    probabilities = probability_dict("Exclusive outcomes miss, glance, hit, critical.")
    probabilities_exact = exact_field("The same")
    extra_dice = probability_dict("P(lands with k extra impact dice), k = 0..max.")
    extra_dice_exact = exact_field("The same")
    location_probabilities = probability_dict("The location roll's distribution.")
    location_probabilities_exact = exact_field("The same")
    roll = fields.Nested(ToHitRollSchema, required=True, allow_none=True,
                         metadata={"description": "The rolled attack (null without `seed` or `rolls`)."})
    dice = dice_field()
    seed = answer_seed_field()
    assumptions = assumptions_field()
    trace = trace_field()


class CheckRequestSchema(Strict):
    """A 3d6 task or resistance check."""

    kind = choice(KINDS, "The check: task, fumble (Fumble?/Fumble-N), stumble, restrict, shock, balance, "
                  "pass_through.", "task")
    skill = whole(-50, 100, "Skill level.", 0)
    attribute_mod = whole(-10, 10, "Attribute modifier.", 0)
    modifiers = whole(-50, 50, "Other modifiers.", 0)
    action_penalty = whole(0, 100, "Wound penalties as a positive number.", 0)
    pace = pace_field()
    tl = whole(-50, 200, "Target level (required for task, restrict, shock; Fumble-N/Stumble-N as N).")
    danger_hexes = whole(1, 100, "Danger hexes crossed (pass_through only).")
    options = options_field()
    seed = seed_field()
    rolls = calculator_rolls_field({"check": "The check's 3d6 (3 faces)."})


class CheckRollSchema(Strict):
    """A rolled check."""

    total = whole(-1000, 1000, "3d6 + roll_bonus.", required=True)
    margin = whole(-1000, 1000, "Total less the TL.", required=True)
    outcome = fields.String(required=True, metadata={"description": "success or the kind's failure band."})


class CheckSchema(Strict):
    """Exact odds of a check's outcomes."""

    kind = choice(KINDS, "The check.", required=True)
    tl = whole(-1000, 1000, "Target level.", required=True)
    roll_bonus = whole(-1000, 1000, "Everything added to 3d6.", required=True)
    need = whole(-1000, 1000, "Smallest 3d6 total that succeeds.", required=True)
    chance = JsonFloat(required=True, metadata={"description": "P(success)."})
    chance_exact = fields.String(required=True, metadata={"description": "P(success), exactly."})
    probabilities = probability_dict("The kind's exclusive outcomes.")
    probabilities_exact = exact_field("The same")
    roll = fields.Nested(CheckRollSchema, required=True, allow_none=True,
                         metadata={"description": "The rolled check (null without `seed` or `rolls`)."})
    dice = dice_field()
    seed = answer_seed_field()
    assumptions = assumptions_field()
    trace = trace_field()


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


class AttackAttackerSchema(AttackerSchema):
    """The attacker's roll, and his STR when the impact cap is not sent."""

    strength = whole(-20, 100, "STR (impact cap = STR + weapon impact modifier; or send `impact_cap`).")


class AttackRequestSchema(ToHitFieldsSchema, ImpactFieldsSchema):
    """One whole attack: the to-hit fields plus the impact and the target."""

    attacker = fields.Nested(AttackAttackerSchema, required=True,
                             metadata={"description": "The attacker's roll and STR."})

    rolls = calculator_rolls_field({**TO_HIT_ROLES, **DAMAGE_ROLES})


class AttackRollSchema(Strict):
    """A rolled attack from the 3d6 to the wound."""

    total = whole(-1000, 1000, "3d6 + roll_bonus.", required=True)
    margin = whole(-1000, 1000, "As in to-hit.", required=True)
    outcome = choice(("miss", "glance", "hit", "critical"), "What happened.", required=True)
    location = fields.String(required=True, allow_none=True, metadata={"description": "Specific location."})
    impact = whole(-1000, 10_000, "Impact rolled (null unless landed).", required=True, allow_none=True)
    effective_impact = whole(-1000, 10_000, "Effective impact.", required=True, allow_none=True)
    penetrating = JsonBoolean(required=True, allow_none=True,
                              metadata={"description": "The blow penetrated (null unless landed)."})
    severity = fields.String(required=True, allow_none=True, metadata={"description": "Wound severity."})
    wound_type = fields.String(required=True, allow_none=True,
                               metadata={"description": "blunt, cut or pierce (null for none)."})
    effects = fields.List(fields.String(), required=True, metadata={"description": "The wound's effect (0 or 1)."})


class AttackSchema(Strict):
    """The whole attack as one exact distribution."""

    tl = whole(-1000, 1000, "Target level.", required=True)
    roll_bonus = whole(-1000, 1000, "Everything added to 3d6.", required=True)
    need = whole(-1000, 1000, "Smallest 3d6 total that beats the TL.", required=True)
    chance = JsonFloat(required=True, metadata={"description": "P(the blow lands)."})
    chance_exact = fields.String(required=True, metadata={"description": "The same, exactly."})
    probabilities = probability_dict("miss, glance and the nine damage results, exclusive.")
    probabilities_exact = exact_field("The same")
    roll = fields.Nested(AttackRollSchema, required=True, allow_none=True,
                         metadata={"description": "The rolled attack (null without `seed` or `rolls`)."})
    dice = dice_field()
    seed = answer_seed_field()
    assumptions = assumptions_field()
    trace = trace_field()
