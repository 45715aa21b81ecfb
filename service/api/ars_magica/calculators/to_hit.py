"""POST /v1/ars-magica/to-hit: a melee attack against a defence, or a missile against its ease factor."""
from __future__ import annotations

from typing import Any

from service.api.ars_magica.calculators import common, dice_for, exact_fields, options, refuse_unused
from service.api.ars_magica.schemas.to_hit import ToHitRequestSchema, ToHitSchema
from service.api.http.blueprint import Blueprint
from service.api.kit import calculator as kit
from service.rules.ars_magica import to_hit
from service.rules.errors import Contradiction
from service.rules.rounding import exact

blp = Blueprint("ars-magica-to-hit", __name__, description="Ars Magica: chance to hit in melee and with missiles "
                "(seed 002, 3. Melee and 2. First Missiles).")


@kit.calculator(blp, "/to-hit", "arsMagicaToHit", (ToHitRequestSchema, ToHitSchema))
def to_hit_view(body: dict) -> dict:
    """Chance that a melee attack beats its defence, or a missile its ease factor, exactly; with a roll."""
    if ("defence" in body) == ("missile" in body):
        raise Contradiction("give exactly one of `defence` and `missile`",
                            ("missile",) if "missile" in body else ("defence",))
    opts = options(body)
    bonus, steps = to_hit.attack_modifier(body["attack_modifiers"])
    attack = body["attack"] + bonus
    botch = {k: body["botch_dice"].get(k, opts["botch_dice"]) for k in ("attack", "defence")}
    dice = dice_for(body)
    if "missile" in body:
        return _missile(body, opts, attack, botch, steps, dice)
    return _melee(body, opts, attack, botch, steps, dice)


def _melee(body: dict, opts: dict, attack: int, botch: dict, steps: list, dice: Any) -> dict:
    mode = body["defence_mode"]
    extra, more = to_hit.defence_modifier(body["defence_modifiers"])
    defence = body["defence"] + extra
    odds = to_hit.melee_odds(attack, defence, mode, botch, opts)
    roll = None
    if dice is not None:
        swing = to_hit.roll_melee(attack, defence, mode, botch, opts, dice)
        refuse_unused(dice, [("attack", swing.attack_die, "attack_botch"),
                                     ("defence", swing.defence_die, "defence_botch")])
        roll = _roll(swing)
    return {"mode": "melee", "attack_total": attack, "defence_total": None if mode == "surprised" else defence,
            "ease_factor": None, **_odds(odds), "roll": roll,
            **common(dice, [*steps, *more, *odds.steps],
                             ["stress_die", "botch_dice", "botched_total", "attack_tie", "exceptional_margin"])}


def _missile(body: dict, opts: dict, attack: int, botch: dict, steps: list, dice: Any) -> dict:
    shot = to_hit.Missile(**{**body["missile"], "distance_yd": exact(body["missile"]["distance_yd"])})
    ef, fire = to_hit.ease_factor(shot)
    odds = to_hit.missile_odds(attack, ef, shot.into_melee, botch["attack"], opts)
    roll = None
    if dice is not None:
        swing = to_hit.roll_missile(attack, ef, shot.into_melee, botch["attack"], opts, dice)
        refuse_unused(dice, [("attack", swing.attack_die, "attack_botch")])
        roll = _roll(swing)
    return {"mode": "missile", "attack_total": attack, "defence_total": None, "ease_factor": ef, **_odds(odds),
            "roll": roll, **common(dice, [*steps, *fire, *odds.steps],
                                           ["stress_die", "botch_dice", "botched_total", "missile_bands",
                                            "missile_exceptional_margin"])}


ODDS_FIELDS = (("chance", "chance"), ("probabilities", "probabilities"), ("botch_probabilities", "botch"))


def _odds(odds: to_hit.Odds) -> dict[str, Any]:
    """The odds' answer fields (`chance`, `probabilities`, `botch_probabilities` and their `_exact` twins)."""
    return exact_fields(odds, ODDS_FIELDS)


def _roll(swing: to_hit.Swing) -> dict[str, Any]:
    return {"attack_roll": swing.attack_roll, "defence_roll": swing.defence_roll,
            "attack_botches": swing.attack_botches, "defence_botches": swing.defence_botches,
            "margin": swing.margin, "outcome": swing.outcome}
