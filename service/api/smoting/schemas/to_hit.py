"""Schemas of the smoting /to-hit calculator (smoting.md section 12): an attack pool against a dodge, parry
or live defence pool; shapes and bounds only."""
from __future__ import annotations

from marshmallow import Schema, fields, validate

from service.api.kit.fields import flag, whole
from service.api.kit.schemas import JsonBoolean, JsonInteger
from service.api.smoting.fields import (
    POOL,
    answer_fields,
    chance_fields,
    exact_field,
    named_schema,
    odds_field,
    request_fields,
)

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


def hit_fields() -> dict[str, fields.Field]:
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


ToHitRequestSchema = named_schema("SmotingToHitRequestSchema", "An attack pool against a defence.",
                             {**hit_fields(), **request_fields(ATTACK_ROLES)},
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


ToHitSchema = named_schema("SmotingToHitSchema", "The chance an attack lands, and its roll.", {
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
