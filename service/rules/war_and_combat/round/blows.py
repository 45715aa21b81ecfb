"""What a landed blow does (rules document §8): impact, the wound and its effects, resistance checks,
falls, stuns, and the secondary effect of a non-strike intention (*Strike Results Procedure*, *Wound
Effects*, *Secondary Effects*, COMBAT OPTIONS)."""
from __future__ import annotations

from typing import Any

from service.rules.war_and_combat import checks, damage, to_hit
from service.rules.war_and_combat.round.state import Round, roll_expression, status_of

NON_STRIKE = {"subdue": "subdual", "disarm": "disarm", "grapple": "grapple", "tackle": "tackle", "throw": "throw"}


def land(work: Round, attacker: str, defender: str, rolled: to_hit.Rolled, entry: dict[str, Any],
         missile: bool) -> None:
    """A landed blow: impact, wound and its effects, or a non-strike intention's secondary effect
    (*Strike Results Procedure*, *Wound Effects*, COMBAT OPTIONS)."""
    c_att, c_def, w = work.people[attacker], work.people[defender], work.weapon(attacker)
    intention = work.decl.get(attacker, {}).get("intention", "kill")
    attack_type = "strike" if missile or intention == "kill" else NON_STRIKE[intention]
    cap = w.get("impact_cap", c_att["strength"] + w["impact_mod"])
    if attack_type != "strike":
        cap = c_att["strength"]
    innate = c_def["innate_absorption"] if c_def["innate_absorption"] is not None \
        else work.options["innate_absorption"]
    blow = damage.make_blow(cap, rolled.margin if rolled.outcome == "critical" else 1, rolled.general or "chest",
                            c_def["size"], innate, c_def["armor"].get(rolled.general, {}), w, work.options,
                            attack_type)
    impact = damage.roll_impact(blow, work.dice, attacker)
    result = damage.land(blow, impact, wound=attack_type == "strike")
    entry.update(severity=result.severity, effective_impact=result.effective, penetrating=result.penetrating)
    work.events.add("blow_landed", combatant=attacker, target=defender, location=rolled.location,
                    critical=rolled.outcome == "critical", impact=impact, effective_impact=result.effective,
                    penetrating=result.penetrating, severity=result.severity)
    if attack_type != "strike":
        secondary(work, defender, attack_type, damage.column(result.effective, blow.limits))
        return
    if result.severity == "none":
        return
    was_out = work.out(defender)
    c_def["wounds"].append({"location": rolled.location, "severity": result.severity,
                            "penetrating": result.penetrating, "type": result.wound_type})
    work.events.add("wound_taken", combatant=defender, location=rolled.location, severity=result.severity,
                    penetrating=result.penetrating, wound_type=result.wound_type, effects=result.effects)
    for effect in result.effects:
        wound_effect(work, defender, effect, rolled.location)
    if not was_out and work.out(defender):
        work.events.add("out_of_fight", combatant=defender, status=status_of(work, defender))


def check(work: Round, ident: str, kind: str, attribute: str, tl: int) -> checks.CheckRoll:
    """A resistance check of the victim (*Wound Effects*, *Secondary Effects*)."""
    c = work.people[ident]
    bonus = c[attribute] + work.penalty(ident)
    rolled = checks.roll(kind, tl, bonus, work.options["tie_succeeds"], work.dice, ident)
    work.events.add("check_rolled", combatant=ident, kind=kind, tl=tl, total=rolled.total,
                    outcome=rolled.outcome)
    return rolled


def fall(work: Round, ident: str) -> None:
    """The fighter falls (DEF 5 + FR while he can move)."""
    if not work.people[ident]["fallen"]:
        work.people[ident]["fallen"] = True
        work.events.add("fell", combatant=ident)


def stun(work: Round, ident: str, expression: str) -> None:
    """No action for the rolled number of rounds (*Wound Effects › Stun*)."""
    rounds = roll_expression(expression, "stun", work.dice, ident)
    c = work.people[ident]
    c["stunned_rounds"] = max(c["stunned_rounds"], rounds)
    work.stunned.add(ident)
    work.flurry_actions[ident] = 0
    work.events.add("stunned", combatant=ident, rounds=rounds)


def wound_effect(work: Round, ident: str, effect: str, location: str) -> None:
    """Apply one wound effect (*Wound Effects*)."""
    if effect == "fumble_check":
        if check(work, ident, "fumble", "dex_mod", 10).outcome != "success":
            work.lose_action(ident, "fumble_check")
    elif effect == "stumble_check":
        if check(work, ident, "stumble", "agl_mod", 10).outcome != "success":
            fall(work, ident)
            work.lose_action(ident, "stumble_check")
    elif effect == "stun":
        stun(work, ident, work.options["stun_rounds"])
    elif effect == "fumble":
        work.lose_action(ident, "fumble")
    elif effect == "stumble":
        fall(work, ident)
        work.lose_action(ident, "stumble")
    elif effect == "disabled" and (location.endswith("leg") or location == "belly"):
        fall(work, ident)
    elif effect == "knockout":
        work.people[ident]["unconscious"] = True
        fall(work, ident)
        work.events.add("knocked_out", combatant=ident)


def secondary(work: Round, ident: str, attack_type: str, col: str) -> None:
    """A disarm, grapple, subdual, tackle or throw: the victim's check and its miss-by result (COMBAT
    OPTIONS, *Secondary Effects*)."""
    option = damage.combat_option(attack_type, col)
    attribute = {"dex": "dex_mod", "str": "str_mod", "agl": "agl_mod"}[option["check_attribute"]]
    if option["effect"] == "break":
        work.people[ident]["disarmed"] = True
        work.events.add("action_lost", combatant=ident, reason="weapon_broken")
        return
    kind = {"fumble": "fumble", "stumble": "stumble"}.get(option["effect"], "task")
    rolled = check(work, ident, kind, attribute, option["tl"])
    if rolled.outcome == "success":
        return
    effect = option["effect"]
    if rolled.outcome == "slip" or effect == "restrict":
        work.lose_action(ident, effect)
    elif effect == "fumble":
        work.people[ident]["disarmed"] = True
        work.lose_action(ident, "disarmed")
    elif effect == "stumble":
        fall(work, ident)
    elif effect == "shock":
        stun(work, ident, work.options["shock_failure_rounds"])
