"""Schemas of /v1/runequest-house/combatant, /intent, /contest, /grapple and /movement."""
from __future__ import annotations

from marshmallow import Schema, fields, validate

from service.api.kit.fields import choice, flag, probability_dict, string_or_null, whole
from service.api.kit.receipts import receipt_answer_field, receipt_field
from service.api.kit.schemas import JsonBoolean, JsonFloat, JsonInteger
from service.api.runequest_house.fields import (
    ACTIONS,
    LOCATIONS,
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


class CharacteristicsSchema(Schema):
    """Characteristics (any subset; outputs needing a missing one are null)."""

    str = whole(1, 100, "STR.", load_default=None, allow_none=True)
    con = whole(1, 100, "CON.", load_default=None, allow_none=True)
    siz = whole(1, 100, "SIZ.", load_default=None, allow_none=True)
    dex = whole(1, 100, "DEX.", load_default=None, allow_none=True)
    int = whole(1, 100, "INT.", load_default=None, allow_none=True)
    pow = whole(1, 100, "POW.", load_default=None, allow_none=True)
    app = whole(1, 100, "APP.", load_default=None, allow_none=True)


class NamedWeaponSchema(Schema):
    """A weapon by name with its SR (or a weapon-pack name alone); other statistics are accepted and ignored."""

    class Meta:
        unknown = "exclude"

    name = fields.String(required=True, validate=validate.Length(1, 64), metadata={"description": "Weapon name."})
    sr = whole(0, 10, "Weapon SR (from the weapon pack when omitted).", load_default=None, allow_none=True)


class CombatantRequestSchema(Schema):
    """Characteristics and weapons to derive SRs, damage bonus and hit points from."""

    EXAMPLE = {"characteristics": {"str": 14, "con": 12, "siz": 13, "dex": 15},
               "weapons": [{"name": "broadsword"}]}

    characteristics = fields.Nested(CharacteristicsSchema, required=True,
                                    metadata={"description": "The characteristics."})
    weapons = fields.List(fields.Nested(NamedWeaponSchema), load_default=list, validate=validate.Length(max=8),
                          metadata={"description": "Weapons: {name, sr} or weapon objects."})
    options = options_field()


class WeaponSrSchema(Schema):
    """A weapon's strike ranks."""

    name = fields.String(required=True, metadata={"description": "Weapon name."})
    melee_sr = JsonInteger(required=True, allow_none=True, metadata={"description": "DEX SR + SIZ SR + weapon SR."})
    second_attack_sr = JsonInteger(required=True, allow_none=True, metadata={"description": "min(melee_sr + 3, 10)."})


class CombatantSchema(Schema):
    """Derived figures of a combatant (null where a characteristic is missing)."""

    dex_sr = JsonInteger(required=True, allow_none=True, metadata={"description": "DEX strike rank."})
    siz_sr = JsonInteger(required=True, allow_none=True, metadata={"description": "SIZ strike rank."})
    damage_bonus = string_or_null("Damage bonus by STR + SIZ, e.g. \"+1d4\".")
    hp = JsonInteger(required=True, allow_none=True, metadata={"description": "(CON + SIZ)/2 rounded up."})
    location_hp = fields.Dict(keys=fields.String(), values=JsonInteger(), required=True, allow_none=True,
                              metadata={"description": "HP of the seven locations."})
    weapons = fields.List(fields.Nested(WeaponSrSchema), required=True, metadata={"description": "Weapon SRs."})
    missile_sr = JsonInteger(required=True, allow_none=True, metadata={"description": "DEX SR."})
    maneuver_base = JsonInteger(required=True, metadata={"description": "Maneuver base %."})
    dodge_base = JsonInteger(required=True, metadata={"description": "Dodge base %."})
    trace = trace_field()


class IntentCharacteristicsSchema(Schema):
    """DEX and SIZ, for strike ranks."""

    dex = whole(1, 100, "DEX.", required=True)
    siz = whole(1, 100, "SIZ.", required=True)


class IntentCombatantSchema(Schema):
    """Who declares."""

    characteristics = fields.Nested(IntentCharacteristicsSchema, required=True,
                                    metadata={"description": "DEX and SIZ."})
    weapons = fields.List(fields.Nested(NamedWeaponSchema), load_default=list, validate=validate.Length(max=8),
                          metadata={"description": "Weapons (may be empty without a weapon action)."})


class IntentActionSchema(Schema):
    """One declared action."""

    type = choice(ACTIONS, "The action.", required=True)
    weapon = whole(0, 7, "Index into weapons (attack).", load_default=None, allow_none=True)
    spell_sr = whole(0, 30, "The spell's own SR (used as is).", load_default=None, allow_none=True)
    magic_points = whole(0, 30, "Magic points (SR by spell_sr_formula).", load_default=None, allow_none=True)
    opponents = whole(1, 20, "Opponents dodged (dodge).", load_default=None, allow_none=True)


class IntentRequestSchema(Schema):
    """A Statement of Intent: exactly two actions."""

    EXAMPLE = {"combatant": {"characteristics": {"dex": 15, "siz": 13}, "weapons": [{"name": "broadsword"}]},
               "actions": [{"type": "attack", "weapon": 0}, {"type": "attack", "weapon": 0}]}

    combatant = fields.Nested(IntentCombatantSchema, required=True, metadata={"description": "Who declares."})
    actions = fields.List(fields.Nested(IntentActionSchema), required=True, validate=validate.Length(2, 2),
                          metadata={"description": "Exactly two actions."})
    options = options_field()


class IntentActionAnswerSchema(Schema):
    """An action's SR and modifier."""

    type = fields.String(required=True, metadata={"description": "The action."})
    sr = JsonInteger(required=True, allow_none=True, metadata={"description": "Its SR (null: no SR)."})
    modifier = JsonInteger(required=True, metadata={"description": "Its skill modifier."})


class IntentSchema(Schema):
    """Whether the declaration is valid, and each action's SR."""

    valid = JsonBoolean(required=True, metadata={"description": "The two actions go together."})
    problems = fields.List(fields.String(), required=True, metadata={"description": "Why not."})
    actions = fields.List(fields.Nested(IntentActionAnswerSchema), required=True,
                          metadata={"description": "Each action."})
    trace = trace_field()


class ContestantSchema(Schema):
    """One side of a skill or Maneuver contest."""

    skill = whole(-100, 300, "Skill %.", required=True)
    mov = whole(0, 30, "Basic MOV (maneuver only).", load_default=3)


class ContestRequestSchema(Schema):
    """A skill contest, a Maneuver contest or a resistance roll."""

    EXAMPLE = {"kind": "maneuver", "a": {"skill": 50, "mov": 4}, "b": {"skill": 45, "mov": 3}}
    receipt = receipt_field()

    kind = choice(("skill", "maneuver", "resistance"), "The contest.", load_default="skill")
    a = fields.Nested(ContestantSchema, load_default=None, allow_none=True, metadata={"description": "Side a."})
    b = fields.Nested(ContestantSchema, load_default=None, allow_none=True, metadata={"description": "Side b."})
    active = whole(0, 300, "Active characteristic (resistance).", load_default=None, allow_none=True)
    passive = whole(0, 300, "Passive characteristic (resistance).", load_default=None, allow_none=True)
    options = options_field()
    seed = seed_field()
    rolls = rolls_field("RunequestHouseContestRolls", {"a": ("Side a's d100.", 1), "b": ("Side b's d100.", 1),
                                                       "d100": ("The resistance d100.", 1)})


class ContestSchema(Schema):
    """Contest odds (skill/maneuver) or the resistance chance, and the optional roll."""
    receipt = receipt_answer_field()

    a_effective = JsonInteger(metadata={"description": "Side a's % (with the Maneuver bonus)."})
    b_effective = JsonInteger(metadata={"description": "Side b's %."})
    probabilities = fields.Dict(keys=fields.String(), values=JsonFloat(),
                                metadata={"description": "a, b, no_change (skill and maneuver)."})
    probabilities_exact = fields.Dict(keys=fields.String(), values=fields.String(),
                                      metadata={"description": "The same, exact."})
    effective = JsonInteger(metadata={"description": "Resistance %, clamped."})
    chance = JsonFloat(metadata={"description": "P(the active side wins) (resistance)."})
    chance_exact = fields.String(metadata={"description": "The same, exact."})
    roll = fields.Dict(required=True, allow_none=True, metadata={"description": "{a, a_degree, b, b_degree, winner} "
                                                                               "or {d100, success}, or null."})
    dice = dice_list()
    seed = answer_seed()
    assumptions = assumptions_list()
    trace = trace_field()


class GrappleFigureSchema(Schema):
    """STR, DEX and SIZ of a grappler."""

    str = whole(1, 100, "STR.", required=True)
    dex = whole(1, 100, "DEX.", required=True)
    siz = whole(1, 100, "SIZ.", required=True)


class GrappleRequestSchema(Schema):
    """A grapple follow-up."""

    EXAMPLE = {"mode": "throw", "grapple": 60, "attacker": {"str": 15, "dex": 12, "siz": 14},
               "defender": {"str": 12, "dex": 11, "siz": 13}}

    mode = choice(("immobilise", "throw", "damage", "escape"), "The follow-up.", required=True)
    grapple = whole(0, 300, "The grapple skill %.", required=True)
    attacker = fields.Nested(GrappleFigureSchema, required=True, metadata={"description": "The holder."})
    defender = fields.Nested(GrappleFigureSchema, required=True, metadata={"description": "The held figure."})
    options = options_field()


class ResistanceSchema(Schema):
    """A resistance-table roll."""

    active = JsonInteger(required=True, metadata={"description": "Active value."})
    passive = JsonInteger(required=True, metadata={"description": "Passive value."})
    chance = JsonFloat(required=True, metadata={"description": "P(the active side wins)."})
    chance_exact = fields.String(required=True, metadata={"description": "The same, exact."})


class GrappleSchema(Schema):
    """The follow-up's skill, resistance roll and damage."""

    follow_up_skill = JsonInteger(required=True, allow_none=True,
                                  metadata={"description": "Grapple +10 throw, -10 damage (null for escape)."})
    resistance = fields.Nested(ResistanceSchema, required=True, allow_none=True,
                               metadata={"description": "The resistance roll, or null."})
    damage = string_or_null("Damage dice, or null.")
    trace = trace_field()


class MovementQuerySchema(Schema):
    """Movement per phase and round (query string)."""

    mov = fields.Integer(load_default=3, validate=validate.Range(0, 30), metadata={"description": "Basic MOV."})
    move_actions = fields.Integer(load_default=0, validate=validate.Range(0, 2),
                                  metadata={"description": "Move actions declared."})
    mobility = fields.Integer(load_default=0, validate=validate.Range(0, 30),
                              metadata={"description": "Mobility spell metres per phase."})
    engaged = fields.Boolean(load_default=False, metadata={"description": "Starts the Move phase engaged."})
    limited = fields.Boolean(load_default=False, metadata={"description": "Concentrating or reloading."})


class MovementRequestSchema(Schema):
    """Movement per phase and round (JSON body)."""

    EXAMPLE = {"mov": 3, "move_actions": 1, "mobility": 4}

    mov = whole(0, 30, "Basic MOV.", load_default=3)
    move_actions = whole(0, 2, "Move actions declared.", load_default=0)
    mobility = whole(0, 30, "Mobility spell metres per phase.", load_default=0)
    engaged = flag("Starts the Move phase engaged.")
    limited = flag("Concentrating on a spell or drawing and reloading a missile.")
    options = options_field()


class MovementSchema(Schema):
    """Metres per phase, round and second; the one-third limit; backwards movement."""

    k = JsonInteger(required=True, metadata={"description": "1 + move actions."})
    metres_per_phase = JsonFloat(required=True, metadata={"description": "MOV x k + mobility."})
    metres_per_phase_exact = fields.String(required=True, metadata={"description": "The same, exact."})
    metres_per_round = JsonFloat(required=True, metadata={"description": "Both phases."})
    metres_per_round_exact = fields.String(required=True, metadata={"description": "The same, exact."})
    metres_per_second = JsonFloat(required=True, metadata={"description": "The round's metres / 5."})
    metres_per_second_exact = fields.String(required=True, metadata={"description": "The same, exact."})
    limited_metres_per_phase = JsonFloat(required=True, metadata={"description": "A third of the phase's metres."})
    limited_metres_per_phase_exact = fields.String(required=True, metadata={"description": "The same, exact."})
    backwards_metres_per_phase = JsonFloat(required=True, metadata={"description": "Half the applicable figure."})
    backwards_metres_per_phase_exact = fields.String(required=True, metadata={"description": "The same, exact."})
    applies_limit = JsonBoolean(required=True, metadata={"description": "Engaged or limited."})
    trace = trace_field()


__all__ = ["LOCATIONS", "exact_dict", "number_or_null", "probability_dict"]
