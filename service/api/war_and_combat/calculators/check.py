"""The /v1/war-and-combat/check answer (rules document §12.2): a 3d6 task or resistance check's target level,
odds and roll."""
from __future__ import annotations

from typing import Any

from service.api.kit import calculator as kit
from service.api.war_and_combat.calculators import blp
from service.api.war_and_combat.schemas.check import CheckRequestSchema, CheckSchema
from service.rules.errors import Contradiction
from service.rules.trace import Step
from service.rules.war_and_combat import checks, option_specs, task


@kit.calculator(blp, "/check", "warAndCombatCheck", (CheckRequestSchema, CheckSchema))
def check_answer(body: dict[str, Any]) -> dict[str, Any]:
    """Any 3d6 task or resistance check — Fumble?/Fumble-N, Stumble?/Stumble-N, Restrict, Shock, balance,
    pass-through — with the exact odds of each miss-by result (*Wound Effects*, *Secondary Effects*)."""
    options = option_specs.read(body.get("options"))
    kind = body["kind"]
    if body.get("danger_hexes") is not None and kind != "pass_through":
        raise Contradiction("`danger_hexes` is for a pass_through", ("danger_hexes",))
    tl = body.get("tl")
    if tl is None:
        tl = checks.default_tl(kind, options, body.get("danger_hexes"))
        if tl is None:
            raise Contradiction(f"a {kind} check needs `tl`", ("tl",))
    bonus = (body["skill"] + body["attribute_mod"] + body["modifiers"] + task.pace_penalty(body["pace"], options)
             - body["action_penalty"])
    tie = options["tie_succeeds"]
    probs = checks.probabilities(kind, tl, bonus, tie)
    steps = [Step("Resolution of Attacks", f"{kind}: 3d6 + {bonus} against TL {tl}", tl)]
    dice = kit.dice(body)
    rolled = None
    if dice is not None:
        dice.check_queues({"check": 6}, {"check": 3})
        rolled = checks.roll(kind, tl, bonus, tie, dice).as_dict()
    return {"kind": kind, "tl": tl, "roll_bonus": bonus, "need": task.need(tl, bonus, tie),
            **kit.exact("chance", probs["success"]), **kit.exact("probabilities", probs), "roll": rolled,
            **kit.rolled(dice),
            "assumptions": ["WAC-TIE"] + (["WAC-BALANCE"] if kind == "balance" else [])
            + (["WAC-PASS-BASE", "WAC-PASS-HEX"] if kind == "pass_through" else []), "trace": kit.trace(steps)}


