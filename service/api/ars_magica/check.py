"""POST /v1/ars-magica/check: ease-factor rolls - generic, fatigue (*6. Fatigue*) and formulaic casting."""
from __future__ import annotations

from typing import Any

from marshmallow import Schema, fields, validate

from service.api.ars_magica import answers
from service.api.ars_magica.common import exact_pair, exact_text, options_field, probability, rolls_schema
from service.api.http.blueprint import Blueprint
from service.api.kit.fields import choice, flag, whole
from service.api.kit.receipts import receipt_answer_field, receipt_field, receipted
from service.api.kit.schemas import JsonInteger, Strict, seed_field
from service.rules.ars_magica import checks, ladders
from service.rules.errors import Contradiction
from service.rules.trace import Step

blp = Blueprint("ars-magica-check", __name__, description="Ars Magica: ease-factor, fatigue and formulaic "
                "casting rolls (seed 002, 5. Magic, 6. Fatigue).")
KINDS = ("ease", "fatigue", "formulaic")
OUTCOMES = ("success", "success_fatigue", "failure", "botch")
ROLES = {"roll": "The stress die.", "botch": "Botch dice."}


class CheckRequestSchema(Strict):
    """One stress roll against an ease factor (or a spell level); fields not of the `kind` are ignored."""
    receipt = receipt_field()

    kind = choice(KINDS, "ease (default), fatigue or formulaic.", "ease")
    total = whole(-100, 200, "ease: the total added to the die (required).")
    ease_factor = whole(-100, 300, "ease: the ease factor (required); fatigue: default 6.")
    stamina = whole(-10, 10, "Stamina (fatigue, formulaic).", 0)
    encumbrance = whole(0, 30, "Encumbrance, a magnitude (fatigue, formulaic).", 0)
    wound_penalty = whole(-50, 0, "Wound penalty (<= 0), or give `wound_level`.", 0)
    fatigue_penalty = whole(-50, 0, "Fatigue penalty (<= 0), or give `fatigue_level`.", 0)
    wound_level = fields.String(validate=validate.Length(1, 40),
                                metadata={"description": "Body level name (option `body_levels`)."})
    fatigue_level = fields.String(validate=validate.Length(1, 40),
                                  metadata={"description": "Fatigue level name (option `fatigue_levels`)."})
    heat = whole(0, 3, "Heat: -1 to -3 on fatigue rolls.", 0)
    level = whole(0, 200, "formulaic: the spell level (required).")
    technique = whole(0, 100, "formulaic: Technique.", 0)
    form = whole(0, 100, "formulaic: Form.", 0)
    careful = flag("formulaic: cast slowly with extra care (+Concentration, one botch die fewer).")
    concentration = whole(0, 30, "formulaic: Concentration (added with `careful`).", 0)
    vis_pawns = whole(0, 50, "formulaic: pawns of vis (+5 each, one more botch die each).", 0)
    voice = choice(("booming", "firm", "soft", "none"), "formulaic: voice.", "firm")
    gesture = choice(("vigorous", "bold", "subtle", "none"), "formulaic: gesture.", "bold")
    botch_dice = JsonInteger(validate=validate.Range(0, 10),
                             metadata={"description": "Botch dice (default option `botch_dice`; a casting adjusts "
                                                      "them for `careful` and `vis_pawns`)."})
    options = options_field()
    seed = seed_field()
    rolls = rolls_schema("CheckRollsSchema", ROLES)


class CheckRollSchema(Schema):
    """The check as rolled."""

    roll = fields.Integer(required=True, metadata={"description": "Total + stress die (0 when botched)."})
    botches = fields.Integer(required=True, metadata={"description": "Botch dice showing 0."})
    outcome = choice(OUTCOMES, "What the roll did.", required=True)


class CheckSchema(answers.CommonAnswerSchema):
    """The check's odds, exactly, and the roll when one was made."""
    receipt = receipt_answer_field()

    total = fields.Integer(required=True, metadata={"description": "The total after every modifier."})
    ease_factor = fields.Integer(required=True, metadata={"description": "The ease factor (`level` for a casting)."})
    botch_dice = fields.Integer(required=True, metadata={"description": "Botch dice used."})
    chance = probability("P(success), with fatigue or not.", required=True)
    chance_exact = exact_text("P(success)", required=True)
    probabilities = fields.Dict(keys=fields.String(validate=validate.OneOf(OUTCOMES)), values=fields.Float(),
                                required=True, metadata={"description": "Exclusive outcomes (formulaic adds "
                                                                        "success_fatigue)."})
    probabilities_exact = fields.Dict(keys=fields.String(validate=validate.OneOf(OUTCOMES)), values=fields.String(),
                                      required=True, metadata={"description": "The same, exact."})
    roll = fields.Nested(CheckRollSchema, required=True, allow_none=True,
                         metadata={"description": "The roll (null unless `seed` or `rolls` was sent)."})


EXAMPLE_REQUEST = {"kind": "formulaic", "level": 15, "technique": 8, "form": 6, "stamina": 1, "voice": "firm",
                   "gesture": "bold", "seed": 3}
EXAMPLE_ANSWER = {"total": 15, "ease_factor": 15, "botch_dice": 1, "chance": 0.999, "chance_exact": "999/1000",
                  "probabilities": {"success": 0.909, "success_fatigue": 0.09, "failure": 0.0, "botch": 0.001},
                  "probabilities_exact": {"success": "909/1000", "success_fatigue": "9/100", "failure": "0/1",
                                          "botch": "1/1000"},
                  "roll": {"roll": 22, "botches": 0, "outcome": "success"},
                  "dice": [{"role": "roll", "expression": "1d10", "dice": [7], "total": 7, "supplied": False}],
                  "seed": 3, "assumptions": ["stress_die", "spell_tie"],
                  "trace": [{"rule": "5. Magic: Formulaic spell", "detail": "casting total", "value": 15}]}


@blp.post("/check")
@blp.arguments(CheckRequestSchema, example=EXAMPLE_REQUEST)
@blp.response(200, CheckSchema, example=EXAMPLE_ANSWER)
@blp.alt_response(422, response="UNPROCESSABLE_ENTITY")
@blp.doc(operationId="arsMagicaCheck")
@receipted
def check_view(body: dict) -> dict:
    """Chance of an ease-factor, fatigue or formulaic casting roll, exactly; with a roll."""
    opts = answers.options(body)
    check = _check(body, opts)
    probs, chance = checks.odds(check, opts)
    dice, roll = answers.dice_for(body), None
    if dice is not None:
        value, word, rolled = checks.roll_check(check, dice, opts)
        answers.refuse_unused(dice, [("roll", rolled, "botch")])
        roll = {"roll": value, "botches": rolled.botches, "outcome": word}
    assumptions = ["stress_die", "botch_dice"] + (["spell_tie"] if check.kind == "formulaic" else [])
    return {"total": check.total, "ease_factor": check.ease_factor, "botch_dice": check.botch_dice,
            **exact_pair("chance", chance), **exact_pair("probabilities", probs), "roll": roll,
            **answers.common(dice, [*check.steps, Step("ease factor", "roll >= ease factor succeeds", chance)],
                             assumptions)}


def _check(body: dict, opts: dict) -> checks.Check:
    botch = body.get("botch_dice", opts["botch_dice"])
    if body["kind"] == "ease":
        for name in ("total", "ease_factor"):
            if body.get(name) is None:
                raise Contradiction(f"an ease check needs `{name}`", (name,))
        return checks.Check("ease", body["total"], body["ease_factor"], botch,
                            [Step("ease factor", "total + stress against the ease factor", body["total"])])
    if body["kind"] == "fatigue":
        wound = _penalty(body, "wound", opts["body_levels"])
        tired = _penalty(body, "fatigue", opts["fatigue_levels"])
        total, step = checks.fatigue_total(body["stamina"], body["encumbrance"], wound, tired, body["heat"])
        return checks.Check("fatigue", total, body.get("ease_factor", 6), botch, [step])
    if body.get("level") is None:
        raise Contradiction("a formulaic casting needs `level`", ("level",))
    total, steps = checks.casting_total(body["technique"], body["form"], body["stamina"], body["encumbrance"],
                                        body["careful"], body["concentration"], body["vis_pawns"], body["voice"],
                                        body["gesture"])
    return checks.Check("formulaic", total, body["level"], checks.casting_botch_dice(botch, body["careful"],
                                                                                      body["vis_pawns"]), steps)


def _penalty(body: dict, which: str, ladder: Any) -> int:
    name = body.get(f"{which}_level")
    if name is None:
        return body[f"{which}_penalty"]
    return ladders.penalty(ladder, ladders.index_of(ladder, name, (f"{which}_level",)))
