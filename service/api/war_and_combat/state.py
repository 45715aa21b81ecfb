"""Schemas of the `war-and-combat` encounter format (rules document §3, §12.8): combatants, weapons, armor,
wounds, whole states and declarations. Shapes and bounds only; the engine checks the rest."""
from __future__ import annotations

from marshmallow import fields, validate

from service.api.kit.fields import choice, combatant_id, whole
from service.api.kit.schemas import JsonBoolean, JsonInteger, Strict
from service.api.war_and_combat.fields import LOCATION_SPECIFIC, OptionsSchema, options_field
from service.api.war_and_combat.schemas.damage import ArmorSchema
from service.rules.war_and_combat.damage import DAMAGE_TYPES, SEVERITIES
from service.rules.war_and_combat.engine import ACTIONS, MOVE_PACES
from service.rules.war_and_combat.option_specs import INTENTIONS, TACTICS
from service.rules.war_and_combat.state import KINDS

EXAMPLE_FIGHTER = {"id": "sigrid", "side": "north", "fighter_rank": 6, "agl_mod": 1, "strength": 12, "size": 10,
                   "weapons": [{"name": "sword", "skill": 6}],
                   "armor": {"chest": {"absorption": 2, "penetration_threshold": 3}}, "position": {"q": 0, "r": 0},
                   "facing": 0}
EXAMPLE_FOE = {"id": "ulf", "side": "south", "fighter_rank": 4, "strength": 14, "size": 11,
               "weapons": [{"name": "axe", "skill": 5}], "position": {"q": 1, "r": 0}, "facing": 3}


class WeaponSchema(Strict):
    """A weapon (§3): a starter-pack name fills in what is not sent."""

    name = fields.String(validate=validate.Length(1, 64), metadata={"description": "Name (a pack weapon's "
                                                                                   "statistics are its defaults)."})
    skill = whole(-20, 50, "Weapon skill level.", required=True)
    impact_mod = whole(-50, 50, "Impact modifier (cap = STR + this).")
    impact_cap = whole(-50, 200, "A fixed impact cap (bows).")
    penetration_value = whole(-50, 50, "Penetration value.")
    damage_type = choice(DAMAGE_TYPES, "cut, pierce or blunt.")
    range = whole(0, 3, "Reach in hexes (0: no zone of threat).")
    kind = choice(KINDS, "swung, thrust, polearm, two_handed_sword or missile.")
    base_range_m = whole(1, 10_000, "Missiles: short range in metres.")


class HexSchema(Strict):
    """An axial hex (2 m across)."""

    q = whole(-10_000, 10_000, "Axial q.", required=True)
    r = whole(-10_000, 10_000, "Axial r.", required=True)


class WoundSchema(Strict):
    """A recorded wound."""

    location = fields.String(required=True, validate=LOCATION_SPECIFIC, metadata={"description": "Specific location."})
    severity = choice(SEVERITIES, "light, serious, critical or mortal.", required=True)
    penetrating = JsonBoolean(metadata={"description": "The blow penetrated."})
    type = fields.String(allow_none=True, validate=validate.OneOf(DAMAGE_TYPES),
                         metadata={"description": "blunt, cut or pierce."})


class CombatantSchema(Strict):
    """One fighter (rules document §3)."""

    id = combatant_id("Unique id.")
    side = fields.String(validate=validate.Length(0, 64), metadata={"description": "Allegiance."})
    fighter_rank = whole(0, 50, "Fighter rank.", required=True)
    agl_mod = whole(-10, 10, "Agility modifier.")
    dex_mod = whole(-10, 10, "Dexterity modifier.")
    str_mod = whole(-10, 10, "Strength task modifier.")
    tactics = whole(-10, 50, "Tactics skill.")
    strength = whole(-20, 100, "STR (feeds the impact cap).", required=True)
    size = whole(0, 200, "Size (damage thresholds).", required=True)
    innate_absorption = whole(0, 100, "Innate absorption (default: option).", allow_none=True)
    weapons = fields.List(fields.Nested(WeaponSchema), required=True, validate=validate.Length(1, 4),
                          metadata={"description": "Weapons; index 0 is the ready one."})
    armor = fields.Nested(ArmorSchema, metadata={"description": "Armor by general location."})
    position = fields.Nested(HexSchema, metadata={"description": "Axial hex (default: q = its index, r = 0)."})
    facing = whole(0, 5, "Hex side faced: 0 (+1,0), 1 (+1,-1), 2 (0,-1), 3 (-1,0), 4 (-1,+1), 5 (0,+1).")
    wounds = fields.List(fields.Nested(WoundSchema), validate=validate.Length(max=100),
                         metadata={"description": "Wounds taken."})
    stunned_rounds = whole(0, 1000, "Rounds of stun left.")
    fallen = JsonBoolean(metadata={"description": "On the ground."})
    unconscious = JsonBoolean(metadata={"description": "Knocked out."})
    actions_lost = whole(0, 100, "Actions lost this round.")
    disarmed = JsonBoolean(metadata={"description": "Lost or broke the ready weapon."})
    surprised = JsonBoolean(metadata={"description": "Surprised: in the first round (option `surprise_rule`) no "
                                                     "actions in the flurry and no defence."})


class StateSchema(Strict):
    """A whole encounter as the engine reads and writes it."""

    ruleset = fields.String(validate=validate.OneOf(["war-and-combat"]), metadata={"description": "war-and-combat."})
    round = whole(0, 1_000_000, "Rounds resolved so far.")
    options = fields.Nested(OptionsSchema, metadata={"description": "Options of the encounter."})
    combatants = fields.List(fields.Nested(CombatantSchema), required=True, validate=validate.Length(1, 200),
                             metadata={"description": "Every fighter."})


class DeclarationSchema(Strict):
    """What one fighter does in the next round (rules document §12.8)."""

    combatant = fields.String(required=True, validate=validate.Length(1, 64), metadata={"description": "Who."})
    action = choice(ACTIONS, "engage, shoot, move, hold or none (default: engage with a target, else hold).")
    target = fields.String(allow_none=True, validate=validate.Length(1, 64), metadata={"description": "Foe's id."})
    intention = choice(INTENTIONS, "kill (strike), subdue, disarm, grapple, tackle or throw.")
    tactic = choice(TACTICS, "hold, press, retreat or circle.")
    weapon = fields.Raw(metadata={"oneOf": [{"type": "integer", "minimum": 0, "maximum": 3},
                                            {"type": "string", "maxLength": 64}],
                                  "description": "Weapon index or name (default 0)."})
    pace = choice(MOVE_PACES, "Pace of the move (default walk).")
    path = fields.List(fields.Nested(HexSchema), validate=validate.Length(max=50),
                       metadata={"description": "Hexes to walk, each next to the one before."})


SCHEMAS = {"combatant": CombatantSchema, "declaration": DeclarationSchema, "options": OptionsSchema,
           "state": StateSchema}
_ = (JsonInteger, options_field)
