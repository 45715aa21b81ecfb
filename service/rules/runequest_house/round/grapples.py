"""Grapple follow-ups in a round: immobilise, throw, damage the held location, and the escape, each a second
grapple roll and a resistance roll (rules document §8; seed *Page 60*)."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from service.rules.runequest_house import armor, grapple, percentile, stats, status, to_hit
from service.rules.runequest_house.contest import resistance as contest_resistance
from service.rules.runequest_house.dice_expr import parse
from service.rules.runequest_house.round.blows import status_changed, wound
from service.rules.runequest_house.round.state import Round


def follow_up(work: Round, who: dict[str, Any], action: Mapping[str, Any]) -> None:
    """A grapple follow-up (*Page 60*): a second grapple roll (throw +10%, damage -10%; a failure releases
    the hold), then the resistance roll (immobilise STR vs STR/2, throw STR + DEX vs SIZ/2 + DEX); a throw
    does 1d6 + damage bonus to a random location, armor at most half, halved by a DEX x1 success; damage
    does 1d4 + damage bonus to the held location, armor ignored, protective spells at half. The held
    figure may break an immobilising hold with STR/2 vs STR (`escape`)."""
    mode, other = action["mode"], work.people[action["target"]]
    if status.status(other) == "dead":
        return
    if mode == "escape":
        _resist(work, who, grapple.half(who["characteristics"]["str"]), other["characteristics"]["str"], mode,
                     lambda: other.update(holding=None))
        return
    hold = who["holding"]
    if not hold or hold["target"] != other["id"]:
        return
    skill = who["skills"]["grapple"] + grapple.SKILL_SHIFT[mode]
    face = work.dice.roll("grapple", 1, 100, combatant=who["id"]).total
    degree = percentile.bands(skill, work.options).degree(face)
    work.emit("attack_rolled", combatant=who["id"], target=other["id"], sr=None, weapon=None, mode=mode,
              roll=face, effective=skill, degree=degree)
    if degree in ("failure", "fumble"):
        who["holding"] = None
        work.emit("grappled", combatant=who["id"], target=other["id"], location=None, caught=None, released=True)
        return
    chars, foe = who["characteristics"], other["characteristics"]
    if mode == "immobilise":
        _resist(work, who, chars["str"], grapple.half(foe["str"]), mode, lambda: hold.update(immobilised=True))
    elif mode == "throw":
        _resist(work, who, chars["str"] + chars["dex"], grapple.half(foe["siz"]) + foe["dex"], mode,
                     lambda: _thrown(work, who, other))
    else:
        bonus = stats.damage_bonus(chars["str"], chars["siz"], work.options)
        amount = max(0, parse("1d4").roll(work.dice, "damage", who["id"]) + parse(bonus).roll(work.dice, "bonus",
                                                                                              who["id"]))
        work.emit("damage_rolled", combatant=who["id"], target=other["id"], expression=f"1d4{bonus if bonus[0] in '+-' else ''}",
                  damage=amount, degree=degree, location=hold["location"])
        _grapple_wound(work, other, hold["location"], max(0, amount - other["protection"] // 2))


def _resist(work: Round, active_side: dict[str, Any], active: int, passive: int, mode: str, won: Any) -> None:
    chance = contest_resistance(active, passive, work.options)
    face = work.dice.roll("resistance", 1, 100, combatant=active_side["id"]).total
    work.emit("grappled", combatant=active_side["id"], target=None, location=None, caught=None, mode=mode,
              resistance=chance, roll=face, success=face <= chance)
    if face <= chance:
        won()


def _thrown(work: Round, who: dict[str, Any], other: dict[str, Any]) -> None:
    bonus = stats.damage_bonus(who["characteristics"]["str"], who["characteristics"]["siz"], work.options)
    face = work.dice.roll("location", 1, 20, combatant=who["id"]).total
    location = to_hit.location_of(work.options["melee_locations"], face)
    amount = max(0, parse("1d6").roll(work.dice, "damage", who["id"]) + parse(bonus).roll(work.dice, "bonus",
                                                                                          who["id"]))
    dex = work.dice.roll("dex_roll", 1, 100, combatant=other["id"]).total
    if percentile.bands(other["characteristics"]["dex"], work.options).degree(dex) in ("success", "special",
                                                                                      "critical"):
        amount = amount // 2
    layers = armor.layered(other["armor"].get(location, []), other["protection"], work.options)
    who["holding"] = None
    work.emit("damage_rolled", combatant=who["id"], target=other["id"], expression="1d6" + (
        bonus if bonus[0] in "+-" else ""), damage=amount, degree="success", location=location)
    if not other["prone"]:
        other["prone"] = True
        work.changes += 1
        work.emit("fell", combatant=other["id"], cause="thrown")
    _grapple_wound(work, other, location, max(0, amount - layers.ap // 2))


def _grapple_wound(work: Round, target: dict[str, Any], location: str, amount: int) -> None:
    before = status.status(target)
    if amount > 0:
        wound(work, target, location, amount)
    status_changed(work, target, before)
