"""Schemas of the `ars-magica` encounter format (document §12.6): combatants, declarations, options and whole
states. Shapes and bounds only; the ruleset's engine checks what depends on the rest of the state (pack
names, targets, stances, yards allowed)."""
from __future__ import annotations

from marshmallow import fields, validate

from service.api.ars_magica.fields import (
    AbilitiesSchema,
    ArmorSchema,
    CharacteristicsSchema,
    OptionsSchema,
    PackOr,
    ShieldSchema,
    WeaponSchema,
)
from service.api.kit.fields import choice, combatant_id, flag, whole
from service.api.kit.schemas import JsonFloat, JsonInteger, Strict
from service.rules.ars_magica.engine import ACTIONS, TWO_WEAPONS
from service.rules.ars_magica.options import LOCATIONS
from service.rules.ars_magica.state import EFFECT_KINDS, STANCES

EXAMPLE_COMBATANT = {"id": "irishman", "side": "red", "characteristics": {"dex": 1, "qik": 2, "str": 1, "stm": 1},
                     "abilities": {"weapon": 6, "dodge": 2}, "weapon": "shortsword", "off_hand": "shortsword",
                     "armor": "leather"}
EXAMPLE_FOE = {"id": "saxon", "side": "blue", "characteristics": {"dex": 1, "str": 2, "stm": 2},
               "abilities": {"weapon": 5}, "weapon": "mace", "shield": {"defence": 3}, "armor": "partial_chain"}
EXAMPLE_DECLARATION = {"combatant": "irishman", "action": "attack", "target": "saxon",
                       "two_weapons": "attack_and_defend"}


class EffectSchema(Strict):
    """A modifier the engine keeps (from botches and exceptional blows), active from round `from` to `until`."""

    kind = choice(EFFECT_KINDS, "What it changes.", required=True)
    value = whole(-50, 50, "How much.", required=True)
    until = JsonInteger(allow_none=True, validate=validate.Range(0, 1_000_000),
                        metadata={"description": "Last round it applies (null: the rest of the combat)."})
    locals()["from"] = whole(0, 1_000_000, "First round it applies.", required=True)


class CombatantStateSchema(Strict):
    """One combatant of an encounter: the §12.4 make-up plus where the fight has left him."""

    id = combatant_id("Unique id.")
    side = fields.String(validate=validate.Length(max=64), metadata={"description": "Side (team) name."})
    name = fields.String(validate=validate.Length(max=64), metadata={"description": "Display name (simulations)."})
    characteristics = fields.Nested(CharacteristicsSchema, metadata={"description": "Characteristics."})
    size = whole(-10, 10, "Size.")
    abilities = fields.Nested(AbilitiesSchema, metadata={"description": "Abilities."})
    weapon = PackOr(WeaponSchema, "weapon_pack", required=True)
    off_hand = PackOr(WeaponSchema, "weapon_pack", allow_none=True)
    armor = PackOr(ArmorSchema, "armor_pack", allow_none=True)
    shield = fields.Nested(ShieldSchema, allow_none=True, metadata={"description": "A shield (null: none)."})
    encumbrance = whole(0, 30, "Encumbrance (a magnitude).")
    body_levels_lost = whole(0, 100, "Body levels lost so far.")
    fatigue_levels_lost = whole(0, 100, "Fatigue levels lost so far.")
    engaged_with = fields.List(fields.String(validate=validate.Length(1, 64)), validate=validate.Length(max=200),
                               metadata={"description": "Ids of the combatants he is in melee with."})
    stance = choice(STANCES, "normal, or all_out_ready after a preparing round.")
    position_yd = JsonFloat(allow_nan=False, validate=validate.Range(-1_000_000, 1_000_000),
                            metadata={"description": "Position on a line, in yards."})
    mounted = flag("On horseback.", None)
    ambidextrous = flag("No two-weapon penalties.", None)
    effects = fields.List(fields.Nested(EffectSchema), validate=validate.Length(max=100),
                          metadata={"description": "Modifiers in force (kept by the engine)."})
    conditions = fields.List(fields.String(validate=validate.Length(max=64)), validate=validate.Length(max=100),
                             metadata={"description": "Exceptional-blow effects suffered (kept by the engine)."})
    missile_first_round = JsonInteger(allow_none=True, validate=validate.Range(0, 1_000_000),
                                      metadata={"description": "Round his current shooting began (missile rate)."})


class SpellSchema(Strict):
    """A formulaic spell: the caster's Technique and Form scores and the spell's level."""

    technique = whole(0, 200, "Technique score.", required=True)
    form = whole(0, 200, "Form score.", required=True)
    level = whole(0, 200, "Spell level.", required=True)


class DeclarationSchema(Strict):
    """What one combatant does this round (*0. Declarations*)."""

    combatant = fields.String(required=True, validate=validate.Length(1, 64), metadata={"description": "Who."})
    action = choice(ACTIONS, "The action declared.", required=True)
    target = fields.String(allow_none=True, validate=validate.Length(1, 64),
                           metadata={"description": "Whom (attacks, missiles, spells)."})
    hold_ground = flag("Hold ground: -2 defence, not pushed back.", None)
    two_weapons = choice(TWO_WEAPONS, "Two-weapon mode this round.", allow_none=True)
    move_yd = JsonFloat(allow_nan=False, validate=validate.Range(-1000, 1000),
                        metadata={"description": "Yards moved along the line (signed)."})
    spell = fields.Nested(SpellSchema, allow_none=True, metadata={"description": "The spell of a `cast`."})
    location = choice(LOCATIONS, "Where an exceptional blow lands (default head).", allow_none=True)


class EncounterStateSchema(Strict):
    """A whole `ars-magica` state: round counter, options and combatants."""

    ruleset = fields.String(validate=validate.Equal("ars-magica"), metadata={"description": "ars-magica."})
    round = whole(0, 1_000_000, "Rounds resolved so far (a fresh state: 0).")
    options = fields.Nested(OptionsSchema, metadata={"description": "Rule options of the encounter."})
    combatants = fields.List(fields.Nested(CombatantStateSchema), required=True, validate=validate.Length(1, 200),
                             metadata={"description": "Every combatant.", "example": [EXAMPLE_COMBATANT, EXAMPLE_FOE]})


SCHEMAS = {"combatant": CombatantStateSchema, "declaration": DeclarationSchema, "options": OptionsSchema,
           "state": EncounterStateSchema, "sim_options": OptionsSchema}
