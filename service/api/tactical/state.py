"""Schemas of the `tactical` encounter format: combatants, options, whole states and declarations, and the
simulation options (the numpy engine's rule switches, a matchup's `options`).

Shapes and bounds only, so the contract tells a VTT exactly what to send; the ruleset's engine
(`service/rules/tactical/state_io.py`, `declarations.py`) still checks everything that depends on
other fields (known weapons and targets, armor numbers against the catalog).
"""
from __future__ import annotations

from marshmallow import Schema, fields, validate

from service.api.kit.fields import combatant_id, quarter_rate, whole
from service.api.kit.schemas import JsonBoolean, JsonFloat, JsonInteger, Strict
from service.api.tactical.fields import WeightClassField
from service.rules.tactical.armor import ARMOR_TYPES
from service.rules.tactical.combat_state import ATTACKS, EDGES, GRIPS, RANGED, STATUSES, SURPRISE_STATES
from service.rules.tactical.declarations import ACTIONS, DEFENCES, REPRISALS, TARGET_POLICIES

BIG = 10_000


class AttributesSchema(Strict):
    """Attribute scores (default 10 each)."""

    STR = whole(0, 1000, "Strength: feeds the POT of blows and ranged STR limits.")
    mSTA = whole(0, 1000, "modified STA (size)")
    CND = whole(0, 1000, "Condition: feeds wound thresholds and death checks.")
    AGL = whole(0, 1000, "Agility: Initiative tie-break and footing checks.")
    HRT = whole(0, 1000, "Heart: Initiative tie-break and morale (HRT) checks.")
    P_RES = whole(0, 1000, "Pain resistance (P-RES): stun by pain.", data_key="P-RES", attribute="P-RES")
    CRD = whole(0, 1000, "Coordination: needed for slashes.")


class ModsSchema(Strict):
    """Attribute modifiers (default 0)."""

    AWA = whole(-100, 100, "Awareness modifier: added to Initiative.")
    HRT = whole(-100, 100, "Heart modifier: added to Initiative.")
    AGL = whole(-100, 100, "Agility modifier: AGL checks.")


class StateWeaponSchema(Strict):
    """A weapon in hand: attack AV, the Parry DV it offers, table 6-5 size and class."""

    name = fields.String(validate=validate.Length(1, 64),
                         metadata={"description": "The weapon's name (unique within the combatant)."})
    av = whole(0, BIG, "Attack value with this weapon.", required=True)
    parry = whole(0, BIG, "Parry DV the weapon offers (0: cannot parry).")
    size = whole(0, 20, "Weapon size from table 6-5 (0-20).")
    weight_class = WeightClassField(metadata={"description": "Weight class from table 6-5: a name or 0-5.",
                                              "oneOf": [{"type": "integer", "minimum": 0, "maximum": 5},
                                                        {"type": "string", "enum": ["light", "medium-light", "medium",
                                                                                    "medium-heavy", "heavy",
                                                                                    "very-heavy"]}]})
    db = whole(0, 100, "Must equal table 6-5 when given.")
    grip = fields.String(validate=validate.OneOf(GRIPS),
                         metadata={"description": "How it is used: one-handed, hand-and-a-half, two-handed, "
                                                  "hurled, bow, crossbow or brawling."})
    edge = fields.String(validate=validate.OneOf(EDGES),
                         metadata={"description": "blunt, edged or pointed."})
    edged = JsonBoolean(metadata={"description": "Older form of `edge` (true: edged, false: blunt)."})
    attack = fields.String(validate=validate.OneOf(ATTACKS), metadata={"description": "Default attack type."})
    ranged = fields.String(allow_none=True, validate=validate.OneOf(RANGED),
                           metadata={"description": "Ranged kind for `fire` declarations."})
    fixed_pot = whole(0, BIG, "A fixed POT (e.g. a crossbow's), replacing the STR-based one; "
                                              "null for none.", allow_none=True)
    arrowhead_db = whole(0, 100, "Damage bonus of the arrowhead (missiles).")


class StateLayerSchema(Strict):
    """An armor layer or shield, outermost first: catalog type, current DR and wear number."""

    type = fields.String(required=True, validate=validate.OneOf(ARMOR_TYPES),
                         metadata={"description": "Armor type from the catalog."})
    dr = whole(0, 100, "Current Damage Reduction (default: the catalog's).")
    durability = whole(0, 100, "Current durability (wear number; default: the catalog's).")


class PointSchema(Strict):
    """A position on the table, in feet."""

    x = JsonFloat(allow_nan=False, validate=validate.Range(-1e6, 1e6), required=True,
                  metadata={"description": "Feet along x."})
    y = JsonFloat(allow_nan=False, validate=validate.Range(-1e6, 1e6), required=True,
                  metadata={"description": "Feet along y."})


class PainSchema(Strict):
    """A stun-by-pain penalty as it wanes."""

    initial = whole(0, BIG, "Stun-by-pain penalty as first taken.")
    age = whole(0, 1000, "Segments ended since (the penalty halves each).")


class SurpriseStateSchema(Strict):
    """Where a combatant stands after a Surprise."""

    state = fields.String(validate=validate.OneOf(SURPRISE_STATES),
                          metadata={"description": "The Surprise outcome in force: none, not-surprised, "
                                                   "stunned, overwhelmed or shaken."})
    cs_left = whole(0, 100, "Combat Segments it still lasts.")
    penalty = whole(0, BIG, "Penalty it puts on his actions.")
    failed_dv = whole(0, BIG, "DV of the HRT check to recover (after a failed one).")


class GuardDownSchema(Strict):
    """DV a combatant gives up against named attackers in one CS, after a failed intimidation (F41)."""

    segment = whole(0, 1_000_000, "The CS it applies in.", required=True)
    against = fields.Dict(keys=fields.String(), values=JsonInteger(), required=True,
                          metadata={"description": "Attacker id -> DV lost against him."})


class CombatantStateSchema(Strict):
    """One combatant: sheet numbers, place on the table, and what the fight has done to him."""

    id = combatant_id("The combatant's id, unique in the encounter (declarations and events name it).")
    side = fields.String(validate=validate.Length(0, 64),
                         metadata={"description": "His side; the fight ends when one side stands."})
    attributes = fields.Nested(AttributesSchema, metadata={"description": "Attribute scores."})
    mods = fields.Nested(ModsSchema, metadata={"description": "Attribute modifiers."})
    dodge_dv = whole(0, BIG, "Dodge DV, cover and Acrobat bonus included.")
    free_dodges = whole(1, 20, "Dodges per CS before halving starts (RULINGS 7).")
    actions = whole(0, 10, "Rate of Action: actions per CS.")
    weapons = fields.List(fields.Nested(StateWeaponSchema), required=True, validate=validate.Length(1, 4),
                          metadata={"description": "Weapons in hand (1-4); declarations pick one by index or "
                                                   "name."})
    armor = fields.List(fields.Nested(StateLayerSchema), validate=validate.Length(max=8),
                        metadata={"description": "Armor layers and shield, outermost first."})
    position = fields.Nested(PointSchema, metadata={"description": "Feet on the table."})
    facing = whole(0, 359, "Degrees clockwise from +y.")
    speed_mph = JsonFloat(allow_nan=False, validate=validate.Range(0, 100),
                          metadata={"description": "Full-rate running speed in mph."})
    status = fields.String(validate=validate.OneOf(STATUSES),
                           metadata={"description": "standing, unconscious, collapsed or dead."})
    wounds = whole(0, 11, "Wounds taken so far (0-11).")
    stun_penalty = whole(0, BIG, "Stun penalty in force.")
    pain = fields.Nested(PainSchema, metadata={"description": "The pain penalty as it wanes (null: none)."})
    surprise = fields.Nested(SurpriseStateSchema,
                             metadata={"description": "His Surprise state (null: none)."})
    aware = JsonBoolean(
                        metadata={"description": "Whether he knows the fight is on (unaware targets offer "
                                                 "less defence)."})
    clothing_layers = whole(0, 10, "Layers of clothing under the armor (they stop a little "
                                                    "POT).")
    edged_blow_taken = JsonBoolean(
                                   metadata={"description": "Whether an edged blow has already hit him (the "
                                                            "first one hurts more)."})
    full_pulses = whole(0, 1000, "Pulses moved at full rate so far (charge eligibility).")
    task = fields.String(validate=validate.Length(max=200), metadata={"description": "An `other` action "
                                                                                     "under way."})
    task_left = whole(0, 1000, "Actions it still needs.")
    guard_down = fields.Nested(GuardDownSchema, metadata={"description": "After a failed intimidation: DV lost "
                                                                         "against the intimidator next CS (F41)."})


class EncounterOptionsSchema(Strict):
    """Rule switches of an encounter (docs/RULINGS.md)."""

    pulse_move = JsonBoolean(
                             metadata={"description": "Resolve movement pulse by pulse (RULINGS: Pulse "
                                                      "Move), not once per CS."})
    task_resolution = fields.String(validate=validate.OneOf(["ratio", "linear"]),
                                    metadata={"description": "Which Task Resolution Table: ratio or linear."})
    heroic = JsonBoolean(metadata={"description": "Heroic Effects on low rolls (RULINGS 6)."})
    heroic_doubles_pot = JsonBoolean(metadata={"description": "A Heroic hit doubles its POT."})
    bumble = JsonBoolean(metadata={"description": "Bumbles on high rolls (RULINGS 6)."})
    armor_wear = JsonBoolean(metadata={"description": "Armor wears with every strike."})
    reprisals = JsonBoolean(metadata={"description": "Missed attacks allow Reprisals."})
    progression = fields.String(validate=validate.OneOf(["triangular", "linear"]),
                                metadata={"description": "How defences weaken with repeated use: triangular "
                                                         "or linear (RULINGS 7)."})
    tie_break = fields.String(validate=validate.OneOf(["alphabetical", "coin"]),
                              metadata={"description": "Initiative ties: alphabetical or a coin."})
    knockback_moves = JsonBoolean(metadata={"description": "Knock-back moves the figure on the table."})
    stray_fire = JsonBoolean(metadata={"description": "A missed shot flies on at the figures in line beyond "
                                                      "its target, within its range band (Misses & Stray Fire)."})


class EncounterStateSchema(Strict):
    """A whole encounter as the engine reads and writes it."""

    ruleset = fields.String(validate=validate.OneOf(["tactical"]),
                            metadata={"description": "Always `tactical` here."})
    segment = whole(0, 1_000_000, "Combat Segments resolved so far.")
    options = fields.Nested(EncounterOptionsSchema, metadata={"description": "Rule switches in force."})
    combatants = fields.List(fields.Nested(CombatantStateSchema), required=True, validate=validate.Length(1, 200),
                             metadata={"description": "Everyone in the fight (1-200)."})


class SurpriseDeclarationSchema(Strict):
    """A Surprise the combatant springs this CS."""

    chance = whole(-1000, 1000, "Aggressor's Stealth (or ruse) chance.", required=True)
    target_chance = whole(-1000, 1000, "Target's Perception/AWA "
                                                                              "chance.", required=True)
    target_dv = whole(0, 1000, "DV of the target's check (for F8).", allow_none=True)
    roll = whole(1, 100, "The aggressor's d100, rolled at the table (null: Referee rolls).", allow_none=True)
    target_roll = whole(1, 100, "The target's d100, rolled at the table (null: Referee "
                                                "rolls).", allow_none=True)


class DiceSchema(Strict):
    """Dice rolled at the table for this combatant (null: Referee rolls them)."""

    initiative = whole(1, 10, "His Initiative d10.", allow_none=True)
    d100 = fields.List(JsonInteger(validate=validate.Range(1, 100)), validate=validate.Length(max=100),
                       metadata={"description": "His attack d100s, in order."})


class CombinationDeclarationSchema(Strict):
    """A second melee weapon joined to the attack (F38): in concert (one roll, POT added) or separate."""

    weapon = fields.Raw(required=True, metadata={"oneOf": [{"type": "integer", "minimum": 0, "maximum": 3},
                                                           {"type": "string", "maxLength": 64}],
                                                 "description": "The second weapon's index or name."})
    sl = whole(0, 1000, "The Combination SL.", required=True)
    mode = fields.String(validate=validate.OneOf(["in-concert", "separate"]),
                         metadata={"description": "in-concert (default) or separate but simultaneous."})


class IntimidateDeclarationSchema(Strict):
    """A Presence attack joined to the blow (F41), resolved when the blow puts POT through."""

    presence_av = whole(-10_000, 10_000, "Presence (Intimidate) AV.", required=True)
    sl = whole(-10_000, 10_000, "Intimidate SL (the guard drop).", required=True)
    target_dv = whole(-10_000, 10_000, "The target's DV to resist, before his Presence SL and morale.",
                      required=True)


class BodyCheckDeclarationSchema(Strict):
    """A body check, side-swipe or tackle (F39, F40): what the encounter state does not hold. The rest
    (AGL mod, modified STA, STR, armor layers, the speed each moved at this CS) comes from the state."""

    kind = fields.String(validate=validate.OneOf(["body-check", "side-swipe", "tackle"]),
                         metadata={"description": "body-check (default), side-swipe or tackle (needs full "
                                                  "speed through the movement phase)."})
    str_mod = whole(-100, 100, "The attacker's STR att. mod (default 0).")
    target_str_mod = whole(-100, 100, "The target's STR att. mod (default 0).")
    shield_size = whole(0, 100, "Size of the shield the attacker bears (default 0).")


class DeclarationSchema(Strict):
    """One combatant's declared action for the next CS (docs/RULINGS.md, the segment resolver)."""

    combatant = fields.String(required=True, validate=validate.Length(1, 64),
                              metadata={"description": "Who acts."})
    action = fields.String(validate=validate.OneOf(ACTIONS),
                           metadata={"description": "What he does: attack, charge, fire, move, defend, wait, "
                                                    "other or body-check (a body check, side-swipe or tackle "
                                                    "on `target`, see `body_check`)."})
    target = fields.String(allow_none=True, validate=validate.Length(1, 64),
                           metadata={"description": "Whom he acts against (null: nobody)."})
    target_policy = fields.String(validate=validate.OneOf(TARGET_POLICIES), metadata={
        "description": "Whom an attack, charge or shot strikes when it resolves: `declared` (default) the "
                       "`target`, lost if he fell earlier this CS; `first-standing` the first foe (another "
                       "side, encounter order) still standing then; `random-standing` one of them at random "
                       "from the segment's seed. With a policy other than `declared`, `target` may be left out.",
        "example": "first-standing"})
    weapon = fields.Raw(metadata={"oneOf": [{"type": "integer", "minimum": 0, "maximum": 3},
                                            {"type": "string", "maxLength": 64}],
                                  "description": "Weapon index or name (default 0)."})
    attack = fields.String(validate=validate.OneOf(ATTACKS),
                           metadata={"description": "The attack type: common, slash or thrust."})
    to = fields.Nested(PointSchema, metadata={"description": "Where he moves, in feet."})
    rate = quarter_rate("Quarter rate: 0, 0.25, 0.5, 0.75 or 1.")
    defence = fields.String(validate=validate.OneOf(DEFENCES),
                            metadata={"description": "The defence he offers: best, dodge, parry or none."})
    reprisal = fields.String(validate=validate.OneOf(REPRISALS),
                             metadata={"description": "What he does when an attack on him misses: attack, "
                                                      "disengage or none."})
    opportunity = JsonBoolean(metadata={"description": "Whether he takes opportunity attacks."})
    actions = whole(0, 10, "Actions he spends on it (null: all he has).", allow_none=True)
    surprise = fields.Nested(SurpriseDeclarationSchema, allow_none=True,
                             metadata={"description": "A Surprise he springs (null: none)."})
    dice = fields.Nested(DiceSchema, metadata={"description": "Dice he rolled at the table."})
    note = fields.String(validate=validate.Length(max=200),
                         metadata={"description": "Free text, kept with the declaration."})
    duration = whole(1, 1000, "For `other`: actions the task takes (table 4-1, or "
                                                      "the GM's call).")
    combination = fields.Nested(CombinationDeclarationSchema, allow_none=True,
                                metadata={"description": "Attack or charge: a second weapon joined to it (F38)."})
    intimidate = fields.Nested(IntimidateDeclarationSchema, allow_none=True,
                               metadata={"description": "Attack or charge: an Intimidation joined to the blow (F41)."})
    body_check = fields.Nested(BodyCheckDeclarationSchema, allow_none=True,
                               metadata={"description": "Action body-check: its kind and the numbers the state "
                                                        "lacks (F39, F40); left out, a plain body check."})
    days_cocked = whole(0, 365, "Action fire with a crossbow: full days it was kept cocked before this shot, "
                                "-1 POT each, never below 0 (RULINGS 25; default 0). It goes with this shot "
                                "(and a stray it becomes), not with the weapon.")


class OptionsSchema(Schema):
    """Rule switches of a simulation (defaults: RULINGS and the digest's defaults)."""

    method = fields.String(load_default="ratio", validate=validate.OneOf(["ratio", "linear"]),
                           metadata={"description": "Task Resolution Table method (RULINGS 4)."})
    heroic = JsonBoolean(load_default=True, metadata={"description": "A Heroic hit doubles the POT."})
    bumble = JsonBoolean(load_default=True, metadata={"description": "Count Bumbles (a miss either way)."})
    armor_wear = JsonBoolean(load_default=True, metadata={"description": "The optional Armor Wear rules (F20)."})
    reprisals = JsonBoolean(load_default=True, 
                               metadata={"description": "A missed attack gives a Reprisal."})
    progression = fields.String(load_default="triangular", validate=validate.OneOf(["triangular", "linear"]),
                                metadata={"description": "Progressive DVs and penalties (RULINGS 3)."})
    targeting = fields.String(load_default="first", validate=validate.OneOf(["first", "random"]),
                              metadata={"description": "Whom each attack strikes when it resolves: the "
                                                       "first foe still standing in matchup order (the "
                                                       "resolver's `target_policy: first-standing`), or "
                                                       "one of them at random (`random-standing`)."})
    policy = fields.String(validate=validate.Length(1, 64), metadata={
        "description": "The fight policy: only `attack` (every standing combatant attacks with his first "
                       "weapon) is played; any other (`body-check`, `side-swipe`, `tackle`...) is refused "
                       "with a 422 naming this field, since the simulator leaves those maneuvers out.",
        "example": "attack"})
    max_segments = JsonInteger(load_default=100, validate=validate.Range(1, 1000),
                                  metadata={"description": "A fight still on after this many segments is "
                                                           "a draw."})


SCHEMAS = {"combatant": CombatantStateSchema, "declaration": DeclarationSchema, "options": EncounterOptionsSchema,
           "state": EncounterStateSchema, "sim_options": OptionsSchema}
