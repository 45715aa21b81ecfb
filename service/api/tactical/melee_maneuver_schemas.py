"""Schemas of the tactical melee maneuvers: combinations (F38), body checks, side-swipes and tackles (F39,
F40) and intimidation (F41); shapes and bounds only, the rules live in the domain."""
from __future__ import annotations

from marshmallow import Schema, fields, validate

from service.api.kit.fields import bounded
from service.api.kit.schemas import JsonBoolean, JsonInteger, trace_field
from service.api.tactical.maneuver_fields import (
    SMALL,
    SPEED,
    answer_int,
    odds_schemas,
    progression_field,
    task_resolution_field,
)
from service.api.tactical.to_hit_schemas import SCORE


class CombinationRequestSchema(Schema):
    """Two attacks (or two defences) worked as one combination (F38), against a DV (or an attack's AV)."""

    kind = fields.String(required=True, validate=validate.OneOf(["in-concert", "separate", "defensive"]),
                         metadata={"description": "in-concert: one roll, POT added; separate: each part rolls; "
                                                  "defensive: two defences against one attack."})
    values = fields.List(JsonInteger(validate=SCORE), required=True, validate=validate.Length(2, 2),
                         metadata={"description": "The two parts' AVs (defensive: DVs), the lead first."})
    combination_sl = bounded(validate.Range(0, 1_000), "The Combination skill SL.")
    against = bounded(SCORE, "The DV the attack meets (defensive: the attacker's AV).")
    pots = fields.List(JsonInteger(validate=validate.Range(0, 100_000)), validate=validate.Length(2, 2),
                       metadata={"description": "In concert only: the POT of each blow, added before armor."})
    initiative = JsonInteger(validate=SCORE, metadata={"description": "Attack/defence combination: the "
                                                                      "combiner's Initiative (with `foe_initiative`)."})
    foe_initiative = JsonInteger(validate=SCORE, metadata={"description": "The foe's Initiative."})
    task_resolution = task_resolution_field()


class CombinationSchema(Schema):
    """The value each roll of the combination uses, its chance, and the combined POT in concert."""

    values = fields.List(JsonInteger(), required=True, metadata={"description": "AV (or DV) of each roll made."})
    cap = answer_int("The cap: both parts' values added.")
    capped = JsonBoolean(required=True, metadata={"description": "True when the cap cut the bonus."})
    chances = fields.List(JsonInteger(), required=True, metadata={"description": "Percent chance of each roll "
                                                                                 "(defensive: the attack's chance)."})
    chances_exact = fields.List(fields.String(), required=True, metadata={"description": "Exact fractions."})
    pot = answer_int("In concert: both blows' POT added, before armor.", nullable=True)
    order = fields.List(fields.String(), required=True, allow_none=True,
                        metadata={"description": "Attack/defence combination: the order the halves resolve in."})
    trace = trace_field()


class BodySchema(Schema):
    """One party to a body check, side-swipe or tackle."""

    agl_mod = bounded(SCORE, "AGL attribute modifier.")
    modified_sta = bounded(SCORE, "Modified STA (size).")
    str_mod = bounded(SCORE, "STR attribute modifier.")
    strength = bounded(SCORE, "STR score (footing check).")
    speed_mph = bounded(SPEED, "Speed in mph when moving.", 0)
    shield_size = bounded(SMALL, "Size of a shield borne (body check).", 0)
    armor_layers = bounded(SMALL, "Layers of armor worn (Progressive bonus on a body check).", 0)
    dodge = JsonInteger(validate=SCORE, metadata={"description": "Defender only: Dodge DV, to dodge instead of "
                                                                 "standing."})
    moving = JsonBoolean(load_default=False, metadata={"description": "Defender only: also moving (speeds add); implied by a speed_mph above 0."})


class BodyCheckRequestSchema(Schema):
    """A body check, side-swipe or tackle: both parties' numbers (F39, F40)."""

    kind = fields.String(load_default="body-check", validate=validate.OneOf(["body-check", "side-swipe", "tackle"]),
                         metadata={"description": "body-check, side-swipe or tackle."})
    attacker = fields.Nested(BodySchema, required=True, metadata={"description": "The one who charges in."})
    defender = fields.Nested(BodySchema, required=True, metadata={"description": "The one who stands or dodges."})
    task_resolution = task_resolution_field()
    progression = progression_field()


BODY_OUTCOMES = {"defender_bounced": "The attacker wins: the defender flies.",
                 "attacker_bounced": "The defender wins by the larger margin (after a Dodge: the attacker stumbles).",
                 "both_stop": "Both fail, or equal margins: both halt at close-melee distance."}
BodyOddsSchema, BodyOddsExactSchema = odds_schemas(
    "BodyOdds", BODY_OUTCOMES, ("Exclusive outcomes of the contested roll.", "The same outcomes as exact fractions."),
    dict.fromkeys(BODY_OUTCOMES, "Exact fraction."))


class BodyCheckSchema(Schema):
    """Both sides' values, the contest odds, bounce distances and the footing check."""

    attacker_av = answer_int("The attacker's AV (F39).")
    defender_dv = answer_int("The defender's value: the same sum, or Dodge + the mSTA bonus.")
    defence = fields.String(required=True, metadata={"description": "stand or dodge."})
    attacker_chance = answer_int("Attacker's percent chance in the contest.")
    defender_chance = answer_int("Defender's percent chance in the contest.")
    probabilities = fields.Nested(BodyOddsSchema, required=True, metadata={"description": "Exclusive outcomes."})
    probabilities_exact = fields.Nested(BodyOddsExactSchema, required=True, metadata={"description": "Exact."})
    defender_bounce_feet = answer_int("Feet the defender flies when he loses: the impact speed (the attacker's "
                                      "mph, + the defender's when both move) + the attacker's mSTA over his "
                                      "(F40, RULINGS 20).")
    attacker_bounce_feet = answer_int("Feet the attacker flies when the defender wins by the larger margin: the "
                                      "same impact speed + the defender's mSTA over his (F40, RULINGS 20); 0 "
                                      "against a Dodge, which bounces nobody.")
    footing_dv = answer_int("DV of the AGL check to keep one's feet after a successful body check.")
    footing_checks = fields.List(fields.String(), required=True,
                                 metadata={"description": "Who must make that AGL check."})
    trace = trace_field()


class IntimidationRequestSchema(Schema):
    """A Presence attack joined to a blow that put POT through (F41)."""

    presence_av = bounded(SCORE, "The attacker's Presence (Intimidate) AV.")
    intimidate_sl = bounded(validate.Range(0, 1_000), "The attacker's Intimidate SL (for the guard drop, F41).")
    pot_through = bounded(validate.Range(1, 100_000), "POT (or damage) that got through to the target; at least 1.")
    reprisal = JsonBoolean(load_default=False, metadata={"description": "The blow was a Reprisal: the POT bonus "
                                                                        "becomes Progressive."})
    target_dv = bounded(SCORE, "The target's base DV to resist.")
    target_presence_sl = bounded(validate.Range(0, 1_000), "The target's highest Presence SL.", 0)
    target_hrt_mod = bounded(SCORE, "The target's HRT attribute modifier.", 0)
    allies_standing = bounded(validate.Range(0, 10_000), "Fellows still standing on the target's side.", 0)
    allies_fallen = bounded(validate.Range(0, 10_000), "Fellows fallen on the target's side.", 0)
    equal_values = fields.String(load_default="target", validate=validate.OneOf(["target", "attacker"]),
                                 metadata={"description": "When AV equals DV, whose side it counts for ([DEF])."})
    task_resolution = task_resolution_field()
    progression = progression_field()


INTIMIDATION_OUTCOMES = {"backs_off": "Success, DV above AV: backs off to retreat.",
                         "surrenders": "Success, AV above DV: breaks and surrenders.",
                         "unaffected": "Failure, DV above AV: no effect.",
                         "guard_drops": "Failure, AV above DV: DV drops next CS (F41)."}
IntimidationOddsSchema, IntimidationOddsExactSchema = odds_schemas(
    "IntimidationOdds", INTIMIDATION_OUTCOMES,
    ("Exclusive outcomes of the intimidation.", "The same outcomes as exact fractions."),
    dict.fromkeys(INTIMIDATION_OUTCOMES, "Exact fraction."))


class IntimidationSchema(Schema):
    """The contest's values, the odds of each outcome, and the follow-up DV drop."""

    av = answer_int("Presence AV + POT bonus.")
    dv = answer_int("Target DV + Presence SL + standing - fallen.")
    attacker_chance = answer_int("Attacker's percent chance in the contest.")
    target_chance = answer_int("Target's percent chance in the contest.")
    probabilities = fields.Nested(IntimidationOddsSchema, required=True, metadata={"description": "Outcomes."})
    probabilities_exact = fields.Nested(IntimidationOddsExactSchema, required=True, metadata={"description": "Exact."})
    guard_drop = answer_int("On guard-drops: the DV the target loses against this attacker next CS (F41).")
    surrender_check_dv = answer_int("On surrenders: the HRT check DV (the POT that got through).")
    trace = trace_field()
