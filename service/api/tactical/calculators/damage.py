"""POST /v1/tactical/damage and /armor-wear: one landed blow, and armor worn strike by strike (seed 000,
"Getting Hit", Optional Rule: Armor Wear)."""
from __future__ import annotations

from typing import Any

from service.api.http.blueprint import Blueprint
from service.api.kit import calculator as kit
from service.api.tactical.schemas.damage import (
    ArmorWearRequestSchema,
    ArmorWearResultSchema,
    DamageRequestSchema,
    DamageResultSchema,
)
from service.rules.rounding import exact
from service.rules.tactical.armor import Layer, WearStrike, layer, wear_sequence
from service.rules.tactical.damage import BlowOptions, BlowResult, Target, resolve_blow
from service.rules.tactical.potence import Attacker, Weapon
from service.rules.tactical.wounds import body_point_level
from service.rules.trace import Step

blp = Blueprint("tactical-damage", __name__, description="Potence, knock-back, armor, wounds and pain.")


def _layers(items: list[dict], *path: str) -> tuple[Layer, ...]:
    return tuple(layer(x["type"], x["dr"], x["durability"], x["proof"], (*path, i))
                 for i, x in enumerate(items))


def _state(layers: tuple[Layer, ...]) -> list[dict[str, Any]]:
    return [{"type": x.type, "dr": x.dr, "durability": x.rating, "proof": x.proof} for x in layers]


def _blow(body: dict) -> BlowResult:
    a, w, t = body["attacker"], body["weapon"], body["target"]
    attacker = Attacker(a["strength"], a["modified_sta"], a["coordination"], exact(a["charge_mph"]),
                        a["wounds"])
    dm = None if w["dm"] is None else exact(w["dm"])
    weapon = Weapon(w["grip"], w["size"], w["weight_class"], w["edge"], w["arrowhead_db"], w["fixed_pot"], dm,
                    w["bodkin"], w["days_cocked"])
    barrier = None if t["barrier_feet"] is None else exact(t["barrier_feet"])
    target = Target(t["modified_sta"], t["condition"], t["pain_resistance"],
                    _layers(t["armor"], "target", "armor"), t["clothing_layers"], t["wounds"],
                    exact(t["moving_mph"]), barrier, t["range_band"])
    return resolve_blow(attacker, weapon, target, body["attack"], BlowOptions(**body["options"]))


def _present(result: BlowResult) -> dict[str, Any]:
    hurt, stun = result.wounding, result.stun
    return {"pot": result.pot, "knockback_feet": result.knockback_feet, "keep_feet_dv": result.keep_feet_dv,
            "pot_through_armor": result.pot_through_armor, "wound_threshold": float(hurt.threshold),
            "wounds_inflicted": hurt.inflicted, "wounds_total": hurt.total, "wound_level": hurt.level,
            "status": hurt.status,
            "death_check": {"dv": hurt.death_check_dv} if hurt.death_check_dv else None,
            "effective_strength_factor": float(hurt.strength_factor),
            "stun": None if stun is None else {"check_dv": stun.check_dv,
                                               "penalty_if_failed": stun.penalty_if_failed,
                                               "penalty_if_passed": stun.penalty_if_passed},
            "armor_before": _state(result.armor_before), "armor_after": _state(result.armor_after),
            "trace": kit.trace(result.trace)}


@kit.calculator(blp, "/damage", "tacticalDamage", (DamageRequestSchema, DamageResultSchema), signed=False)
def damage(body: dict) -> dict[str, Any]:
    """Resolve one landed blow: POT, knock-back, armor and wear, wounds, level and stun by pain."""
    answer = _present(_blow(body))
    target = body["target"]
    answer["body_points"] = None
    if body["options"].get("body_points") and target.get("body_points") is not None:
        bp = body_point_level(target.get("damage_taken", 0) + answer["pot_through_armor"], target["body_points"])
        answer["body_points"] = {"damage": bp.damage, "total": bp.total, "remaining": bp.remaining,
                                 "level": bp.level}
        answer["wound_level"] = bp.level
        answer["trace"].append(bp.step.as_dict())
    return answer


@kit.calculator(blp, "/armor-wear", "tacticalArmorWear", (ArmorWearRequestSchema, ArmorWearResultSchema),
                signed=False)
def armor_wear(body: dict) -> dict[str, Any]:
    """Armor state after each landed strike in turn (Armor Wear, Slash, Thrust/Lunge)."""
    strikes = [WearStrike(s["db"], s["attack"], s["pot"]) for s in body["strikes"]]
    states, steps = wear_sequence(_layers(body["armor"], "armor"), strikes)
    wear = "DM bonus" if body["options"].get("body_points") else "DB"
    head = Step("Optional Rule: Armor Wear", f"each strike's `db` is taken as the weapon's {wear}", None)
    return {"states": [_state(s) for s in states], "trace": kit.trace([head, *steps])}
