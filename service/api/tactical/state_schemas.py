"""Schemas of the `tactical` encounter format: combatants, options, whole states and declarations.

Shapes and bounds only, so the contract tells a VTT exactly what to send; the ruleset's engine
(`service/rules/tactical/state_io.py`, `declarations.py`) still checks everything that depends on
other fields (known weapons and targets, armor numbers against the catalog).
"""
from __future__ import annotations

from marshmallow import RAISE, Schema, fields, validate

from service.api.schemas import JsonBoolean, JsonFloat, JsonInteger
from service.api.tactical.damage_schemas import WeightClassField
from service.rules.tactical.armor import ARMOR_TYPES
from service.rules.tactical.combat_state import ATTACKS, EDGES, GRIPS, RANGED, STATUSES, SURPRISE_STATES
from service.rules.tactical.declarations import ACTIONS, DEFENCES, REPRISALS, TARGET_POLICIES

BIG = 10_000


def _int(low: int, high: int, **kwargs) -> JsonInteger:
    return JsonInteger(validate=validate.Range(low, high), **kwargs)


class Strict(Schema):
    """Unknown fields are refused (a typo never passes silently)."""

    class Meta:
        unknown = RAISE


class AttributesSchema(Strict):
    """Attribute scores (default 10 each)."""

    STR = _int(0, 1000)
    mSTA = _int(0, 1000, metadata={"description": "modified STA (size)"})
    CND = _int(0, 1000)
    AGL = _int(0, 1000)
    HRT = _int(0, 1000)
    P_RES = _int(0, 1000, data_key="P-RES", attribute="P-RES")
    CRD = _int(0, 1000)


class ModsSchema(Strict):
    """Attribute modifiers (default 0)."""

    AWA = _int(-100, 100)
    HRT = _int(-100, 100)
    AGL = _int(-100, 100)


class StateWeaponSchema(Strict):
    """A weapon in hand: attack AV, the Parry DV it offers, table 6-5 size and class."""

    name = fields.String(validate=validate.Length(1, 64))
    av = _int(0, BIG, required=True)
    parry = _int(0, BIG)
    size = _int(0, 20)
    weight_class = WeightClassField(metadata={"oneOf": [{"type": "integer", "minimum": 0, "maximum": 5},
                                                        {"type": "string", "enum": ["light", "medium-light", "medium",
                                                                                    "medium-heavy", "heavy",
                                                                                    "very-heavy"]}]})
    db = _int(0, 100, metadata={"description": "Must equal table 6-5 when given."})
    grip = fields.String(validate=validate.OneOf(GRIPS))
    edge = fields.String(validate=validate.OneOf(EDGES))
    edged = JsonBoolean(metadata={"description": "Older form of `edge` (true: edged, false: blunt)."})
    attack = fields.String(validate=validate.OneOf(ATTACKS), metadata={"description": "Default attack type."})
    ranged = fields.String(allow_none=True, validate=validate.OneOf(RANGED),
                           metadata={"description": "Ranged kind for `fire` declarations."})
    fixed_pot = _int(0, BIG, allow_none=True)
    arrowhead_db = _int(0, 100)


class StateLayerSchema(Strict):
    """An armor layer or shield, outermost first: catalog type, current DR and wear number."""

    type = fields.String(required=True, validate=validate.OneOf(ARMOR_TYPES))
    dr = _int(0, 100)
    durability = _int(0, 100)


class PointSchema(Strict):
    x = JsonFloat(allow_nan=False, validate=validate.Range(-1e6, 1e6), required=True)
    y = JsonFloat(allow_nan=False, validate=validate.Range(-1e6, 1e6), required=True)


class PainSchema(Strict):
    initial = _int(0, BIG, metadata={"description": "Stun-by-pain penalty as first taken."})
    age = _int(0, 1000, metadata={"description": "Segments ended since (the penalty halves each)."})


class SurpriseStateSchema(Strict):
    state = fields.String(validate=validate.OneOf(SURPRISE_STATES))
    cs_left = _int(0, 100)
    penalty = _int(0, BIG)
    failed_dv = _int(0, BIG)


class GuardDownSchema(Strict):
    """DV a combatant gives up against named attackers in one CS, after a failed intimidation (F41)."""

    segment = _int(0, 1_000_000, required=True, metadata={"description": "The CS it applies in."})
    against = fields.Dict(keys=fields.String(), values=JsonInteger(), required=True,
                          metadata={"description": "Attacker id -> DV lost against him."})


class CombatantStateSchema(Strict):
    """One combatant: sheet numbers, place on the table, and what the fight has done to him."""

    id = fields.String(required=True, validate=validate.Length(1, 64))
    side = fields.String(validate=validate.Length(0, 64))
    attributes = fields.Nested(AttributesSchema)
    mods = fields.Nested(ModsSchema)
    dodge_dv = _int(0, BIG)
    free_dodges = _int(1, 20)
    actions = _int(0, 10, metadata={"description": "Rate of Action: actions per CS."})
    weapons = fields.List(fields.Nested(StateWeaponSchema), required=True, validate=validate.Length(1, 4))
    armor = fields.List(fields.Nested(StateLayerSchema), validate=validate.Length(max=8))
    position = fields.Nested(PointSchema, metadata={"description": "Feet on the table."})
    facing = _int(0, 359, metadata={"description": "Degrees clockwise from +y."})
    speed_mph = JsonFloat(allow_nan=False, validate=validate.Range(0, 100))
    status = fields.String(validate=validate.OneOf(STATUSES))
    wounds = _int(0, 11)
    stun_penalty = _int(0, BIG)
    pain = fields.Nested(PainSchema)
    surprise = fields.Nested(SurpriseStateSchema)
    aware = JsonBoolean()
    clothing_layers = _int(0, 10)
    edged_blow_taken = JsonBoolean()
    full_pulses = _int(0, 1000)
    task = fields.String(validate=validate.Length(max=200), metadata={"description": "An `other` action under way."})
    task_left = _int(0, 1000, metadata={"description": "Actions it still needs."})
    guard_down = fields.Nested(GuardDownSchema, metadata={"description": "After a failed intimidation: DV lost "
                                                                         "against the intimidator next CS (F41)."})


class EncounterOptionsSchema(Strict):
    """Rule switches of an encounter (docs/RULINGS.md)."""

    pulse_move = JsonBoolean()
    task_resolution = fields.String(validate=validate.OneOf(["ratio", "linear"]))
    heroic = JsonBoolean()
    heroic_doubles_pot = JsonBoolean()
    bumble = JsonBoolean()
    armor_wear = JsonBoolean()
    reprisals = JsonBoolean()
    progression = fields.String(validate=validate.OneOf(["triangular", "linear"]))
    tie_break = fields.String(validate=validate.OneOf(["alphabetical", "coin"]))
    knockback_moves = JsonBoolean()
    stray_fire = JsonBoolean(metadata={"description": "A missed shot flies on at the figures in line beyond "
                                                      "its target, within its range band (Misses & Stray Fire)."})


class EncounterStateSchema(Strict):
    """A whole encounter as the engine reads and writes it."""

    ruleset = fields.String(validate=validate.OneOf(["tactical"]))
    segment = _int(0, 1_000_000)
    options = fields.Nested(EncounterOptionsSchema)
    combatants = fields.List(fields.Nested(CombatantStateSchema), required=True, validate=validate.Length(1, 200))


class SurpriseDeclarationSchema(Strict):
    chance = _int(-1000, 1000, required=True, metadata={"description": "Aggressor's Stealth (or ruse) chance."})
    target_chance = _int(-1000, 1000, required=True, metadata={"description": "Target's Perception/AWA chance."})
    target_dv = _int(0, 1000, allow_none=True, metadata={"description": "DV of the target's check (for F8)."})
    roll = _int(1, 100, allow_none=True)
    target_roll = _int(1, 100, allow_none=True)


class DiceSchema(Strict):
    initiative = _int(1, 10, allow_none=True)
    d100 = fields.List(_int(1, 100), validate=validate.Length(max=100))


class CombinationDeclarationSchema(Strict):
    """A second melee weapon joined to the attack (F38): in concert (one roll, POT added) or separate."""

    weapon = fields.Raw(required=True, metadata={"oneOf": [{"type": "integer", "minimum": 0, "maximum": 3},
                                                           {"type": "string", "maxLength": 64}],
                                                 "description": "The second weapon's index or name."})
    sl = _int(0, 1000, required=True, metadata={"description": "The Combination SL."})
    mode = fields.String(validate=validate.OneOf(["in-concert", "separate"]),
                         metadata={"description": "in-concert (default) or separate but simultaneous."})


class IntimidateDeclarationSchema(Strict):
    """A Presence attack joined to the blow (F41), resolved when the blow puts POT through."""

    presence_av = _int(-10_000, 10_000, required=True, metadata={"description": "Presence (Intimidate) AV."})
    sl = _int(-10_000, 10_000, required=True, metadata={"description": "Intimidate SL (the guard drop)."})
    target_dv = _int(-10_000, 10_000, required=True,
                     metadata={"description": "The target's DV to resist, before his Presence SL and morale."})


class DeclarationSchema(Strict):
    """One combatant's declared action for the next CS (docs/RULINGS.md, the segment resolver)."""

    combatant = fields.String(required=True, validate=validate.Length(1, 64))
    action = fields.String(validate=validate.OneOf(ACTIONS))
    target = fields.String(allow_none=True, validate=validate.Length(1, 64))
    target_policy = fields.String(validate=validate.OneOf(TARGET_POLICIES), metadata={
        "description": "Whom an attack, charge or shot strikes when it resolves: `declared` (default) the "
                       "`target`, lost if he fell earlier this CS; `first-standing` the first foe (another "
                       "side, encounter order) still standing then; `random-standing` one of them at random "
                       "from the segment's seed. With a policy other than `declared`, `target` may be left out.",
        "example": "first-standing"})
    weapon = fields.Raw(metadata={"oneOf": [{"type": "integer", "minimum": 0, "maximum": 3},
                                            {"type": "string", "maxLength": 64}],
                                  "description": "Weapon index or name (default 0)."})
    attack = fields.String(validate=validate.OneOf(ATTACKS))
    to = fields.Nested(PointSchema)
    rate = JsonFloat(validate=validate.Range(0, 1), metadata={"description": "Quarter rate: 0, 0.25, 0.5, 0.75 or 1 "
                                                                   "(no enum: generators reject number enums)."})
    defence = fields.String(validate=validate.OneOf(DEFENCES))
    reprisal = fields.String(validate=validate.OneOf(REPRISALS))
    opportunity = JsonBoolean()
    actions = _int(0, 10, allow_none=True)
    surprise = fields.Nested(SurpriseDeclarationSchema, allow_none=True)
    dice = fields.Nested(DiceSchema)
    note = fields.String(validate=validate.Length(max=200))
    duration = _int(1, 1000, metadata={"description": "For `other`: actions the task takes (table 4-1, or the GM's call)."})
    combination = fields.Nested(CombinationDeclarationSchema, allow_none=True,
                                metadata={"description": "Attack or charge: a second weapon joined to it (F38)."})
    intimidate = fields.Nested(IntimidateDeclarationSchema, allow_none=True,
                               metadata={"description": "Attack or charge: an Intimidation joined to the blow (F41)."})
