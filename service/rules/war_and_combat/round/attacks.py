"""One attack roll (rules document §8): the defender's state for Defense, a melee strike, and missile fire
with strays into a melee (*Resolution of Attacks*, *Ranged Strike Procedure*, MOVING TARGET MODIFIERS TO
RANGED ATTACKS, *Firing Into a Mêlée*, *Missed Shots*)."""
from __future__ import annotations

from fractions import Fraction
from typing import Any

from service.rules.errors import RulesError
from service.rules.war_and_combat import hexes, task, to_hit, wounds
from service.rules.war_and_combat.round.blows import land
from service.rules.war_and_combat.round.state import Round


def defender_state(work: Round, attacker: str, defender: str, turned: set[str], indefensible: bool) -> str:
    """The defender's state for Defense: wounds and falls first, then where the attacker stands."""
    if indefensible:
        return "defenceless"
    if defender in work.surprised:
        return "unaware"
    c = work.people[defender]
    state = wounds.defence_state(work.cond(defender), c["fallen"], defender in work.stunned)
    if state != "normal":
        return state
    where = hexes.side_of(c["facing"], work.pos(defender), work.pos(attacker))
    if where == "rear":
        return "rear"
    if where == "flank":
        return "flank"
    return "turned" if defender in turned else "normal"


def strike(work: Round, attacker: str, defender: str, group: list[str], turned: set[str], record: dict[str, Any],
           indefensible: bool = False) -> bool:
    """One melee attack (*Resolution of Attacks*): returns whether it landed."""
    c_def = work.people[defender]
    state = defender_state(work, attacker, defender, turned, indefensible)
    tl = task.defence(c_def["fighter_rank"], c_def["agl_mod"], state, work.options)
    if work.options["penalties_apply_to_defence"]:
        tl += work.penalty(defender)
    bonus = work.attack_bonus(attacker, False) or 0
    question = to_hit.Question("melee", tl, bonus, work.armour_bonuses(defender))
    rolled = to_hit.roll(question, work.options, work.dice, attacker)
    work.events.add("attack_rolled", combatant=attacker, target=defender, total=rolled.total, tl=tl,
                    state=state, outcome=rolled.outcome, indefensible=indefensible)
    entry = {"attacker": attacker, "defender": defender, "total": rolled.total, "tl": tl,
             "outcome": rolled.outcome, "location": rolled.location, "severity": None, "effective_impact": None,
             "penetrating": None}
    record["attacks"].append(entry)
    if rolled.outcome == "glance":
        work.events.add("glanced", combatant=attacker, target=defender, location=rolled.location)
    if rolled.outcome in ("miss", "glance"):
        return False
    land(work, attacker, defender, rolled, entry, missile=False)
    return True


def shoot(work: Round, ident: str, d: dict[str, Any]) -> None:
    """One arrow at the declared target, in the movement or the adjustment phase; a miss into a melee
    strikes at a random figure beside the target as if shot with skill -5 (*Ranged Strike Procedure*,
    MOVING TARGET MODIFIERS TO RANGED ATTACKS, *Firing Into a Mêlée*, *Missed Shots*)."""
    target = d.get("target")
    if target not in work.people or work.out(target):
        return
    w = work.weapon(ident)
    distance = Fraction(hexes.distance(work.pos(ident), work.pos(target)) * 2)
    try:
        band = to_hit.missile_band(distance, Fraction(w["base_range_m"]))
    except RulesError:
        work.events.add("shot", combatant=ident, target=target, outcome="out_of_range")
        return
    pace = task.pace_penalty(d.get("pace", "walk"), work.options) if d.get("path") else 0
    bystanders = sorted(o for o in work.ids if o not in (ident, target) and not work.out(o)
                        and hexes.distance(work.pos(o), work.pos(target)) == 1)
    crowded = any(work.hostile(target, o) for o in bystanders)
    rolled = arrow(work, ident, target, band, crowded, (work.attack_bonus(ident, True) or 0) + pace, False)
    if rolled.outcome == "miss" and crowded:
        pick = work.dice.roll("stray", 1, len(bystanders), combatant=ident).total
        skill = work.weapon(ident)["skill"]
        arrow(work, ident, bystanders[pick - 1], band, False,
                   (work.attack_bonus(ident, True) or 0) - skill - 5 + pace, True)


def arrow(work: Round, ident: str, target: str, band: str, crowded: bool, bonus: int, stray: bool) -> to_hit.Rolled:
    """Roll one arrow against a figure and land it."""
    t = work.people[target]
    state = "aware_evading" if work.can_act(target) and not stray else "unaware_unmoving"
    tl = to_hit.missile_tl(state, band, crowded, {"fighter_rank": t["fighter_rank"], "agl_mod": t["agl_mod"]},
                           work.options, [])
    rolled = to_hit.roll(to_hit.Question("missile", tl, bonus, work.armour_bonuses(target)), work.options, work.dice,
                         ident)
    work.events.add("shot", combatant=ident, target=target, band=band, total=rolled.total, tl=tl,
                    outcome=rolled.outcome, stray=stray)
    entry = {"attacker": ident, "defender": target, "total": rolled.total, "tl": tl, "outcome": rolled.outcome,
             "location": rolled.location, "severity": None, "effective_impact": None, "penetrating": None}
    if rolled.outcome == "glance":
        work.events.add("glanced", combatant=ident, target=target, location=rolled.location)
    if rolled.outcome in ("hit", "critical"):
        land(work, ident, target, rolled, entry, missile=True)
    return rolled
