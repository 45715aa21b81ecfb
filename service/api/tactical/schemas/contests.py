"""Schemas of /v1/tactical/initiative, /surprise and /contest: shapes only, bounded numbers."""
from __future__ import annotations

from marshmallow import Schema, fields, validate

from service.api.kit.schemas import JsonBoolean, JsonFloat, JsonInteger, RollSchema, seed_field, trace_field
from service.api.tactical.fields import odds_schemas

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
    """One combatant's Initiative numbers."""

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
    """Who rolls Initiative this CS, and how ties and extra actions are ordered."""

    EXAMPLE = {"seed": 3, "combatants": [
        {"id": "knight", "awa_mod": 1, "hrt_mod": 1, "agl": 12, "hrt": 14, "actions": 2},
        {"id": "bandit", "awa_mod": 2, "agl": 12, "hrt": 10, "actions": 2}]}

    combatants = fields.List(fields.Nested(CombatantSchema), required=True, validate=validate.Length(1, 200),
                             metadata={"description": "Everyone rolling (1-200)."})
    seed = seed_field()
    tie_break = fields.String(load_default="alphabetical", validate=validate.OneOf(["alphabetical", "coin"]),
                              metadata={"description": "Last tie-break after AGL and HRT (RULINGS 17)."})
    pass_order = fields.String(load_default="passes", validate=validate.OneOf(["passes", "extra-first"]),
                               metadata={"description": "Order of several actions (A6)."})


class PlacedSchema(Schema):
    """One combatant's place in the Initiative roster."""

    id = fields.String(required=True, metadata={"description": "The combatant."})
    roll = JsonInteger(required=True, metadata={"description": "The d10 face."})
    initiative = JsonInteger(required=True, metadata={"description": "The Initiative score."})
    dice = fields.Nested(RollSchema, required=True, metadata={"description": "The Initiative die."})
    actions = JsonInteger(required=True, metadata={"description": "His actions this CS."})
    simultaneous = JsonBoolean(required=True, metadata={"description": "Tied to the last tie-break."})


class InitiativeSchema(Schema):
    """The roster in order of play, the passes of actions, and first-action odds for two."""

    roster = fields.List(fields.Nested(PlacedSchema), required=True,
                         metadata={"description": "Everyone in Initiative order."})
    passes = fields.List(fields.List(fields.String()), required=True,
                         metadata={"description": "Each action pass: the ids acting in it, in order."})
    first_probabilities = fields.Dict(keys=fields.String(), values=JsonFloat(), allow_none=True,
                                      required=True,
        metadata={"description": "Exact chance each combatant acts first (as a float; null when not "
                                 "computed)."})
    first_probabilities_exact = fields.Dict(keys=fields.String(), values=fields.String(), allow_none=True,
                                            required=True,
        metadata={"description": "The same chances as exact fractions."})
    seed = JsonInteger(required=True, metadata={"description": "The seed the dice were rolled with."})
    trace = trace_field()


# --- surprise --------------------------------------------------------------------------------

class AggressorSchema(Schema):
    """The aggressor of a Surprise."""

    chance = _chance()


class TargetSchema(Schema):
    """The target of a Surprise."""

    chance = _chance()
    dv = JsonInteger(validate=validate.Range(0, 10_000),
                        metadata={"description": "DV the Surprise check was made against (for recovery)."})


class SurpriseRollsSchema(Schema):
    """d100 faces rolled at the table (missing ones are rolled from the seed)."""

    aggressor = JsonInteger(validate=FACE, metadata={"description": "The aggressor's d100."})
    target = JsonInteger(validate=FACE, metadata={"description": "The target's d100."})


class SpringerSchema(Schema):
    """One figure springing the Surprise (their CHM, HRT and size set its DV)."""

    chm_mod = _int(0, description="CHM attribute modifier.")
    hrt_mod = _int(0, description="HRT attribute modifier.")
    modified_sta = _int(20, validate.Range(0, 1000), description="Modified STA (size).")


class DvFromSchema(Schema):
    """Work the Surprise DV out from who springs it (F7)."""

    base_dv = JsonInteger(required=True, validate=validate.Range(-1000, 1000),
                          metadata={"description": "The base DV before the springers' modifiers."})
    springers = fields.List(fields.Nested(SpringerSchema), required=True, validate=validate.Length(1, 200),
                            metadata={"description": "Everyone springing it (1-200)."})


class SurpriseRequestSchema(Schema):
    """A Surprise: the aggressor's and target's chances, and the dice."""

    EXAMPLE = {"aggressor": {"chance": 60}, "target": {"chance": 40, "dv": 30},
               "rolls": {"aggressor": 50, "target": 45}}

    aggressor = fields.Nested(AggressorSchema, metadata={"description": "Leave out for a mechanical trap."})
    target = fields.Nested(TargetSchema, required=True, metadata={"description": "The target's check."})
    rolls = fields.Nested(SurpriseRollsSchema, load_default=dict,
                          metadata={"description": "Faces rolled at the table."})
    seed = seed_field()
    trap = JsonBoolean(load_default=False, metadata={"description": "A mechanical trap: simple roll."})
    dv_from = fields.Nested(DvFromSchema, metadata={"description": "Compute the Surprise DV (F7)."})


OutcomeFloats, OutcomeStrings = odds_schemas(
    "SurpriseOdds", {o: f"Chance of `{o}`." for o in OUTCOMES},
    ("Exact chance of each Surprise outcome, as floats (they add up to 1).",
     "Exact chance of each Surprise outcome, as fractions."))


class SurpriseDiceSchema(Schema):
    """The d100s of a Surprise."""

    aggressor = fields.Nested(RollSchema, allow_none=True, required=True,
                              metadata={"description": "The aggressor's roll (null for a trap)."})
    target = fields.Nested(RollSchema, required=True, metadata={"description": "The target's roll."})


class SurpriseMarginsSchema(Schema):
    """By how much each roll made or missed its chance (chance - roll)."""

    aggressor = JsonInteger(allow_none=True, required=True,
                            metadata={"description": "The aggressor's margin (null for a trap)."})
    target = JsonInteger(required=True, metadata={"description": "The target's margin."})


class RecoverySchema(Schema):
    """How a stunned target recovers."""

    hrt_check_dv = JsonInteger(required=True, metadata={"description": "DV of the HRT check to recover."})
    stunned_cs_if_failed = JsonInteger(required=True,
                                       metadata={"description": "CS he stays stunned when the check fails."})
    penalty_schedule = fields.List(JsonInteger(), required=True,
                                   metadata={"description": "The penalty in each CS while it wanes."})


class SurpriseSchema(Schema):
    """The Surprise outcome with its stun, penalty, dice, margins, exact odds and recovery."""

    outcome = fields.String(required=True, validate=validate.OneOf(OUTCOMES),
                            metadata={"description": "none, not-surprised, stunned, overwhelmed or shaken."})
    duration_cs = JsonInteger(required=True, metadata={"description": "Combat Segments the outcome lasts."})
    penalty = JsonInteger(required=True, metadata={"description": "Penalty it puts on the target."})
    rolls = fields.Nested(SurpriseDiceSchema, required=True, metadata={"description": "The dice."})
    margins = fields.Nested(SurpriseMarginsSchema, required=True,
                            metadata={"description": "chance - roll for each side."})
    probabilities = fields.Nested(OutcomeFloats, required=True,
                                  metadata={"description": "Exact chance of each outcome (floats)."})
    probabilities_exact = fields.Nested(OutcomeStrings, required=True,
                                        metadata={"description": "The same as exact fractions."})
    expected_duration_cs = JsonFloat(required=True, metadata={"description": "Expected CS of surprise."})
    expected_duration_cs_exact = fields.String(required=True,
                                               metadata={"description": "The same as an exact fraction."})
    recovery = fields.Nested(RecoverySchema, allow_none=True, required=True,
                             metadata={"description": "How the target recovers (null when not stunned)."})
    surprise_dv = JsonInteger(allow_none=True, required=True,
                              metadata={"description": "The Surprise DV used (null when none applies)."})
    seed = JsonInteger(required=True, metadata={"description": "The seed the dice were rolled with."})
    trace = trace_field()


# --- contest ---------------------------------------------------------------------------------

class ContestSideSchema(Schema):
    """One side of a contested roll."""

    chance = _chance()
    label = fields.String(validate=validate.Length(1, 64),
                          metadata={"description": "A name for the side (echoed as `winner_label`)."})


class ContestRollsSchema(Schema):
    """d100 faces rolled at the table."""

    a = JsonInteger(validate=FACE, metadata={"description": "Side a's roll."})
    b = JsonInteger(validate=FACE, metadata={"description": "Side b's roll."})


class ContestRequestSchema(Schema):
    """A contested roll between two chances."""

    EXAMPLE = {"a": {"chance": 55}, "b": {"chance": 40}, "roll": True, "seed": 9}

    a = fields.Nested(ContestSideSchema, required=True, metadata={"description": "The first side."})
    b = fields.Nested(ContestSideSchema, required=True, metadata={"description": "The second side."})
    roll = JsonBoolean(load_default=False, metadata={"description": "Roll the dice, not only the odds."})
    rolls = fields.Nested(ContestRollsSchema, metadata={"description": "Faces rolled at the table."})
    seed = seed_field()


ContestOddsSchema, ContestOddsExactSchema = odds_schemas(
    "ContestOdds", {"a": "Side a wins.", "b": "Side b wins.", "tie": "A tie.", "both_fail": "Both fail."},
    ("Exact chance of each result (floats, adding up to 1).", "The same chances as exact fractions."))


class PairRollsSchema(Schema):
    """Both sides' rolls."""

    a = fields.Nested(RollSchema, required=True, metadata={"description": "Side a's roll."})
    b = fields.Nested(RollSchema, required=True, metadata={"description": "Side b's roll."})


class PairIntsSchema(Schema):
    """A number for each side."""

    a = JsonInteger(required=True, metadata={"description": "Side a's."})
    b = JsonInteger(required=True, metadata={"description": "Side b's."})


class PairBoolsSchema(Schema):
    """A yes/no for each side."""

    a = JsonBoolean(required=True, metadata={"description": "Side a's."})
    b = JsonBoolean(required=True, metadata={"description": "Side b's."})


class ContestResultSchema(Schema):
    """A rolled contest."""

    rolls = fields.Nested(PairRollsSchema, required=True, metadata={"description": "The dice."})
    margins = fields.Nested(PairIntsSchema, required=True, metadata={"description": "chance - roll."})
    succeeded = fields.Nested(PairBoolsSchema, required=True,
                              metadata={"description": "Whether each side made its chance."})
    winner = fields.String(required=True, validate=validate.OneOf(["a", "b", "tie", "both-fail"]),
                           metadata={"description": "a, b, tie or both-fail."})
    winner_label = fields.String(allow_none=True, required=True,
                                 metadata={"description": "The winning side's label (null without one)."})


class ContestSchema(Schema):
    """Exact odds of a contested roll and, when rolled, the result."""

    probabilities = fields.Nested(ContestOddsSchema, required=True,
                                  metadata={"description": "Exact chance of each result."})
    probabilities_exact = fields.Nested(ContestOddsExactSchema, required=True,
                                        metadata={"description": "The same as exact fractions."})
    result = fields.Nested(ContestResultSchema, allow_none=True, required=True,
                           metadata={"description": "The rolled contest (null when only the odds were asked "
                                                    "for)."})
    seed = JsonInteger(allow_none=True, required=True,
                       metadata={"description": "The seed used (null when nothing was rolled)."})
    trace = trace_field()
