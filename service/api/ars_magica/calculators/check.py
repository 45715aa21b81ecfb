"""POST /v1/ars-magica/check: ease-factor rolls - generic, fatigue (*6. Fatigue*) and formulaic casting."""
from __future__ import annotations

from typing import Any

from service.api.ars_magica.calculators import common, dice_for, options, refuse_unused
from service.api.ars_magica.fields import exact_pair
from service.api.ars_magica.schemas.check import CheckRequestSchema, CheckSchema
from service.api.http.blueprint import Blueprint
from service.api.kit import calculator as kit
from service.rules.ars_magica import checks, ladders
from service.rules.errors import Contradiction
from service.rules.trace import Step

blp = Blueprint("ars-magica-check", __name__, description="Ars Magica: ease-factor, fatigue and formulaic "
                "casting rolls (seed 002, 5. Magic, 6. Fatigue).")


@kit.calculator(blp, "/check", "arsMagicaCheck", (CheckRequestSchema, CheckSchema))
def check_view(body: dict) -> dict:
    """Chance of an ease-factor, fatigue or formulaic casting roll, exactly; with a roll."""
    opts = options(body)
    check = _check(body, opts)
    probs, chance = checks.odds(check, opts)
    dice, roll = dice_for(body), None
    if dice is not None:
        value, word, rolled = checks.roll_check(check, dice, opts)
        refuse_unused(dice, [("roll", rolled, "botch")])
        roll = {"roll": value, "botches": rolled.botches, "outcome": word}
    assumptions = ["stress_die", "botch_dice"] + (["spell_tie"] if check.kind == "formulaic" else [])
    return {"total": check.total, "ease_factor": check.ease_factor, "botch_dice": check.botch_dice,
            **exact_pair("chance", chance), **exact_pair("probabilities", probs), "roll": roll,
            **common(dice, [*check.steps, Step("ease factor", "roll >= ease factor succeeds", chance)],
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
