"""POST /v1/tactical/to-hit and /range: the chance of a blow or shot, and range bands (seed 000, "Resolving the
Battle", "Ranged Combat")."""
from __future__ import annotations

from typing import Any

from service.api.http.blueprint import Blueprint
from service.api.kit import calculator as kit
from service.api.kit.schemas import json_number
from service.api.tactical.schemas.to_hit import (
    RangeRequestSchema,
    RangeSchema,
    ToHitRequestSchema,
    ToHitSchema,
)
from service.rules.rounding import exact
from service.rules.tactical import ranged
from service.rules.tactical.attack_roll import Attack, Resolution, Shot, resolve
from service.rules.tactical.thrown import ThrownObject
from service.rules.tactical.to_hit import Adjustments

blp = Blueprint("tactical-to-hit", __name__, description="To-hit chances and ranged fire (seed 000).")
ADJUSTMENTS = ("attack_use", "defence_use", "free_defence_uses", "reprisal_same_weapon", "surprise_penalty",
               "attacker_stun_penalty", "defender_stun_penalty")
REMEMBERED = kit.Remembered()


@kit.calculator(blp, "/to-hit", "tacticalToHit", (ToHitRequestSchema, ToHitSchema))
def to_hit(body: dict) -> dict:
    """Chance to hit of AV against a melee DV or a ranged shot, with Heroic/Bumble odds and an optional d100."""
    trt = body["task_resolution"]
    attack = Attack(body["av"], body.get("dv"), _shot(body.get("ranged")), trt["method"], trt.get("table"),
                    Adjustments(**{name: body[name] for name in ADJUSTMENTS}), **body["options"])
    result = resolve(attack, body.get("roll"), body.get("seed"))
    if result.roll is not None:
        return _answer(result)
    return REMEMBERED(result, lambda: _answer(result))  # type: ignore[no-any-return]


@kit.calculator(blp, "/range", "tacticalRange", (RangeRequestSchema, RangeSchema), signed=False)
def range_band(body: dict) -> dict:
    """Range band, band limits and the range DV modifier of a shot (or a thrown object)."""
    reading = ranged.range_of(body["weapon"], exact(body["distance"]), body["strength"], exact(body["elevation"]),
                              _thrown(body.get("object")))
    return {**_reading(reading), "trace": kit.trace(reading.steps)}


def _shot(data: dict | None) -> Shot | None:
    if data is None:
        return None
    target = ranged.Target(**{**data["target"], "moving_mph": exact(data["target"]["moving_mph"])})
    return Shot(data["weapon"], exact(data["distance"]), data["strength"], exact(data["elevation"]), target,
                _thrown(data.get("object")))


def _thrown(data: dict | None) -> ThrownObject | None:
    return None if data is None else ThrownObject(**{k: exact(v) for k, v in data.items()})


def _reading(reading: ranged.RangeResult) -> dict[str, Any]:
    lim = reading.limits
    return {"weapon": reading.weapon, "unit": reading.unit, "band": reading.band, "dv_modifier": reading.dv_modifier,
            "limits": {"point_blank": lim.point_blank, "short": json_number(lim.short),
                       "medium": json_number(lim.medium), "long": json_number(lim.long), "maximum": lim.maximum},
            "band_shares": [{"band": b, "share": s} for b, s in reading.shares],
            "object_factor": json_number(reading.object_factor), "too_close": reading.too_close}


def _answer(result: Resolution) -> dict[str, Any]:
    answer: dict[str, Any] = {
        "av": result.av, "dv": result.dv, "chance_percent": result.chance,
        "heroic_max_roll": result.heroic_max_roll, "bumble_min_roll": result.bumble_min_roll,
        "probabilities": {k: float(v) for k, v in result.outcomes.as_dict().items()},
        "range": None if result.range is None else _reading(result.range), "trace": kit.trace(result.steps)}
    if result.roll is not None:
        answer.update(roll=result.roll.as_dict(), outcome=result.outcome, seed=result.seed)
    return answer
