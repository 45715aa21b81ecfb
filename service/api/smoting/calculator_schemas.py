"""Schemas of the smoting calculators (smoting.md section 12): shapes and bounds only."""
from __future__ import annotations

from marshmallow import Schema, fields, validate

from service.api.fields import flag, whole
from service.api.schemas import JsonBoolean, JsonFloat, JsonInteger, trace_field
from service.api.smoting.common import (
    answer_fields,
    chance_fields,
    exact_field,
    odds_field,
    options_field,
    request_fields,
)


def _schema(name: str, doc: str, fields_: dict[str, fields.Field], example: dict | None = None) -> type[Schema]:
    cls = Schema.from_dict(fields_, name=name)
    cls.__doc__ = doc
    cls.EXAMPLE = example  # type: ignore[attr-defined]
    return cls


POOL = "the pool dice in order, then one face per 6 showing (breadth first)"

CheckRequestSchema = _schema("SmotingCheckRequestSchema", "Any d6 success pool: a task, an attribute roll, a "
                             "zone or battle move.", {
    "dice": whole(0, 30, "The base pool in dice.", required=True),
    "modifiers": whole(-30, 30, "Dice added or removed.", 0),
    "running": flag("+1 die (movement while running)."),
    "stunned": flag("-2 dice."),
    "explode": JsonBoolean(load_default=None, allow_none=True,
                           metadata={"description": "Re-roll 6s; null follows option `explode`."}),
    "need": whole(1, 30, "Successes needed (`task` only).", 1),
    "kind": fields.String(load_default="task", validate=validate.OneOf(["task", "attribute", "zone_move",
                                                                          "battle_move"]),
                          metadata={"description": "task (needs `need`), attribute (1 success), zone_move "
                                                   "(2 to arrive, 1 boundary), battle_move (1, rolled below 4 "
                                                   "dice)."}),
    **request_fields({"pool": POOL})},
    {"dice": 5, "kind": "task", "need": 1, "seed": 7})


class CheckRollSchema(Schema):
    """The pool as rolled."""

    faces = fields.List(JsonInteger(), required=True, metadata={"description": POOL})
    successes = JsonInteger(required=True, metadata={"description": "Faces at or above `success_min`."})
    outcome = fields.String(required=True, metadata={"description": "One of the `probabilities` keys."})


CheckSchema = _schema("SmotingCheckSchema", "A pool's odds and, with a seed or rolls, its roll.", {
    "pool": JsonInteger(required=True, metadata={"description": "Dice rolled after modifiers."}),
    "explode": JsonBoolean(required=True, metadata={"description": "Whether 6s re-roll."}),
    **chance_fields(),
    "probabilities": odds_field("Exclusive outcomes.", "success/failure, or arrive/boundary/stay"),
    "probabilities_exact": exact_field("Exclusive outcomes."),
    "success_probabilities": odds_field("P(exactly k successes).", "\"0\"..\"2*pool\", \"more\""),
    "success_probabilities_exact": exact_field("P(exactly k successes)."),
    "expected_successes": JsonFloat(required=True, metadata={"description": "Mean successes."}),
    "expected_successes_exact": fields.String(required=True, metadata={"description": "Mean, exact."}),
    "roll_needed": JsonBoolean(metadata={"description": "battle_move only: whether the pool is below 4 dice."}),
    "roll": fields.Nested(CheckRollSchema, required=True, allow_none=True,
                          metadata={"description": "The pool as rolled (null without `seed` or `rolls`)."}),
    **answer_fields()},
    {"pool": 5, "explode": True, "chance": 0.868, "chance_exact": "211/243"})

DEFENCE_TYPES = ["none", "dodge", "parry"]


class DefenceSchema(Schema):
    """The defender's declared defence: a fresh roll of `dice` or a live pool of `pool` successes."""

    type = fields.String(load_default="none", validate=validate.OneOf(DEFENCE_TYPES),
                         metadata={"description": "none, dodge (removes attack dice) or parry (removes successes)."})
    dice = JsonInteger(validate=validate.Range(0, 30), load_default=None, allow_none=True,
                       metadata={"description": "A fresh defence roll of this many dice."})
    pool = JsonInteger(validate=validate.Range(0, 60), load_default=None, allow_none=True,
                       metadata={"description": "A live pool's successes (instead of `dice`)."})
    running = flag("A running defender discards one defence die (fresh rolls).")


def _hit_fields() -> dict[str, fields.Field]:
    return {
        "attack_dice": whole(1, 30, "The attack Xposure pool.", required=True),
        "modifiers": whole(-30, 30, "Other dice added or removed.", 0),
        "attack_type": fields.String(load_default="melee", validate=validate.OneOf(["melee", "thrown", "fired",
                                                                                    "spell"]),
                                     metadata={"description": "melee, thrown, fired or spell."}),
        "cover": fields.String(load_default="none", validate=validate.OneOf(
            ["none", "hard_light", "hard_heavy", "soft_light", "soft_medium", "soft_heavy"]),
            metadata={"description": "Cover of the target (table `cover`)."}),
        "target_running": flag("-1 die against thrown or fired attacks."),
        "target_flying_speed": whole(0, 10, "Dice lost against thrown or fired attacks.", 0),
        "range_zones": whole(0, 10, "Zones between attacker and target (0: same zone).", 0),
        "advantage": flag("+`advantage_dice`."),
        "pressure": whole(0, 8, "1s spent against the attacker (-1 die each).", 0),
        "effort": whole(0, 8, "1s spent by the attacker (+1 die each).", 0),
        "defence": fields.Nested(DefenceSchema, load_default=None, allow_none=True,
                                 metadata={"description": "The defence used (default none)."}),
        "surprised": flag("The defender is surprised: no defence, no shield, no soak."),
    }


ATTACK_ROLES = {"attack": "Attack pool faces (" + POOL + ").", "defence": "Fresh defence roll faces."}
ToHitRequestSchema = _schema("SmotingToHitRequestSchema", "An attack pool against a defence.",
                             {**_hit_fields(), **request_fields(ATTACK_ROLES)},
                             {"attack_dice": 5, "defence": {"type": "dodge", "dice": 3}, "seed": 42})


class ToHitRollSchema(Schema):
    """The attack as rolled."""

    attack_faces = fields.List(JsonInteger(), required=True, metadata={"description": "Attack faces."})
    attack_successes = JsonInteger(required=True, metadata={"description": "Attack successes."})
    defence_faces = fields.List(JsonInteger(), required=True, allow_none=True,
                                metadata={"description": "Fresh defence faces (null: none rolled)."})
    defence_successes = JsonInteger(required=True, allow_none=True,
                                    metadata={"description": "Defence successes (rolled or the live pool)."})
    net = JsonInteger(required=True, metadata={"description": "Attack successes after a parry."})
    extra_successes = JsonInteger(required=True, metadata={"description": "Net successes beyond the first."})
    outcome = fields.String(required=True, metadata={"description": "defender_specials, miss or hit."})


ToHitSchema = _schema("SmotingToHitSchema", "The chance an attack lands, and its roll.", {
    "attack_dice": JsonInteger(required=True, metadata={"description": "Pool before dodge, after modifiers."}),
    "explode": JsonBoolean(required=True, metadata={"description": "Whether the attack's 6s re-roll."}),
    "defence_dice": JsonInteger(required=True, allow_none=True, metadata={"description": "Fresh defence dice."}),
    "defence_applied": JsonInteger(required=True, allow_none=True, metadata={"description": "Live pool used."}),
    "defence_pool_after": JsonInteger(required=True, allow_none=True,
                                      metadata={"description": "The live pool after this use."}),
    **chance_fields(),
    "probabilities": odds_field("Exclusive outcomes.", "defender_specials, miss, hit"),
    "probabilities_exact": exact_field("Exclusive outcomes."),
    "extra_success_probabilities": odds_field("P(hit with k extra successes).", "\"0\"..\"2*attack_dice\", more"),
    "extra_success_probabilities_exact": exact_field("P(hit with k extra successes)."),
    "roll": fields.Nested(ToHitRollSchema, required=True, allow_none=True,
                          metadata={"description": "The attack as rolled (null without `seed` or `rolls`)."}),
    **answer_fields()}, {"attack_dice": 5, "chance": 0.761})


class TargetSchema(Schema):
    """The target of the damage."""

    rank = whole(1, 9, "Starting real rank of the domain hit.", required=True)
    bonus_ranks = whole(0, 9, "Bonus ranks (raise T, absorb nothing).", 0)
    heroic = flag("Heroic: may soak, falls to -3.")
    stunned = flag("Already stunned: a defeat costs a rank.")
    out_of_action = flag("Already out of action: a BODY roll or KIA.")
    bod = whole(-3, 6, "BOD attribute level.", 0)
    soak_dice = whole(0, 30, "Soak dice (sum of the soak attributes).", 0)


class BlockSchema(Schema):
    """A block: a fresh roll of `dice` or a live pool, plus the shield's factor."""

    dice = JsonInteger(validate=validate.Range(0, 30), load_default=None, allow_none=True,
                       metadata={"description": "A fresh block roll."})
    pool = JsonInteger(validate=validate.Range(0, 60), load_default=None, allow_none=True,
                       metadata={"description": "A live block pool's successes."})
    factor = whole(0, 6, "Shield blocking factor.", 0)


def _damage_fields() -> dict[str, fields.Field]:
    return {
        "damage_dice": whole(0, 30, "Weapon dice.", 4),
        "strength": whole(-3, 6, "STR dice.", 0),
        "bonus_dice": whole(-30, 30, "Other dice (Xposures, InClose -2, ...).", 0),
        "armor_resist": whole(0, 10, "Armor Resist.", 0),
        "block": fields.Nested(BlockSchema, load_default=None, allow_none=True,
                               metadata={"description": "The target's block."}),
        "domain": fields.String(load_default="physical", validate=validate.OneOf(["physical", "mental"]),
                                metadata={"description": "physical or mental."}),
        "target": fields.Nested(TargetSchema, required=True, metadata={"description": "The target."}),
        "soak": flag("The (heroic) target soaks with `target.soak_dice`."),
    }


DAMAGE_ROLES = {"damage": "Damage faces.", "block": "Block faces.", "soak": "Soak faces.",
                "body": "BODY roll faces (a target already out of action)."}
DamageRequestSchema = _schema("SmotingDamageRequestSchema", "A landed blow's damage.", {
    **_damage_fields(), "extra_successes": whole(0, 20, "Extra successes spent on damage (+2 dice each).", 0),
    **request_fields(DAMAGE_ROLES)}, {"damage_dice": 4, "extra_successes": 2, "target": {"rank": 6}, "seed": 1})


class DamageRollSchema(Schema):
    """The damage as rolled."""

    damage_faces = fields.List(JsonInteger(), required=True, metadata={"description": "Damage faces."})
    damage = JsonInteger(required=True, metadata={"description": "Successes rolled."})
    soaked = JsonInteger(required=True, metadata={"description": "Soak successes."})
    final = JsonInteger(required=True, metadata={"description": "Damage after soak."})
    band = fields.String(required=True, metadata={"description": "One of the probabilities keys."})
    stunned = JsonBoolean(required=True, metadata={"description": "The stun was taken instead of the defeat."})
    rank_lost = JsonBoolean(required=True, metadata={"description": "A real rank was marked lost."})
    trauma = JsonBoolean(required=True, metadata={"description": "An injury roll is due."})
    out_of_action = JsonBoolean(required=True, metadata={"description": "The target is out of action."})
    killed = JsonBoolean(required=True, metadata={"description": "The target is killed (KIA)."})


DamageSchema = _schema("SmotingDamageSchema", "Damage bands, the damage table and a roll.", {
    "pool": JsonInteger(required=True, metadata={"description": "Damage dice rolled (before a block)."}),
    "threshold": JsonInteger(required=True, metadata={"description": "T = rank + bonus ranks."}),
    "probabilities": odds_field("Exclusive bands.", "no_damage, defeat, trauma, killing_blow, massive (mental: "
                                                    "panicked, crushed; out of action: survives, kia)"),
    "probabilities_exact": exact_field("Exclusive bands."),
    "damage_probabilities": odds_field("P(final damage = k).", "\"0\"..\"2*pool\", more"),
    "damage_probabilities_exact": exact_field("P(final damage = k)."),
    "roll": fields.Nested(DamageRollSchema, required=True, allow_none=True,
                          metadata={"description": "The damage as rolled (null without `seed` or `rolls`)."}),
    **answer_fields()}, {"pool": 8, "threshold": 6})

AttackRequestSchema = _schema("SmotingAttackRequestSchema", "One whole attack: to-hit then damage.", {
    **_hit_fields(), **_damage_fields(), **request_fields({**ATTACK_ROLES, **DAMAGE_ROLES})},
    {"attack_dice": 5, "damage_dice": 4, "target": {"rank": 6}, "seed": 3})


class AttackRollSchema(Schema):
    """The attack as rolled."""

    attack_successes = JsonInteger(required=True, metadata={"description": "Attack successes."})
    extra_successes = JsonInteger(required=True, metadata={"description": "Net successes beyond the first."})
    damage_pool = JsonInteger(required=True, allow_none=True, metadata={"description": "Damage dice rolled."})
    damage = JsonInteger(required=True, allow_none=True, metadata={"description": "Final damage."})
    band = fields.String(required=True, metadata={"description": "One of the probabilities keys."})
    stunned = JsonBoolean(required=True, metadata={"description": "Stun taken instead of a defeat."})
    rank_lost = JsonBoolean(required=True, metadata={"description": "A real rank was lost."})
    trauma = JsonBoolean(required=True, metadata={"description": "An injury roll is due."})
    out_of_action = JsonBoolean(required=True, metadata={"description": "Out of action."})
    killed = JsonBoolean(required=True, metadata={"description": "Killed."})
    outcome = fields.String(required=True, metadata={"description": "defender_specials, miss or hit."})


AttackSchema = _schema("SmotingAttackSchema", "The whole attack's odds and roll.", {
    **chance_fields(),
    "probabilities": odds_field("Exclusive outcomes.", "defender_specials, miss, no_damage, defeat, trauma, "
                                                       "killing_blow, massive"),
    "probabilities_exact": exact_field("Exclusive outcomes."),
    "roll": fields.Nested(AttackRollSchema, required=True, allow_none=True,
                          metadata={"description": "The whole attack as rolled (null without `seed` or `rolls`)."}),
    **answer_fields()}, {"chance": 0.868})

InjuryRequestSchema = _schema("SmotingInjuryRequestSchema", "An injury roll.", {
    "killing_blow": flag("+1 on the effect roll."),
    **request_fields({"location": "4 faces of the location roll.", "effect": "1 face of the effect roll."})},
    {"killing_blow": False, "rolls": {"location": [4, 4, 4, 6], "effect": [3]}})


class InjuryRollSchema(Schema):
    """The injury as rolled."""

    faces = fields.List(JsonInteger(), required=True, metadata={"description": "The 4d6."})
    face = JsonInteger(required=True, metadata={"description": "The deciding face."})
    location = fields.String(required=True, metadata={"description": "Where the injury is."})
    shift = JsonInteger(required=True, metadata={"description": "Areas the attacker may shift it (0-2)."})
    effect_roll = JsonInteger(required=True, metadata={"description": "Effect row (1d6, +1 killing blow)."})
    effect = fields.String(required=True, metadata={"description": "The effect."})


InjurySchema = _schema("SmotingInjurySchema", "Injury odds and roll.", {
    "face_probabilities": odds_field("P(each face decides).", "\"1\"..\"6\""),
    "face_probabilities_exact": exact_field("P(each face decides)."),
    "location_probabilities": odds_field("P(each location)."),
    "location_probabilities_exact": exact_field("P(each location)."),
    "shift_probabilities": odds_field("P(shift).", "\"0\", \"1\", \"2\""),
    "shift_probabilities_exact": exact_field("P(shift)."),
    "roll": fields.Nested(InjuryRollSchema, required=True, allow_none=True,
                          metadata={"description": "The injury location and effect as rolled (null without "
                                                   "`seed` or `rolls`)."}),
    **answer_fields()})

ATTRIBUTE_NAMES = ("str", "agl", "dex", "bod", "will", "spirit")
AttributesSchema = _schema("SmotingAttributesSchema", "Extra dice per attribute (missing keys are 0).",
                           {name: whole(-3, 6, f"{name.upper()} level.", 0) for name in ATTRIBUTE_NAMES})
GROUPS = ["none", "mob", "crowd", "horde", "company", "unit"]

CombatantRequestSchema = _schema("SmotingCombatantRequestSchema", "A combatant's ranks and attributes.", {
    "id": fields.String(validate=validate.Length(1, 64), metadata={"description": "Ignored."}),
    "side": fields.String(validate=validate.Length(1, 64), metadata={"description": "Ignored."}),
    "physical_rank": whole(1, 9, "Starting real physical rank.", required=True),
    "mental_rank": whole(1, 9, "Starting real mental rank.", required=True),
    "bonus_physical": whole(0, 9, "Bonus physical ranks.", 0),
    "bonus_mental": whole(0, 9, "Bonus mental ranks.", 0),
    "lost_physical": whole(0, 30, "Physical ranks marked lost.", 0),
    "lost_mental": whole(0, 30, "Mental ranks marked lost.", 0),
    "heroic": flag("Heroic (soaks, falls to -3)."),
    "attributes": fields.Nested(AttributesSchema, load_default=dict, metadata={"description": "Attributes."}),
    "group": fields.String(load_default="none", validate=validate.OneOf(GROUPS),
                           metadata={"description": "Mob, crowd, horde, company or unit."}),
    "movement_dice": whole(0, 12, "Movement dice before AGL.", 4),
    "action_dice_modifier": whole(-8, 8, "Added to the base action dice.", 0),
    "options": options_field()}, {"physical_rank": 4, "mental_rank": 3, "heroic": True,
                                  "attributes": {"str": 1, "agl": 2}})


def _pair(text: str) -> fields.Dict:
    return fields.Dict(keys=fields.String(), values=JsonInteger(), required=True, metadata={"description": text})


class ActionDiceSchema(Schema):
    """Action dice rolled and kept."""

    rolled = JsonInteger(required=True, metadata={"description": "Dice rolled."})
    kept = JsonInteger(required=True, metadata={"description": "Dice kept (at most 8)."})
    reroll_ones = JsonBoolean(required=True, metadata={"description": "The count was raised to 1: re-roll 1s."})


CombatantSchema = _schema("SmotingDerivedValuesSchema", "A combatant's derived values.", {
    "action_dice": fields.Nested(ActionDiceSchema, required=True,
                                 metadata={"description": "Action dice: rolled, kept and whether 1s are "
                                                          "re-rolled."}),
    "soak_dice": _pair("Soak dice {physical, mental}."),
    "movement_pool": JsonInteger(required=True, metadata={"description": "Movement dice + AGL."}),
    "thresholds": _pair("T per domain."),
    "defeats_to_out_of_action": _pair("Direct single defeats to OoA per domain."),
    "crossover_mental_losses_at": fields.List(JsonInteger(), required=True,
                                              metadata={"description": "Direct physical losses causing a "
                                                                       "mental crossover loss."}),
    "group_bonus": _pair("{physical, mental, dice, attacks}."),
    "trace": trace_field()})

MOVEMENT_FIELDS = {
    "agl": whole(-3, 6, "AGL level.", 0),
    "movement_dice": whole(0, 12, "Movement dice before AGL.", 4),
    "mr": whole(0, 10, "Zones a round.", 1),
    "modifiers": whole(-30, 30, "Other dice.", 0),
}
MovementRequestSchema = _schema("SmotingMovementRequestSchema", "A mover's pool and speed.", {
    **MOVEMENT_FIELDS, "running": flag("+1 die."), "stunned": flag("-2 dice."), "options": options_field()},
    {"agl": 1, "mr": 1, "running": False})
MovementQuerySchema = _schema("SmotingMovementQuerySchema", "A mover's pool and speed (query string).", {
    **{name: fields.Integer(load_default=field.load_default, validate=field.validate,
                            metadata=field.metadata) for name, field in MOVEMENT_FIELDS.items()}, "running": fields.Boolean(load_default=False, metadata={"description": "+1 die."}),
    "stunned": fields.Boolean(load_default=False, metadata={"description": "-2 dice."})})


class BattleMoveSchema(Schema):
    """A battle or trivial move."""

    roll_needed = JsonBoolean(required=True, metadata={"description": "Pool below 4 dice."})
    success = JsonFloat(required=True, metadata={"description": "P(the move succeeds)."})


MovementSchema = _schema("SmotingMovementSchema", "Zone and battle moves and speeds.", {
    "pool": JsonInteger(required=True, metadata={"description": "Movement dice rolled."}),
    "zone_move": odds_field("Zone move outcomes.", "arrive, boundary, stay"),
    "zone_move_exact": exact_field("Zone move outcomes."),
    "battle_move": fields.Nested(BattleMoveSchema, required=True,
                                 metadata={"description": "A battle or trivial move: whether it is rolled, and "
                                                          "P(success)."}),
    "battle_move_exact": fields.Dict(keys=fields.String(), values=fields.String(), required=True,
                                     metadata={"description": "{success} as a fraction."}),
    "zones_per_round": JsonInteger(required=True, metadata={"description": "MR."}),
    **{name: JsonFloat(required=True, metadata={"description": name.replace("_", " ")})
       for name in ("metres_per_round", "metres_per_second", "km_per_hour")},
    **{f"{name}_exact": fields.String(required=True, metadata={"description": "Exact."})
       for name in ("metres_per_round", "metres_per_second", "km_per_hour")},
    "trace": trace_field()})
