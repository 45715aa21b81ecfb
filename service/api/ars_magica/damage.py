"""POST /v1/ars-magica/damage: a damage roll against a soak roll, in body (or brawling fatigue) levels."""
from __future__ import annotations

from functools import lru_cache
from typing import Any

from marshmallow import Schema, fields, validate

from service.api.ars_magica import answers
from service.api.ars_magica.common import (
    botch_dice_schema,
    exact_text,
    options_field,
    outcome_schema,
    probability,
    rolls_schema,
)
from service.api.http.blueprint import Blueprint
from service.api.kit.fields import choice, flag, whole
from service.api.kit.receipts import receipt_answer_field, receipt_field, receipted
from service.api.kit.schemas import Strict, seed_field
from service.rules.ars_magica import damage
from service.rules.ars_magica.options import LOCATIONS
from service.rules.errors import Contradiction
from service.rules.trace import Step

blp = Blueprint("ars-magica-damage", __name__, description="Ars Magica: damage against soak in body levels "
                "(seed 002, 3. Melee, EXCEPTIONAL BLOW TABLE, Brawling).")
ROLES = {"damage": "Damage stress die.", "soak": "Soak stress die.", "damage_botch": "Botch dice of the damage "
         "roll.", "soak_botch": "Botch dice of the soak roll."}
SEVERITIES = ("none", "minor", "major", "grave")


class DamageRequestSchema(Strict):
    """A landed blow: damage total against soak total, and how it landed."""
    receipt = receipt_field()

    damage = whole(-50, 100, "Damage total.", required=True)
    soak = whole(-50, 100, "Soak total, armor included.", required=True)
    protection = whole(0, 50, "The armor part of `soak` (dropped on an exceptional blow).", 0)
    exceptional = flag("The blow was exceptional: soak without armor, and a severity.")
    location = choice(LOCATIONS, "Where an exceptional blow lands (required when `exceptional`).")
    all_out = flag("All-out attack: the margin (or the levels, option `all_out_doubles`) is doubled.")
    brawling = flag("Brawling: levels alternate fatigue, body, fatigue...")
    mounted_charge = flag("Mounted charge after at least 10 yards: +6 damage.")
    from_behind = flag("Attack from behind: +3 damage.")
    botch_dice = botch_dice_schema("DamageBotchDiceSchema", ("damage", "soak"))
    options = options_field()
    seed = seed_field()
    rolls = rolls_schema("DamageRollsSchema", ROLES)


class DamageRollSchema(Schema):
    """The blow as rolled."""

    damage_roll = fields.Integer(required=True, metadata={"description": "Damage total + stress (0 when botched)."})
    soak_roll = fields.Integer(required=True, metadata={"description": "Soak total + stress (0 when botched)."})
    margin = fields.Integer(required=True, metadata={"description": "damage_roll - soak_roll, before any doubling."})
    levels = fields.Integer(required=True, metadata={"description": "Levels lost after any doubling."})
    body_levels = fields.Integer(required=True, metadata={"description": "Body levels of `levels`."})
    fatigue_levels = fields.Integer(required=True, metadata={"description": "Fatigue levels (brawling only)."})
    severity = fields.String(required=True, allow_none=True, validate=validate.OneOf(SEVERITIES),
                             metadata={"description": "Exceptional blows only."})
    effect = fields.String(required=True, allow_none=True,
                           metadata={"description": "The exceptional blow's effect (option `exceptional_effects`)."})
    damage_botches = fields.Integer(required=True, metadata={"description": "Botch dice showing 0 (damage)."})
    soak_botches = fields.Integer(required=True, metadata={"description": "Botch dice showing 0 (soak)."})


KEYS = damage.KEYS


class DamageSchema(answers.CommonAnswerSchema):
    """Levels lost, exactly, and the roll when one was made."""
    receipt = receipt_answer_field()

    damage_total = fields.Integer(required=True, metadata={"description": "With +6 mounted charge, +3 from behind."})
    soak_total = fields.Integer(required=True, metadata={"description": "Less `protection` on an exceptional blow."})
    chance = probability("P(at least one level lost).", required=True)
    chance_exact = exact_text("P(at least one level lost)", required=True)
    probabilities = fields.Nested(outcome_schema("LevelOddsSchema", KEYS, False, "P(n levels lost), n = 0..5, 6+."),
                                  required=True, metadata={"description": "P(n levels lost), n = 0..5, 6+; "
                                                                          "they add up to 1."})
    probabilities_exact = fields.Nested(outcome_schema("LevelOddsExactSchema", KEYS, True,
                                                       "P(n levels lost), exact."), required=True,
                                        metadata={"description": "The same, as exact fractions."})
    severity_probabilities = fields.Nested(outcome_schema("SeverityOddsSchema", SEVERITIES, False,
                                                          "Severity of an exceptional blow."),
                                           required=True, allow_none=True,
                                           metadata={"description": "P(none, minor, major, grave) of an exceptional "
                                                                    "blow (null unless `exceptional`)."})
    severity_probabilities_exact = fields.Nested(outcome_schema("SeverityOddsExactSchema", SEVERITIES, True,
                                                                "Severity of an exceptional blow, exact."),
                                                 required=True, allow_none=True,
                                                 metadata={"description": "The same, as exact fractions."})
    roll = fields.Nested(DamageRollSchema, required=True, allow_none=True,
                         metadata={"description": "The roll (null unless `seed` or `rolls` was sent)."})


EXAMPLE_REQUEST = {"damage": 14, "soak": 8, "protection": 4, "seed": 11}
EXAMPLE_ANSWER = {"damage_total": 14, "soak_total": 8, "chance": 0.69, "chance_exact": "...",
                  "probabilities": {"0": 0.31, "1": 0.3, "2": 0.23, "3": 0.1, "4": 0.04, "5": 0.01, "6+": 0.01},
                  "probabilities_exact": {"0": "...", "1": "...", "2": "...", "3": "...", "4": "...", "5": "...",
                                          "6+": "..."},
                  "severity_probabilities": None, "severity_probabilities_exact": None,
                  "roll": {"damage_roll": 21, "soak_roll": 12, "margin": 9, "levels": 2, "body_levels": 2,
                           "fatigue_levels": 0, "severity": None, "effect": None, "damage_botches": 0,
                           "soak_botches": 0},
                  "dice": [{"role": "damage", "expression": "1d10", "dice": [7], "total": 7, "supplied": False},
                           {"role": "soak", "expression": "1d10", "dice": [4], "total": 4, "supplied": False}],
                  "seed": 11, "assumptions": ["stress_die"],
                  "trace": [{"rule": "3. Melee", "detail": "damage 14 + stress against soak 8 + stress", "value": 0.69}]}


@blp.post("/damage")
@blp.arguments(DamageRequestSchema, example=EXAMPLE_REQUEST)
@blp.response(200, DamageSchema, example=EXAMPLE_ANSWER)
@blp.alt_response(422, response="UNPROCESSABLE_ENTITY")
@blp.doc(operationId="arsMagicaDamage")
@receipted
def damage_view(body: dict) -> dict:
    """Body levels a landed blow takes off: damage roll against soak roll, exactly; with a roll."""
    if body["exceptional"] and body.get("location") is None:
        raise Contradiction("an exceptional blow needs a `location`", ("location",))
    opts = answers.options(body)
    total = body["damage"] + 6 * body["mounted_charge"] + 3 * body["from_behind"]
    soak = body["soak"] - (body["protection"] if body["exceptional"] else 0)
    botch = {k: body["botch_dice"].get(k, opts["botch_dice"]) for k in ("damage", "soak")}
    odds = damage.damage_odds(total, soak, botch, body["all_out"], body["exceptional"], opts)
    dice, roll = answers.dice_for(body), None
    if dice is not None:
        blow = damage.roll_damage(total, soak, botch, dice, opts, body["all_out"], body["brawling"],
                                  body.get("location") if body["exceptional"] else None)
        answers.refuse_unused(dice, [("damage", blow.damage_die, "damage_botch"),
                                     ("soak", blow.soak_die, "soak_botch")])
        roll = _roll(blow)
    steps = [*_total_steps(total, soak, body["exceptional"]), *odds.steps]
    return {"damage_total": total, "soak_total": soak, **answers.exact_fields(odds, ODDS_FIELDS), "roll": roll,
            **answers.common(dice, steps, _assumptions(body))}


ODDS_FIELDS = (("chance", "chance"), ("probabilities", "probabilities"), ("severity_probabilities", "severity"))


@lru_cache(maxsize=4096)
def _total_steps(total: int, soak: int, exceptional: bool) -> tuple[Step, Step]:
    """The damage and soak total steps (frozen, so one pair serves every answer with these totals)."""
    return (Step("3. Melee", "damage total (+6 mounted charge, +3 from behind)", total),
            Step("EXCEPTIONAL BLOW TABLE" if exceptional else "3. Melee",
                 "soak total" + (" without armor" if exceptional else ""), soak))


def _assumptions(body: dict) -> list[str]:
    found = ["stress_die", "botch_dice", "botched_total"]
    if body["all_out"]:
        found.append("all_out_doubles")
    if body["exceptional"]:
        found.append("exceptional_effects")
    return found


def _roll(blow: damage.Blow) -> dict[str, Any]:
    return {"damage_roll": blow.damage_roll, "soak_roll": blow.soak_roll, "margin": blow.margin,
            "levels": blow.levels, "body_levels": blow.body_levels, "fatigue_levels": blow.fatigue_levels,
            "severity": blow.severity, "effect": blow.effect, "damage_botches": blow.damage_die.botches,
            "soak_botches": blow.soak_die.botches}
