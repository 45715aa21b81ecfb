"""Schemas of /v1/war-and-combat/to-hit (rules document §12.1): the attacker, the defender or shot, and
the exact odds of miss, glance, hit and critical."""
from __future__ import annotations

from marshmallow import fields, validate

from service.api.kit.fields import choice, probability_dict, whole
from service.api.kit.receipts import receipt_answer_field, receipt_field
from service.api.kit.schemas import (
    JsonBoolean,
    JsonFloat,
    Strict,
    calculator_rolls_field,
    seed_field,
    trace_field,
)
from service.api.war_and_combat.fields import (
    LOCATION_SPECIFIC,
    answer_seed_field,
    assumptions_field,
    dice_field,
    exact_field,
    options_field,
    pace_field,
)
from service.rules.war_and_combat.task import GENERAL, STATES
from service.rules.war_and_combat.to_hit import BANDS, TARGET_STATES

TO_HIT_ROLES = {"attack": "The attack's 3d6 (3 faces).", "location": "The location's 3d6 (3 faces; only when the "
                "total beats the TL and no shot was called).", "side": "The limb side's d2 (1 = left, 2 = right)."}


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

    EXAMPLE = {"attacker": {"skill": 4, "attribute_mod": 1}, "defender": {"fighter_rank": 2, "agl_mod": 1,
               "state": "turned"}, "defence_bonus": {"head": 1}, "seed": 7}
    receipt = receipt_field()

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
    receipt = receipt_answer_field()

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


