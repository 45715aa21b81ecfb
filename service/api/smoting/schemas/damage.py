"""Schemas of the smoting /damage and /attack calculators (smoting.md section 12): a landed blow against
block and soak, and a whole attack from pool to damage band; shapes and bounds only."""
from __future__ import annotations

from marshmallow import Schema, fields, validate

from service.api.kit.fields import flag, whole
from service.api.kit.schemas import JsonBoolean, JsonInteger
from service.api.smoting.fields import (
    answer_fields,
    chance_fields,
    exact_field,
    named_schema,
    odds_field,
    request_fields,
)
from service.api.smoting.schemas.to_hit import ATTACK_ROLES, hit_fields


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


def damage_fields() -> dict[str, fields.Field]:
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


DamageRequestSchema = named_schema("SmotingDamageRequestSchema", "A landed blow's damage.", {
    **damage_fields(), "extra_successes": whole(0, 20, "Extra successes spent on damage (+2 dice each).", 0),
    **request_fields(DAMAGE_ROLES)}, {"damage_dice": 4, "extra_successes": 2, "target": {"rank": 6}, "seed": 1})


class DamageRollSchema(Schema):
    """The damage as rolled."""

    damage_pool = JsonInteger(required=True, metadata={"description": "Damage dice rolled, after Armor Resist, "
                                                                      "the block's successes and the shield factor "
                                                                      "(RULINGS 22; as /attack's roll.damage_pool)."})
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


DamageSchema = named_schema("SmotingDamageSchema", "Damage bands, the damage table and a roll.", {
    "pool": JsonInteger(required=True, metadata={"description": "Damage dice rolled (RULINGS 22): weapon + STR "
                                                                "+ 2 per extra success + bonus - Armor Resist - a "
                                                                "live block's successes - the shield factor, never "
                                                                "below 0. A fresh block roll's successes come off "
                                                                "too, once rolled: `roll.damage_pool`."}),
    "threshold": JsonInteger(required=True, metadata={"description": "T = rank + bonus ranks."}),
    "probabilities": odds_field("Exclusive bands.", "no_damage, defeat, trauma, killing_blow, massive (mental: "
                                                    "panicked, crushed; out of action: survives, kia)"),
    "probabilities_exact": exact_field("Exclusive bands."),
    "damage_probabilities": odds_field("P(final damage = k).", "\"0\"..\"2*n\" (n: the dice before the "
                                                               "block), more"),
    "damage_probabilities_exact": exact_field("P(final damage = k)."),
    "roll": fields.Nested(DamageRollSchema, required=True, allow_none=True,
                          metadata={"description": "The damage as rolled (null without `seed` or `rolls`)."}),
    **answer_fields()}, {"pool": 8, "threshold": 6})


AttackRequestSchema = named_schema("SmotingAttackRequestSchema", "One whole attack: to-hit then damage.", {
    **hit_fields(), **damage_fields(), **request_fields({**ATTACK_ROLES, **DAMAGE_ROLES})},
    {"attack_dice": 5, "damage_dice": 4, "target": {"rank": 6}, "seed": 3})


class AttackRollSchema(Schema):
    """The attack as rolled."""

    attack_successes = JsonInteger(required=True, metadata={"description": "Attack successes."})
    extra_successes = JsonInteger(required=True, metadata={"description": "Net successes beyond the first."})
    damage_pool = JsonInteger(required=True, allow_none=True, metadata={"description": "Damage dice rolled, after "
                                                                                    "Armor Resist, the block and "
                                                                                    "the shield factor (RULINGS "
                                                                                    "22)."})
    damage = JsonInteger(required=True, allow_none=True, metadata={"description": "Final damage."})
    band = fields.String(required=True, metadata={"description": "One of the probabilities keys."})
    stunned = JsonBoolean(required=True, metadata={"description": "Stun taken instead of a defeat."})
    rank_lost = JsonBoolean(required=True, metadata={"description": "A real rank was lost."})
    trauma = JsonBoolean(required=True, metadata={"description": "An injury roll is due."})
    out_of_action = JsonBoolean(required=True, metadata={"description": "Out of action."})
    killed = JsonBoolean(required=True, metadata={"description": "Killed."})
    outcome = fields.String(required=True, metadata={"description": "defender_specials, miss or hit."})


AttackSchema = named_schema("SmotingAttackSchema", "The whole attack's odds and roll.", {
    **chance_fields(),
    "probabilities": odds_field("Exclusive outcomes.", "defender_specials, miss, no_damage, defeat, trauma, "
                                                       "killing_blow, massive"),
    "probabilities_exact": exact_field("Exclusive outcomes."),
    "roll": fields.Nested(AttackRollSchema, required=True, allow_none=True,
                          metadata={"description": "The whole attack as rolled (null without `seed` or `rolls`)."}),
    **answer_fields()}, {"chance": 0.868})
