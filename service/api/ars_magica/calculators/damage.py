"""POST /v1/ars-magica/damage: a damage roll against a soak roll, in body (or brawling fatigue) levels."""
from __future__ import annotations

from functools import lru_cache
from typing import Any

from service.api.ars_magica.calculators import common, dice_for, exact_fields, options, refuse_unused
from service.api.ars_magica.schemas.damage import DamageRequestSchema, DamageSchema
from service.api.http.blueprint import Blueprint
from service.api.kit import calculator as kit
from service.rules.ars_magica import damage
from service.rules.errors import Contradiction
from service.rules.trace import Step

blp = Blueprint("ars-magica-damage", __name__, description="Ars Magica: damage against soak in body levels "
                "(seed 002, 3. Melee, EXCEPTIONAL BLOW TABLE, Brawling).")


@kit.calculator(blp, "/damage", "arsMagicaDamage", (DamageRequestSchema, DamageSchema))
def damage_view(body: dict) -> dict:
    """Body levels a landed blow takes off: damage roll against soak roll, exactly; with a roll."""
    if body["exceptional"] and body.get("location") is None:
        raise Contradiction("an exceptional blow needs a `location`", ("location",))
    opts = options(body)
    total = body["damage"] + 6 * body["mounted_charge"] + 3 * body["from_behind"]
    soak = body["soak"] - (body["protection"] if body["exceptional"] else 0)
    botch = {k: body["botch_dice"].get(k, opts["botch_dice"]) for k in ("damage", "soak")}
    odds = damage.damage_odds(total, soak, botch, body["all_out"], body["exceptional"], opts)
    dice, roll = dice_for(body), None
    if dice is not None:
        blow = damage.roll_damage(total, soak, botch, dice, opts, body["all_out"], body["brawling"],
                                  body.get("location") if body["exceptional"] else None)
        refuse_unused(dice, [("damage", blow.damage_die, "damage_botch"),
                                     ("soak", blow.soak_die, "soak_botch")])
        roll = _roll(blow)
    steps = [*_total_steps(total, soak, body["exceptional"]), *odds.steps]
    return {"damage_total": total, "soak_total": soak, **exact_fields(odds, ODDS_FIELDS), "roll": roll,
            **common(dice, steps, _assumptions(body))}


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
