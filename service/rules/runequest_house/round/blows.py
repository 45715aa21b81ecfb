"""A blow that got through in a round: hit location, damage dice, parry and armor absorption, the wound,
knockback and the fall, and the status change they cause (rules document §8; seed *Page 49*, *Standard
Parry*, hit locations)."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from service.rules.runequest_house import armor, geometry, percentile, stats, status, to_hit
from service.rules.runequest_house.damage import blow, passage
from service.rules.runequest_house.damage import wound as location_wound
from service.rules.runequest_house.dice_expr import parse
from service.rules.runequest_house.knockback import Target, knockback
from service.rules.runequest_house.round.state import Round

PARRY_DEGREE = {"parried": "success", "parried_special": "special", "parried_critical": "critical"}


def landed(work: Round, who: dict[str, Any], target: dict[str, Any], weapon: dict[str, Any], result: str,
           item: dict[str, Any] | None, grapple: bool, rolled: str = "success") -> None:
    """Location, damage, parry absorption, armor, wounds and knockback of a blow that got through."""
    table = "missile" if weapon["kind"] != "melee" else "melee"
    face = work.dice.roll("location", 1, 20, combatant=who["id"]).total
    location = to_hit.location_of(work.options[f"{table}_locations"], face)
    if grapple:
        if result not in PARRY_DEGREE:
            who["holding"] = {"target": target["id"], "location": location, "immobilised": False}
        if result in PARRY_DEGREE:
            work.emit("grappled", combatant=who["id"], target=target["id"], location=None,
                      caught=item["name"] if item else None)
        else:
            work.emit("grappled", combatant=who["id"], target=target["id"], location=location, caught=None)
        return
    # a parried blow keeps the attack roll's degree; an unparried one the degree the defence left it
    degree = rolled if result in PARRY_DEGREE else ("success" if result == "hit" else result)
    bonus = stats.damage_bonus(who["characteristics"]["str"], who["characteristics"]["siz"], work.options)
    damage, expression = roll_blow(work, who, weapon, bonus, degree)
    work.emit("damage_rolled", combatant=who["id"], target=target["id"], expression=expression, damage=damage,
              degree=degree, location=location)
    parry_degree = PARRY_DEGREE.get(result, "failure")
    layers = armor.layered(target["armor"].get(location, []), target["protection"], work.options)
    went = passage(damage, degree, parry_degree, item["ap"] if item else 0, layers.ap, work.options)
    if went.parry_ap_loss and item:
        kind, index = item["ref"]
        holder = target["weapons"][index] if kind == "weapon" else target["shield"]
        holder["ap"] = max(0, holder["ap"] - went.parry_ap_loss)
        work.emit("weapon_damaged", combatant=target["id"], item=item["name"], ap_loss=went.parry_ap_loss,
                  ap=holder["ap"], parrying=True)
    if went.armor_absorbed:
        work.emit("armor_absorbed", combatant=target["id"], location=location, absorbed=went.armor_absorbed,
                  ap=layers.ap)
    before = status.status(target)
    if went.to_location > 0:
        wound(work, target, location, went.to_location)
    knock(work, target, who, weapon, went, degree)
    status_changed(work, target, before)


def roll_blow(work: Round, who: Mapping[str, Any], weapon: Mapping[str, Any], bonus: str, degree: str) -> tuple[int, str]:
    """Roll the blow's dice: weapon dice under role `damage` (twice for a special impale or slash),
    the damage bonus under `bonus` (at its maximum for a special crush)."""
    made = blow(weapon["damage"], weapon["type"], bonus, degree, work.options)
    if degree == "critical_max":
        return made.constant, made.text()
    base, db = parse(weapon["damage"]), parse(bonus)
    special = degree in ("special", "critical") and work.options["special_damage"] == "rq3"
    total = base.roll(work.dice, "damage", who["id"])
    if special and weapon["type"] != "crush":
        total += base.roll(work.dice, "damage", who["id"])
    total += db.maximum() if special and weapon["type"] == "crush" else db.roll(work.dice, "bonus", who["id"])
    return max(0, total), made.text()


def wound(work: Round, target: dict[str, Any], location: str, amount: int) -> None:
    """Damage to a hit location: location and total HP, dying and severed conditions, and the fall when a
    leg, the abdomen or the chest is brought to 0 (hit locations)."""
    full = stats.location_hp(stats.hit_points(target["characteristics"]["con"], target["characteristics"]["siz"]),
                             work.options)
    hurt = location_wound(location, amount, target["location_hp"][location], full[location], target["hp"])
    target["location_hp"][location], target["hp"] = hurt.location_hp_after, hurt.hp_after
    work.changes += 1
    if hurt.location_state == "dying" and "dying" not in target["conditions"]:
        target["conditions"] = sorted({*target["conditions"], "dying"})
    if hurt.location_state == "severed":
        target["conditions"] = sorted({*target["conditions"], f"severed:{location}"})
    work.emit("location_damaged", combatant=target["id"], location=location, damage=amount,
              location_hp=hurt.location_hp_after, hp=hurt.hp_after, location_state=hurt.location_state)
    falls = (location in ("right_leg", "left_leg", "abdomen", "chest") and hurt.location_hp_after <= 0)
    if falls and not target["prone"]:
        target["prone"] = True
        work.emit("fell", combatant=target["id"], cause="wound", location=location)


def knock(work: Round, target: dict[str, Any], attacker: Mapping[str, Any], weapon: Mapping[str, Any], went: Any,
          degree: str) -> None:
    """Knockback of the blow (*Page 49*), the DEX roll (role `dex_roll`) and the fall."""
    counted = went.through_parry if work.options["knockback_damage"] == "after_parry_before_armor" \
        else went.to_location
    impaled = weapon["type"] == "impale" and degree != "success" and went.to_location > 0 \
        and work.options["special_damage"] == "rq3"
    chars = target["characteristics"]
    who = Target(chars["siz"], chars["str"], chars["dex"], target["braced"])
    pushed = knockback(counted, weapon["type"], who, work.options, went.to_location > 0, impaled)
    if pushed.metres == 0:
        return
    event = work.emit("knockback", combatant=target["id"], attacker=attacker["id"], metres=pushed.metres,
                      dex_multiplier=pushed.dex_multiplier, roll=None, fell=False)
    push(work, target, attacker, pushed.metres)
    if target["prone"]:
        return
    if pushed.automatic_fall:
        fell = True
    else:
        face = work.dice.roll("dex_roll", 1, 100, combatant=target["id"]).total
        event["roll"] = face
        fell = percentile.bands(chars["dex"] * pushed.dex_multiplier, work.options).degree(face) in (
            "failure", "fumble")
    if fell:
        work.changes += 1
        event["fell"] = True
        target["prone"] = True
        work.emit("fell", combatant=target["id"], cause="knockback")


def push(work: Round, target: dict[str, Any], attacker: Mapping[str, Any], metres: int) -> None:
    """Knockback moves the target away from the attacker, one free hex per metre, and stops where no free
    hex leads farther (*Page 49*)."""
    if not target["position"] or not attacker["position"]:
        return
    taken = {(c["position"]["q"], c["position"]["r"]) for c in work.people.values()
             if c["position"] and c["id"] != target["id"]}
    for _ in range(metres):
        best, far = None, geometry.distance(target["position"], attacker["position"])
        for dq, dr in geometry.NEIGHBOURS:
            hexagon = {"q": target["position"]["q"] + dq, "r": target["position"]["r"] + dr}
            d = geometry.distance(hexagon, attacker["position"])
            if (hexagon["q"], hexagon["r"]) not in taken and d is not None and far is not None and d > far:
                best, far = hexagon, d
        if best is None:
            return
        target["position"] = best


def status_changed(work: Round, target: dict[str, Any], before: str) -> None:
    """Announce a figure newly disabled or killed by this blow (status, rules document §8)."""
    after = status.status(target)
    if after == before or after in ("standing", "prone"):
        return
    if after == "dead":
        work.emit("killed", combatant=target["id"])
    else:
        work.emit("disabled", combatant=target["id"], status=after)
