"""The runequest-house attack against a dodge, parry or nothing (rules document §4): the exact odds of every
degree outcome and location, remembered under the default options, and the rolled attack."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from service.api.runequest_house.check_answers import CHECK_ASSUMPTIONS, trace
from service.api.runequest_house.common import chance_pair, dice_source, probability_pair, read_options
from service.rules.runequest_house import to_hit


def _odds_of_attack(body: Mapping[str, Any], options: Mapping[str, Any]) -> tuple[Any, Any, list[str]]:
    weapon, situation, defence = body["weapon"], body["situation"], body["defence"]
    attack = to_hit.attack_check(body["attack"], body["attack_modifier"], weapon, situation, options)
    guard = to_hit.defence_check(defence, weapon, situation, options)
    used = list(CHECK_ASSUMPTIONS)
    if situation["prone_attacker"] or situation["prone_target"]:
        used.append("RQH-PRONE")
    if situation["closed_vs_long"]:
        used.append("RQH-CLOSED-LONG")
    if weapon["kind"] != "melee" and situation["target_movement"] != "none":
        used.append("RQH-MOVING-TARGET")
    if guard.type == "dodge":
        used.append("RQH-FUMBLED-DODGE-SPECIAL")
        if defence["same_sr_attacks"]:
            used.append("RQH-SAME-SR-DODGE")
    if guard.critical_only:
        used.append("RQH-CRIT-ONLY-PARRY")
    if guard.type == "parry" and weapon["kind"] == "projected" and defence["item"] in to_hit.SHIELDS \
            and defence["item"] not in to_hit.LARGE_SHIELDS:
        used.append("RQH-SMALL-SHIELD-MISSILES")
    used.append("RQH-LOCATIONS")
    return attack, guard, used


def roll_attack(dice: Any, attack: Any, guard: Any, table: str, options: Mapping[str, Any]) -> dict[str, Any]:
    """The attack die, the defence die when there is a defence, and the location die when the blow lands or
    is parried."""
    face = dice.roll("attack", 1, 100).total
    degree = attack.bands.degree(face)
    d_face, d_degree = None, None
    if guard.type != "none":
        d_face = dice.roll("defence", 1, 100).total
        counting = guard.counting_bands()
        d_degree = counting.degree(d_face) if counting else "failure"
    result = to_hit.outcome(degree, guard.type, d_degree)
    location = None
    if result in (*to_hit.LANDED, "parried", "parried_special"):
        rows = options["missile_locations" if table == "missile" else "melee_locations"]
        if table == "high_ground":
            location = to_hit.location_of(rows, dice.roll("location", 1, 10, 10).total)
        else:
            location = to_hit.location_of(rows, dice.roll("location", 1, 20).total)
    return {"attack": face, "attack_degree": degree, "defence": d_face, "defence_degree": d_degree,
            "outcome": result, "location": location}


def to_hit_odds(body: Mapping[str, Any]) -> tuple[dict[str, Any], Any, Any, Mapping[str, Any]]:
    """The to-hit odds, the attack and defence checks and the options read (remembered when no option is
    sent)."""
    if not body["options"]:  # a pure answer under the default options: remembered
        key = (body["attack"], body["attack_modifier"], *(tuple(sorted(body[part].items()))
                                                          for part in ("weapon", "situation", "defence")))
        try:
            return _default_to_hit(key, body)
        except TypeError:  # an unhashable value: work it out
            pass
    return _work_to_hit(body)


def _default_to_hit(key: tuple, body: Mapping[str, Any]) -> tuple[dict[str, Any], Any, Any, Mapping[str, Any]]:
    found = _TO_HIT_MEMO.get(key)
    if found is None:
        found = _work_to_hit(body)
        if len(_TO_HIT_MEMO) > 4096:
            _TO_HIT_MEMO.clear()
        _TO_HIT_MEMO[key] = found
    return found


_TO_HIT_MEMO: dict[tuple, tuple] = {}


def _work_to_hit(body: Mapping[str, Any]) -> tuple[dict[str, Any], Any, Any, Mapping[str, Any]]:
    options = read_options(body["options"])
    attack, guard, used = _odds_of_attack(body, options)
    odds = to_hit.outcome_probabilities(attack.bands, guard)
    landed = to_hit.landed_chance(odds)
    table = to_hit.location_table(body["weapon"], body["situation"])
    places = to_hit.location_probabilities(table, options)
    answer = {
        "attack_effective": attack.effective, "attack_bands": attack.bands.as_dict(),
        "defence_effective": guard.check.effective if guard.check else None,
        "defence_bands": guard.check.bands.as_dict() if guard.check else None,
        "defence_critical_only": guard.critical_only, **chance_pair("defence_chance", to_hit.defence_chance(guard)),
        **chance_pair("chance", landed), **probability_pair("probabilities", odds), "location_table": table,
        **probability_pair("location_probabilities", places), "assumptions": used,
        "trace": trace((*attack.trace, *(guard.check.trace if guard.check else ())))}
    return answer, attack, guard, options


def to_hit_answer(body: dict[str, Any]) -> dict[str, Any]:
    """The answer of /to-hit: the odds, and the roll when asked."""
    answer, attack, guard, options = to_hit_odds(body)
    dice, roll = dice_source(body), None
    if dice is not None:
        roll = roll_attack(dice, attack, guard, answer["location_table"], options)
    return {**answer, "roll": roll, "dice": dice.dice() if dice else [], "seed": dice.seed if dice else None}
