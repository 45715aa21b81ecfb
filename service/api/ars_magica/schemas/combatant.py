"""Schemas of /v1/ars-magica/combatant: shapes and bounds only."""
from __future__ import annotations

from marshmallow import Schema, fields, validate

from service.api.ars_magica.fields import (
    AbilitiesSchema,
    ArmorSchema,
    CharacteristicsSchema,
    PackOr,
    ShieldSchema,
    WeaponSchema,
    options_field,
)
from service.api.kit.fields import choice, flag, whole
from service.api.kit.schemas import Strict, trace_field

MODES = ("attack_twice", "attack_and_defend", "defend_twice")


class CombatantRequestSchema(Strict):
    """A fighter: characteristics, Size, abilities, gear, encumbrance and current levels."""

    EXAMPLE = {"characteristics": {"dex": 2, "qik": 1, "str": 1, "stm": 2}, "abilities": {"weapon": 5},
               "weapon": "longsword", "armor": "partial_chain", "shield": {"defence": 3}, "encumbrance": 2}

    characteristics = fields.Nested(CharacteristicsSchema, load_default=dict,
                                    metadata={"description": "Characteristics (default 0)."})
    size = whole(-10, 10, "Size (default 0).", 0)
    abilities = fields.Nested(AbilitiesSchema, load_default=dict, metadata={"description": "Abilities."})
    weapon = PackOr(WeaponSchema, "weapon_pack", load_default=None)
    off_hand = PackOr(WeaponSchema, "weapon_pack", load_default=None)
    two_weapons = choice(MODES, "Two-weapon mode (null: one weapon).", allow_none=True, load_default=None)
    ambidextrous = flag("No two-weapon penalties.")
    armor = PackOr(ArmorSchema, "armor_pack", load_default=None)
    shield = fields.Nested(ShieldSchema, allow_none=True, load_default=None,
                           metadata={"description": "A shield (null: none)."})
    encumbrance = whole(0, 30, "Encumbrance (a magnitude, subtracted).", 0)
    wound_level = fields.String(load_default="unhurt", validate=validate.Length(1, 40),
                                metadata={"description": "Body level name (option `body_levels`)."})
    fatigue_level = fields.String(load_default="fresh", validate=validate.Length(1, 40),
                                  metadata={"description": "Fatigue level name (option `fatigue_levels`)."})
    mounted = flag("On horseback: weapon skill capped at Ride, Enc 0.")
    options = options_field()


class MissileRateSchema(Schema):
    """How often each missile phase fires: every N rounds (1 = every round; null = never)."""

    first_phase_every = fields.Integer(required=True, allow_none=True, metadata={"description": "First phase."})
    second_phase_every = fields.Integer(required=True, allow_none=True, metadata={"description": "Second phase."})


class TwoWeaponsSchema(Schema):
    """*Two weapons* adjustments (not included in the totals)."""

    attack_bonus = fields.Integer(required=True, metadata={"description": "Half the off hand's attack bonus, "
                                                                          "rounded up (attack_and_defend)."})
    defence_bonus = fields.Integer(required=True, metadata={"description": "Half the weapon's defence bonus, "
                                                                           "rounded up (attack_and_defend)."})
    main_penalty = fields.Integer(required=True, metadata={"description": "-1 (0 when ambidextrous)."})
    off_penalty = fields.Integer(required=True, metadata={"description": "-3 (0 when ambidextrous)."})


class CombatantSchema(Schema):
    """The six totals with the weapon alone, the penalty, the missile rate and two-weapon adjustments."""

    initiative = fields.Integer(required=True, metadata={"description": "Qik + skill + weapon init - Enc + penalty."})
    attack = fields.Integer(required=True, metadata={"description": "Dex (Per for missiles) + skill + attack + "
                                                                    "penalty."})
    defence = fields.Integer(required=True, metadata={"description": "Skill + defence bonus or Qik - Size - Enc "
                                                                     "+ shield + penalty."})
    damage = fields.Integer(required=True, metadata={"description": "Str + positive Size + skill + damage."})
    dodge = fields.Integer(required=True, metadata={"description": "Qik + Dodge - Size - Enc + penalty."})
    soak = fields.Integer(required=True, metadata={"description": "Stm + Size + protection."})
    penalty = fields.Integer(required=True, metadata={"description": "Wound + fatigue penalty (<= 0)."})
    missile_rate = fields.Nested(MissileRateSchema, required=True,
                                 metadata={"description": "MISSILE RATE TABLE row of the Initiative total."})
    two_weapons = fields.Nested(TwoWeaponsSchema, required=True, allow_none=True,
                                metadata={"description": "*Two weapons* adjustments (null: one weapon)."})
    assumptions = fields.List(fields.String(), required=True,
                              metadata={"description": "Ids of the assumptions (GET /v1/rulesets/ars-magica) "
                                                       "this answer relied on."})
    trace = trace_field()
