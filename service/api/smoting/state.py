"""Payload schemas of smoting encounters, simulations and `rounds/resolve` (smoting.md sections 3 and
12.8): shapes and bounds only; the round engine checks what depends on the state."""
from __future__ import annotations

from marshmallow import Schema, fields, validate

from service.api.kit.fields import combatant_id, flag, whole
from service.api.smoting.fields import SmotingOptionsSchema
from service.api.smoting.schemas.combatant import ATTRIBUTE_NAMES, GROUPS

ID = validate.Length(1, 64)


def _levels(name: str, keys: tuple[str, ...], low: int, high: int, text: str) -> type[Schema]:
    cls = Schema.from_dict({k: whole(low, high, f"{k} ({text}).") for k in keys}, name=name)
    cls.__doc__ = f"{text.capitalize()}: any subset; a missing key is 0."
    return cls


AttributeLevelsSchema = _levels("AttributeLevelsSchema", ATTRIBUTE_NAMES, -3, 6, "extra dice per attribute")
XposuresSchema = _levels("XposuresSchema", ("attack", "parry", "dodge", "block"), 0, 12, "skill pools in dice")
FlagsSchema = Schema.from_dict({k: flag(f"{k}.", None) for k in ("running", "stunned", "prone", "panicked", "crushed",
                                                            "ooa", "kia")}, name="FlagsSchema")
FlagsSchema.__doc__ = "Conditions (missing ones are false)."


class WeaponSchema(Schema):
    """The weapon (defaults: 4 damage dice, speed 4, medium, melee)."""

    damage_dice = whole(0, 30, "Damage dice.")
    speed = whole(1, 12, "Weapon speed: the die value an attack costs.")
    size = fields.String(validate=validate.OneOf(["small", "medium", "large"]), metadata={"description": "Size."})
    reach = flag("A reach weapon attacks from StandAlone.", None)
    kind = fields.String(validate=validate.OneOf(["melee", "thrown", "fired"]), metadata={"description": "Kind."})


class ShieldSchema(Schema):
    """A shield."""

    block_factor = whole(0, 6, "Extra damage dice removed by a block.")


class DefencePoolSchema(Schema):
    """A live defence pool."""

    type = fields.String(required=True, validate=validate.OneOf(["dodge", "parry", "block"]),
                         metadata={"description": "Its defence."})
    successes = whole(0, 60, "Successes left.", required=True)


class CombatantSchema(Schema):
    """A smoting combatant (smoting.md section 3); only `id`, `physical_rank` and `mental_rank` are required."""

    id = combatant_id("Unique id.")
    side = fields.String(validate=validate.Length(0, 64), metadata={"description": "Side name."})
    name = fields.String(validate=ID, metadata={"description": "Display name (simulations use it as id)."})
    pc = flag("A player character (wins countdown ties against NPCs).", None)
    heroic = flag("Heroic: soaks, falls to -3 ranks.", None)
    physical_rank = whole(1, 9, "Starting real physical rank.", required=True)
    mental_rank = whole(1, 9, "Starting real mental rank.", required=True)
    bonus_physical = whole(0, 9, "Bonus physical ranks.")
    bonus_mental = whole(0, 9, "Bonus mental ranks.")
    lost_physical = whole(0, 30, "Physical ranks marked lost.")
    lost_mental = whole(0, 30, "Mental ranks marked lost.")
    crossover_physical = whole(0, 30, "Direct physical losses toward the next crossover.")
    crossover_mental = whole(0, 30, "Direct mental losses toward the next crossover.")
    burn_each_round = whole(0, 30, "Action dice burned at every round start (injuries).")
    attributes = fields.Nested(AttributeLevelsSchema, metadata={"description": "Attribute levels."})
    xposures = fields.Nested(XposuresSchema, metadata={"description": "Skill pools (attack >= 1 to attack)."})
    weapon = fields.Nested(WeaponSchema, metadata={"description": "The weapon."})
    armor_resist = whole(0, 6, "Damage dice removed.")
    shield = fields.Nested(ShieldSchema, allow_none=True, metadata={"description": "The shield, or null."})
    action_dice_modifier = whole(-8, 8, "Added to the base action dice.")
    movement_dice = whole(0, 12, "Movement dice before AGL.")
    mr = whole(0, 10, "Zones a round.")
    group = fields.String(validate=validate.OneOf(GROUPS), metadata={"description": "Mob, crowd, horde, ..."})
    zone = fields.String(validate=ID, allow_none=True, metadata={"description": "Zone id."})
    status = fields.String(validate=validate.OneOf(["alone", "in_contact", "in_close", "boundary"]),
                           metadata={"description": "Alone, InContact, InClose, or on a zone boundary."})
    engaged_with = fields.List(fields.String(validate=ID), validate=validate.Length(max=200),
                               metadata={"description": "Members of its InContact group."})
    flags = fields.Nested(FlagsSchema, metadata={"description": "Conditions."})
    held_die = whole(2, 6, "A held action's die carried from the last round.", allow_none=True)
    defence_pool = fields.Nested(DefencePoolSchema, allow_none=True, metadata={"description": "A live pool."})


class MoveSchema(Schema):
    """A declared move."""

    kind = fields.String(load_default="zone", validate=validate.OneOf(["zone", "battle", "trivial"]),
                         metadata={"description": "zone (a whole action), battle (into contact) or trivial."})
    to = fields.String(validate=ID, allow_none=True,
                       metadata={"description": "The zone (zone move) or the combatant to engage (battle move)."})


class DeclarationSchema(Schema):
    """What a combatant does at each of its calls this round, and how it defends and soaks."""

    combatant = fields.String(required=True, validate=ID, metadata={"description": "Who declares."})
    action = fields.String(load_default="pass", validate=validate.OneOf(["attack", "move", "withdraw", "idle",
                                                                         "pass", "hold"]),
                           metadata={"description": "attack, move, withdraw, idle, pass or hold."})
    target = fields.String(validate=ID, allow_none=True,
                           metadata={"description": "Attack target (a hold with a target attacks when released)."})
    defence = fields.String(load_default="none", validate=validate.OneOf(["none", "parry", "dodge", "block"]),
                            metadata={"description": "The defence used when attacked."})
    defend_if = fields.String(load_default="always", validate=validate.OneOf(["always", "spare"]),
                              metadata={"description": "always, or spare: only with two non-1 dice or when the "
                                                       "weapon's speed is out of reach anyway."})
    soak = fields.String(load_default="auto", validate=validate.OneOf(["auto", "always", "never"]),
                         metadata={"description": "auto: soak with a 1 at hand or when damage exceeds T."})
    move = fields.Nested(MoveSchema, allow_none=True, metadata={"description": "The move (action move)."})


class BottleneckSchema(Schema):
    """A bottleneck on the boundary to another zone."""

    to = fields.String(required=True, validate=ID, metadata={"description": "The neighbouring zone."})
    capacity = whole(0, 100, "Creatures that may pass a round.", required=True)


class ZoneSchema(Schema):
    """A zone of the battlefield."""

    id = fields.String(required=True, validate=ID, metadata={"description": "Zone id."})
    adjacent = fields.List(fields.String(validate=ID), validate=validate.Length(max=100),
                           metadata={"description": "Neighbouring zones."})
    bottleneck = fields.Nested(BottleneckSchema, allow_none=True, metadata={"description": "A bottleneck."})


def _zones() -> fields.List:
    return fields.List(fields.Nested(ZoneSchema), validate=validate.Length(max=100),
                       metadata={"description": "Zones and their adjacency (empty: no map)."})


def _surprise() -> fields.List:
    return fields.List(fields.String(validate=validate.Length(0, 64)), validate=validate.Length(max=20),
                       metadata={"description": "Surprised sides (first round only)."})


class SetupSchema(Schema):
    """The rest of a smoting encounter's first state: zones and surprised sides."""

    zones = _zones()
    surprise = _surprise()


class StateSchema(Schema):
    """A smoting round state (smoting.md section 12.8)."""

    ruleset = fields.String(validate=validate.Equal("smoting"), metadata={"description": "\"smoting\"."})
    round = whole(0, 10**6, "Rounds resolved so far.")
    options = fields.Nested(SmotingOptionsSchema, metadata={"description": "Rule options."})
    surprise = _surprise()
    zones = _zones()
    combatants = fields.List(fields.Nested(CombatantSchema), required=True, validate=validate.Length(1, 200),
                             metadata={"description": "Combatants."})


SCHEMAS = {"combatant": CombatantSchema, "declaration": DeclarationSchema, "options": SmotingOptionsSchema,
           "state": StateSchema, "setup": SetupSchema}
