"""Schemas of runequest-house encounter payloads (combatant, declaration, options, state), rules document
§3, §12.12."""
from __future__ import annotations

from marshmallow import Schema, fields, validate

from service.api.kit.fields import choice, combatant_id, flag, whole
from service.api.kit.schemas import JsonBoolean, JsonFloat, JsonInteger
from service.api.runequest_house.fields import (
    ACTIONS,
    LOCATIONS,
    SHIELD_SIZES,
    WEAPON_KINDS,
    WEAPON_TYPES,
    OptionsSchema,
    dice_field,
)
from service.api.runequest_house.schemas.damage import LAYER_META, LayerField


class CharacteristicsStateSchema(Schema):
    """STR, CON, SIZ, INT, DEX required; POW and APP default 10."""

    str = whole(1, 100, "STR.", required=True)
    con = whole(1, 100, "CON.", required=True)
    siz = whole(1, 100, "SIZ.", required=True)
    int = whole(1, 100, "INT (lowest declares first).", required=True)
    dex = whole(1, 100, "DEX (highest moves first).", required=True)
    pow = whole(1, 100, "POW.")
    app = whole(1, 100, "APP.")


class SkillsSchema(Schema):
    """Skill percentages (defaults: dodge 15, maneuver 25, ride 5, jump 25, acrobatics 5, breakfall 0, grapple 25)."""

    dodge = whole(0, 300, "Dodge %.")
    maneuver = whole(0, 300, "Maneuver %.")
    ride = whole(0, 300, "Ride %.")
    jump = whole(0, 300, "Jump %.")
    acrobatics = whole(0, 300, "Acrobatics %.")
    breakfall = whole(0, 300, "Breakfall %.")
    grapple = whole(0, 300, "Grapple %.")


class StateWeaponSchema(Schema):
    """A weapon: name, attack and parry %, and statistics (filled from the weapon pack by name)."""

    name = fields.String(required=True, validate=validate.Length(1, 64), metadata={"description": "Name."})
    attack = whole(0, 300, "Attack %.", required=True)
    parry = whole(0, 300, "Parry %.")
    damage = dice_field("Dice, e.g. \"1d8+1\".")
    type = choice(WEAPON_TYPES, "crush, slash or impale.")
    sr = whole(0, 10, "Weapon SR.")
    length_m = JsonFloat(allow_none=True, validate=validate.Range(0, 1000), metadata={"description": "Length, m."})
    ap = whole(0, 60, "Parrying AP.")
    hands = whole(1, 2, "Hands.")
    flexible = JsonBoolean(metadata={"description": "Flexible or chain."})
    bladed = JsonBoolean(metadata={"description": "Bladed."})
    hafted = JsonBoolean(metadata={"description": "Hafted blade (axe)."})
    long_hafted = JsonBoolean(metadata={"description": "Long-hafted blade (halberd)."})
    hacking = JsonBoolean(metadata={"description": "Hacking weapon."})
    kind = choice(WEAPON_KINDS, "melee, thrown or projected.")
    effective_range_m = JsonFloat(allow_none=True, validate=validate.Range(0, 1000),
                                  metadata={"description": "Effective range, m (missiles)."})


class ShieldSchema(Schema):
    """A shield: size, AP and parry %."""

    size = choice(SHIELD_SIZES, "Size.", required=True)
    ap = whole(0, 60, "AP.")
    parry = whole(0, 300, "Parry %.")


class HexSchema(Schema):
    """A 1 m hex in axial coordinates."""

    q = whole(-1000, 1000, "Column.", required=True)
    r = whole(-1000, 1000, "Row.", required=True)


def _location_map(values: fields.Field, description: str) -> fields.Dict:
    return fields.Dict(keys=choice(LOCATIONS, "A location."), values=values, metadata={"description": description})


class HoldingSchema(Schema):
    """A grapple hold (Page 60)."""

    target = fields.String(required=True, metadata={"description": "The held combatant."})
    location = choice(LOCATIONS, "The held location.", required=True)
    immobilised = JsonBoolean(metadata={"description": "Immobilised by a won STR vs STR/2 roll."})


class CombatantStateSchema(Schema):
    """A runequest-house combatant (rules document §3)."""

    id = combatant_id("Unique id.")
    name = fields.String(validate=validate.Length(1, 64), metadata={"description": "Name (a matchup's default id)."})
    side = fields.String(validate=validate.Length(0, 64), metadata={"description": "Side."})
    pc = JsonBoolean(metadata={"description": "A player character."})
    characteristics = fields.Nested(CharacteristicsStateSchema, required=True, metadata={"description": "Characteristics."})
    mov = whole(0, 30, "MOV (default 3).")
    skills = fields.Nested(SkillsSchema, metadata={"description": "Skills."})
    weapons = fields.List(fields.Nested(StateWeaponSchema), required=True, validate=validate.Length(1, 8),
                          metadata={"description": "Weapons (at least one)."})
    shield = fields.Nested(ShieldSchema, allow_none=True, metadata={"description": "A shield, or null."})
    armor = _location_map(fields.List(LayerField(metadata=LAYER_META), validate=validate.Length(max=5)),
                          "Location -> armor layers (AP or pack names).")
    protection = whole(0, 30, "Protective spell AP.")
    hp = whole(-200, 200, "Current total HP (default full).")
    location_hp = _location_map(JsonInteger(validate=validate.Range(-200, 200)), "Current HP per location.")
    position = fields.Nested(HexSchema, allow_none=True, metadata={"description": "Hex, or null (no map)."})
    facing = whole(0, 5, "Facing (hex side).")
    prone = JsonBoolean(metadata={"description": "Lying down."})
    braced = JsonBoolean(metadata={"description": "Braced against knockback."})
    engaged_with = fields.List(fields.String(), metadata={"description": "Ids engaged with."})
    closed_with = fields.List(fields.String(), metadata={"description": "Ids closed with."})
    conditions = fields.List(fields.String(), metadata={"description": "Lasting conditions (\"dying\", "
                                                                       "\"severed:<location>\")."})
    holding = fields.Nested(HoldingSchema, allow_none=True, metadata={"description": "A grapple hold, or null."})


EncounterOptionsSchema = OptionsSchema


class RoundActionSchema(Schema):
    """One of a declaration's two actions."""

    type = choice(ACTIONS, "The action.", required=True)
    target = fields.String(allow_none=True, metadata={"description": "Target id (attack, missile, move)."})
    weapon = whole(0, 7, "Weapon index.", allow_none=True)
    mode = choice(("normal", "grapple", "immobilise", "throw", "damage", "escape", "counter", "spirit"),
                  "Fighting mode: a grapple attack, a grapple follow-up on the held target (escape: the held "
                  "figure against its holder); counter and spirit: 422, not implemented.", allow_none=True)
    spell_sr = whole(0, 30, "A spell's own SR.", allow_none=True)
    magic_points = whole(0, 30, "Magic points of a spell.", allow_none=True)
    move_actions = whole(0, 2, "Extra move actions this move stands for.")
    opponents = whole(1, 20, "Opponents dodged.", allow_none=True)


class DeclarationSchema(Schema):
    """What one combatant declares for the round: two actions, bracing, an abort."""

    combatant = fields.String(required=True, metadata={"description": "Who declares."})
    actions = fields.List(fields.Nested(RoundActionSchema), required=True, validate=validate.Length(2, 2),
                          metadata={"description": "Exactly two actions."})
    braced = JsonBoolean(metadata={"description": "Braced against knockback (no dodge, no Post-Melee move)."})
    abort = choice(("defensive", "movement"), "An abort of one unused action.", allow_none=True)


class StateSchema(Schema):
    """A runequest-house encounter state."""

    ruleset = choice(("runequest-house",), "The ruleset.")
    round = whole(0, 10**6, "Rounds resolved so far.")
    options = fields.Nested(OptionsSchema, metadata={"description": "Options in force (those differing from the "
                                                                    "defaults)."})
    combatants = fields.List(fields.Nested(CombatantStateSchema), required=True, validate=validate.Length(1, 100),
                             metadata={"description": "The combatants."})


EXAMPLE_STATE = {"ruleset": "runequest-house", "round": 0, "options": {}, "combatants": [
    {"id": "vasana", "side": "sartar", "characteristics": {"str": 14, "con": 13, "siz": 13, "int": 13, "dex": 15},
     "weapons": [{"name": "broadsword", "attack": 70, "parry": 40}],
     "shield": {"size": "medium", "ap": 12, "parry": 65}, "armor": {"chest": ["ringmail", "soft_leather"]}},
    {"id": "broo", "side": "chaos", "characteristics": {"str": 15, "con": 12, "siz": 14, "int": 8, "dex": 10},
     "weapons": [{"name": "mace", "attack": 55, "parry": 40}]}]}


__all__ = ["flag"]


SCHEMAS = {"combatant": CombatantStateSchema, "declaration": DeclarationSchema, "options": EncounterOptionsSchema,
           "state": StateSchema}
