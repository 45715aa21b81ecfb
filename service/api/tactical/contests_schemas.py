"""Schemas of /v1/tactical/initiative, /surprise and /contest: shapes only, bounded numbers."""
from __future__ import annotations

from marshmallow import Schema, fields, validate

from service.api.schemas import JsonBoolean, JsonFloat, JsonInteger, RollSchema, seed_field, trace_field

MOD = validate.Range(-100, 100)
ATTRIBUTE = validate.Range(-100, 1000)
CHANCE = validate.Range(-1000, 1000)
FACE = validate.Range(1, 100)
OUTCOMES = ("none", "not-surprised", "stunned", "overwhelmed")


def _int(default: int | None = None, rng: validate.Range = MOD, **meta: str) -> fields.Integer:
    return JsonInteger(load_default=default, validate=rng, metadata=meta)


def _chance() -> fields.Integer:
    return JsonInteger(required=True, validate=CHANCE,
                          metadata={"description": "Percent chance of the check; outside 1..100 it always "
                                                   "fails or succeeds, but the margin keeps the value."})


# --- initiative ------------------------------------------------------------------------------

class CombatantSchema(Schema):
    id = fields.String(required=True, validate=validate.Length(1, 64), metadata={"description": "Unique id."})
    awa_mod = _int(0, description="AWA attribute modifier.")
    hrt_mod = _int(0, description="HRT attribute modifier.")
    agl = _int(0, ATTRIBUTE, description="AGL score (first tie-break).")
    hrt = _int(0, ATTRIBUTE, description="HRT score (second tie-break).")
    actions = _int(1, validate.Range(0, 10), description="Actions this CS (Rate of Action).")
    stun_penalty = _int(0, validate.Range(0, 1000), description="Stun-by-pain penalty.")
    roll = JsonInteger(load_default=None, validate=validate.Range(1, 10),
                          metadata={"description": "The d10 face, if rolled at the table."})


class InitiativeRequestSchema(Schema):
    combatants = fields.List(fields.Nested(CombatantSchema), required=True, validate=validate.Length(1, 200))
    seed = seed_field()
    tie_break = fields.String(load_default="alphabetical", validate=validate.OneOf(["alphabetical", "coin"]),
                              metadata={"description": "Last tie-break after AGL and HRT (RULINGS 17)."})
    pass_order = fields.String(load_default="passes", validate=validate.OneOf(["passes", "extra-first"]),
                               metadata={"description": "Order of several actions (A6)."})


class PlacedSchema(Schema):
    id = fields.String(required=True)
    roll = JsonInteger(required=True, metadata={"description": "The d10 face."})
    initiative = JsonInteger(required=True, metadata={"description": "The Initiative score."})
    dice = fields.Nested(RollSchema, required=True)
    actions = JsonInteger(required=True)
    simultaneous = JsonBoolean(required=True, metadata={"description": "Tied to the last tie-break."})


class InitiativeSchema(Schema):
    """The roster in order of play, the passes of actions, and first-action odds for two."""

    roster = fields.List(fields.Nested(PlacedSchema), required=True)
    passes = fields.List(fields.List(fields.String()), required=True)
    first_probabilities = fields.Dict(keys=fields.String(), values=JsonFloat(), allow_none=True,
                                      required=True)
    first_probabilities_exact = fields.Dict(keys=fields.String(), values=fields.String(), allow_none=True,
                                            required=True)
    seed = JsonInteger(required=True)
    trace = trace_field()


# --- surprise --------------------------------------------------------------------------------

class AggressorSchema(Schema):
    chance = _chance()


class TargetSchema(Schema):
    chance = _chance()
    dv = JsonInteger(validate=validate.Range(0, 10_000),
                        metadata={"description": "DV the Surprise check was made against (for recovery)."})


class SurpriseRollsSchema(Schema):
    aggressor = JsonInteger(validate=FACE)
    target = JsonInteger(validate=FACE)


class SpringerSchema(Schema):
    chm_mod = _int(0, description="CHM attribute modifier.")
    hrt_mod = _int(0, description="HRT attribute modifier.")
    modified_sta = _int(20, validate.Range(0, 1000), description="Modified STA (size).")


class DvFromSchema(Schema):
    base_dv = JsonInteger(required=True, validate=validate.Range(-1000, 1000))
    springers = fields.List(fields.Nested(SpringerSchema), required=True, validate=validate.Length(1, 200))


class SurpriseRequestSchema(Schema):
    aggressor = fields.Nested(AggressorSchema, metadata={"description": "Leave out for a mechanical trap."})
    target = fields.Nested(TargetSchema, required=True)
    rolls = fields.Nested(SurpriseRollsSchema, load_default=dict)
    seed = seed_field()
    trap = JsonBoolean(load_default=False, metadata={"description": "A mechanical trap: simple roll."})
    dv_from = fields.Nested(DvFromSchema, metadata={"description": "Compute the Surprise DV (F7)."})


OutcomeFloats = Schema.from_dict({o: JsonFloat(required=True) for o in OUTCOMES}, name="SurpriseOdds")
OutcomeStrings = Schema.from_dict({o: fields.String(required=True) for o in OUTCOMES},
                                  name="SurpriseOddsExact")


class SurpriseDiceSchema(Schema):
    aggressor = fields.Nested(RollSchema, allow_none=True, required=True)
    target = fields.Nested(RollSchema, required=True)


class SurpriseMarginsSchema(Schema):
    aggressor = JsonInteger(allow_none=True, required=True)
    target = JsonInteger(required=True)


class RecoverySchema(Schema):
    hrt_check_dv = JsonInteger(required=True)
    stunned_cs_if_failed = JsonInteger(required=True)
    penalty_schedule = fields.List(JsonInteger(), required=True)


class SurpriseSchema(Schema):
    """The Surprise outcome with its stun, penalty, dice, margins, exact odds and recovery."""

    outcome = fields.String(required=True, validate=validate.OneOf(OUTCOMES))
    duration_cs = JsonInteger(required=True)
    penalty = JsonInteger(required=True)
    rolls = fields.Nested(SurpriseDiceSchema, required=True)
    margins = fields.Nested(SurpriseMarginsSchema, required=True)
    probabilities = fields.Nested(OutcomeFloats, required=True)
    probabilities_exact = fields.Nested(OutcomeStrings, required=True)
    expected_duration_cs = JsonFloat(required=True)
    expected_duration_cs_exact = fields.String(required=True)
    recovery = fields.Nested(RecoverySchema, allow_none=True, required=True)
    surprise_dv = JsonInteger(allow_none=True, required=True)
    seed = JsonInteger(required=True)
    trace = trace_field()


# --- contest ---------------------------------------------------------------------------------

class ContestSideSchema(Schema):
    chance = _chance()
    label = fields.String(validate=validate.Length(1, 64))


class ContestRollsSchema(Schema):
    a = JsonInteger(validate=FACE)
    b = JsonInteger(validate=FACE)


class ContestRequestSchema(Schema):
    a = fields.Nested(ContestSideSchema, required=True)
    b = fields.Nested(ContestSideSchema, required=True)
    roll = JsonBoolean(load_default=False, metadata={"description": "Roll the dice, not only the odds."})
    rolls = fields.Nested(ContestRollsSchema, metadata={"description": "Faces rolled at the table."})
    seed = seed_field()


class ContestOddsSchema(Schema):
    a = JsonFloat(required=True)
    b = JsonFloat(required=True)
    tie = JsonFloat(required=True)
    both_fail = JsonFloat(required=True)


class ContestOddsExactSchema(Schema):
    a = fields.String(required=True)
    b = fields.String(required=True)
    tie = fields.String(required=True)
    both_fail = fields.String(required=True)


class PairRollsSchema(Schema):
    a = fields.Nested(RollSchema, required=True)
    b = fields.Nested(RollSchema, required=True)


class PairIntsSchema(Schema):
    a = JsonInteger(required=True)
    b = JsonInteger(required=True)


class PairBoolsSchema(Schema):
    a = JsonBoolean(required=True)
    b = JsonBoolean(required=True)


class ContestResultSchema(Schema):
    rolls = fields.Nested(PairRollsSchema, required=True)
    margins = fields.Nested(PairIntsSchema, required=True, metadata={"description": "chance - roll."})
    succeeded = fields.Nested(PairBoolsSchema, required=True)
    winner = fields.String(required=True, validate=validate.OneOf(["a", "b", "tie", "both-fail"]))
    winner_label = fields.String(allow_none=True, required=True)


class ContestSchema(Schema):
    """Exact odds of a contested roll and, when rolled, the result."""

    probabilities = fields.Nested(ContestOddsSchema, required=True)
    probabilities_exact = fields.Nested(ContestOddsExactSchema, required=True)
    result = fields.Nested(ContestResultSchema, allow_none=True, required=True)
    seed = JsonInteger(allow_none=True, required=True)
    trace = trace_field()
