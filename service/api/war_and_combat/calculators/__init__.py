"""The war-and-combat calculators (rules document §12), one module per operation family: to-hit, check,
damage and attack on the `war-and-combat-calculators` blueprint, the sheets (wounds, combatant, movement) on
their own. What several families share is here (a family never imports another: each registers its
operations when imported, in the order of the package's MODULES): the attack question (to-hit, attack) and
the blow (damage, attack)."""
from __future__ import annotations

from fractions import Fraction
from typing import Any

from service.api.http.blueprint import Blueprint
from service.rules.errors import Contradiction
from service.rules.trace import Step
from service.rules.war_and_combat import damage as damage_rules  # (`damage` and `to_hit` are family modules)
from service.rules.war_and_combat import task
from service.rules.war_and_combat import to_hit as to_hit_rules

blp = Blueprint("war-and-combat-calculators", __name__,
                description="War & Combat (seed 001): chance to hit, checks, damage, whole attacks.")


TO_HIT_ASSUMPTIONS = ["WAC-TIE", "WAC-CRIT-ARMOR", "WAC-CRIT-DICE", "WAC-LIMB-SIDE"]


def question(body: dict[str, Any], options: dict[str, Any], defence_bonus: dict[str, int]) -> tuple[
        to_hit_rules.Question, list[Step]]:
    """The attack or shot of a to-hit or attack body (exactly one of defender, tl, missile)."""
    given = [name for name in ("defender", "tl", "missile") if body.get(name) is not None]
    if len(given) > 1:
        raise Contradiction("send exactly one of `defender`, `tl` and `missile`", (given[0],))
    if not given:
        raise Contradiction("send one of `defender`, `tl` and `missile`", ("defender",))
    steps: list[Step] = []
    attacker = body["attacker"]
    pace = task.pace_penalty(attacker["pace"], options)
    bonus = attacker["skill"] + attacker["attribute_mod"] + body["modifiers"] + pace - attacker["action_penalty"]
    called = body.get("called_shot")
    if called is not None and "missile" not in given:
        raise Contradiction("only a shot can call its location", ("called_shot",))
    if "defender" in given:
        d = body["defender"]
        tl = task.defence(d["fighter_rank"], d["agl_mod"], d["state"], options, d["def_modifier"])
        steps.append(Step("Resolution of Attacks", f"Defense of FR {d['fighter_rank']}, agility {d['agl_mod']}, "
                          f"state {d['state']}, modifier {d['def_modifier']}", tl))
        mode = "melee"
    elif "tl" in given:
        tl, mode = body["tl"], "melee"
        steps.append(Step("Resolution of Attacks", "target level given", tl))
    else:
        m, mode = body["missile"], "missile"
        band = m.get("range_band")
        if band is None:
            if m.get("distance_m") is None or m.get("base_range_m") is None:
                raise Contradiction("send `range_band`, or `distance_m` and `base_range_m`", ("missile", "range_band"))
            band = to_hit_rules.missile_band(Fraction(m["distance_m"]), Fraction(m["base_range_m"]))
            steps.append(Step("MISSILE TARGETING BY RANGE", f"{m['distance_m']} m at base {m['base_range_m']} m", band))
        elif m.get("distance_m") is not None:
            raise Contradiction("send `range_band` or `distance_m`, not both", ("missile", "distance_m"))
        tl = to_hit_rules.missile_tl(m["target_state"], band, m["into_melee"], m.get("target"), options, steps)
        if called is not None:
            bonus += to_hit_rules.called_shot_penalty(band, called["sub_location"])
    steps.append(Step("Flurry Procedure", f"roll bonus: skill + attribute + modifiers + pace {pace} - penalty "
                      f"{attacker['action_penalty']}", bonus))
    return to_hit_rules.Question(mode, tl, bonus, defence_bonus, called["location"] if called else None), steps


DAMAGE_ASSUMPTIONS = ["WAC-IMPACT-PATTERN", "WAC-CRIT-DICE", "WAC-CRIT-OFFSET", "WAC-SIZE-PATTERN", "WAC-INNATE",
                      "WAC-WOUND-TABLE", "WAC-BLUNT-PEN"]


def impact_cap(body: dict[str, Any], attack_type: str = "strike") -> int:
    """The cap: `impact_cap`, or STR + the weapon's impact modifier (STR alone for non-strike attacks)."""
    strength = (body.get("attacker") or {}).get("strength")
    if body.get("impact_cap") is not None and strength is not None:
        raise Contradiction("send `impact_cap` or `attacker.strength`, not both", ("impact_cap",))
    if body.get("impact_cap") is not None:
        return body["impact_cap"]
    if strength is None:
        raise Contradiction("send `impact_cap`, or `attacker.strength` and `weapon`", ("impact_cap",))
    return body["attacker"]["strength"] + (body["weapon"].get("impact_mod", 0) if attack_type == "strike" else 0)


def _weapon(body: dict[str, Any]) -> dict[str, Any]:
    return {"impact_mod": 0, "penetration_value": 0, "damage_type": "blunt", **(body.get("weapon") or {})}


def blow_of(body: dict[str, Any], options: dict[str, Any], margin: int, general: str, attack_type: str,
            steps: list[Step] | None) -> damage_rules.Blow:
    """The blow a damage or attack body lands at this margin on this general location, through that
    location's armor (*Strike Results Procedure*)."""
    target = body["target"]
    innate = target.get("innate_absorption")
    innate = options["innate_absorption"] if innate is None else innate
    return damage_rules.make_blow(impact_cap(body, attack_type), margin, general, target["size"], innate,
                            (target.get("armor") or {}).get(general) or {}, _weapon(body), options, attack_type, steps)
