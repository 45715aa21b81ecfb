"""Body checks, side-swipes and tackles inside a Combat Segment (the Body Check passages under
"Opportunity Actions"; F39, F40).

A `body-check` declaration is resolved in its pass's Resolution phase, once the attacker has closed to
the foe's 5-ft Zone. Both values come from `body_check` (the calculator's own functions): the attacker's
F39 sum with shield Size, armor layers and the speed he moved at, against the target's bare sum or his
Dodge plus the modified-STA bonus (whichever is better, unless he declared `dodge` or is struck from the
Rear). A tackle adds the speed difference to the faster side. Both roll (RULINGS 5); the loser is bounced
F40 feet (RULINGS 20: impact speed + the other's mSTA excess, either direction), a successful tackle bears the target down, a successful body check calls for the footing check
and a dodged one for the attacker's, and a foe who stood or dodged it may take his Reprisal, which the
committed attacker cannot Dodge.
"""
from __future__ import annotations

from service.rules.rounding import round_half_up
from service.rules.tactical import body_check, to_hit
from service.rules.tactical.blows import check
from service.rules.tactical.board import Board, pain_now, surprise_penalty
from service.rules.tactical.body_check_declaration import BodyCheckSpec
from service.rules.tactical.combat_state import Combatant
from service.rules.tactical.contest import Check, describe, winner
from service.rules.tactical.declarations import Declaration
from service.rules.tactical.demoralize import lowered_guard
from service.rules.tactical.events import ActionLost, BodyChecked, StatusChanged
from service.rules.tactical.exchange import offer_reprisal
from service.rules.tactical.geometry import distance, field_of_approach, push_away
from service.rules.tactical.movement_phase import BODY_REACH
from service.rules.tactical.task_resolution import chance as trt_chance
from service.rules.trace import Step

HEADING = body_check.HEADING


def play_body_check(board: Board, declaration: Declaration) -> None:
    """Resolve one declared body check, side-swipe or tackle against its target ("Opportunity Actions":
    the Body Check and Tackling passages; F39, F40)."""
    spec = declaration.body_check or BodyCheckSpec()
    attacker, target = board.people[declaration.combatant], board.people[declaration.target or ""]
    lost = _why_not(board, attacker, target, spec)
    if lost:
        board.emit(ActionLost(attacker.id, lost))
        return
    att = _body(board, attacker, spec.str_mod, spec.shield_size)
    dfd = _body(board, target, spec.target_str_mod)
    av, dv, defence, steps = _values(board, attacker, target, spec, att, dfd)
    method = board.options.task_resolution
    a = Check(trt_chance(av, dv, method), board.d100(attacker.id))
    d = Check(trt_chance(dv, av, method), board.d100(target.id))
    result = winner(a.margin, d.margin)
    steps += [Step("RULINGS 5", describe(attacker.id, a), a.margin),
              Step("RULINGS 5", describe(target.id, d), d.margin)]
    outcome, role, feet = _outcome(result, spec, defence, att, dfd, board.speed_now.get(target.id, 0.0) > 0)
    bounced = {"attacker": attacker.id, "defender": target.id}.get(role or "")
    steps.append(Step(f"{HEADING} (F40)", f"{result}: {outcome}" + (f", {bounced} bounced {feet} ft"
                                                                    if bounced else ""), feet))
    footing = body_check.footing(att, dfd, board.options.progression)
    if outcome in ("defender-bounced", "dodged"):
        steps.append(footing[2])
    board.emit(BodyChecked(attacker.id, target.id, spec.kind, defence, av, dv, a.chance, d.chance, outcome,
                           bounced, feet, (a.roll, d.roll), tuple(steps)))
    _aftermath(board, attacker.id, target.id, outcome, feet, footing)


def _values(board: Board, attacker: Combatant, target: Combatant, spec: BodyCheckSpec, att: body_check.Body,
            dfd: body_check.Body) -> tuple[int, int, str, list[Step]]:
    """Both sides' values: F39 against a stand or a Dodge, the tackle's speed gap, then the conditions."""
    av, steps = body_check.body_av(att, spec.kind, board.options.progression)
    dv, defence, more = _defence(board, attacker, target, att, dfd)
    steps += more
    if spec.kind == "tackle":
        extra_a, extra_d = body_check.tackle_speeds(att, dfd)
        av, dv = av + extra_a, dv + extra_d
        steps.append(Step(HEADING, f"speed difference to the faster side: +{extra_a} / +{extra_d}", None))
    av, dv, more = _penalties(board, attacker, target, av, dv)
    return av, dv, defence, [*steps, *more]


def _why_not(board: Board, attacker: Combatant, target: Combatant, spec: BodyCheckSpec) -> str:
    """Why the declared maneuver cannot be made now ("" when it can)."""
    if not target.standing:
        return f"{target.id} is {target.status}: nobody standing to {spec.kind}"
    gap = distance(attacker.x, attacker.y, target.x, target.y)
    if gap > BODY_REACH:
        return f"{target.id} is {gap:.1f} ft away, out of reach of a {spec.kind}"
    if spec.kind == "tackle" and not 0 < attacker.speed_mph <= board.speed_now.get(attacker.id, 0.0):
        return "a tackle is launched at full speed, kept through the movement phase before it"
    return ""


def _body(board: Board, person: Combatant, str_mod: int, shield_size: int = 0) -> body_check.Body:
    """One party as the Body Check passages count him: sheet numbers, the speed he moved at this CS, and
    every worn layer that is not a shield (a shield counts by its Size instead)."""
    layers = sum(1 for layer in person.armor if not layer.type.endswith("shield"))
    return body_check.Body(agl_mod=person.mod("AGL"), modified_sta=person.attribute("mSTA"), str_mod=str_mod,
                           strength=person.attribute("STR"),
                           speed_mph=round_half_up(board.speed_now.get(person.id, 0.0)),
                           shield_size=shield_size, armor_layers=layers)


def _defence(board: Board, attacker: Combatant, target: Combatant, att: body_check.Body, dfd: body_check.Body
             ) -> tuple[int, str, list[Step]]:
    """Stand (the bare F39 sum) or Dodge (+1 per point of mSTA short of the attacker's), whichever the
    target's declared `defence` allows and is higher (ties stand); no Dodge against one from the Rear."""
    stand, steps = body_check.body_av(dfd, "tackle", board.options.progression)
    declared = board.declaration(target.id, 1)
    preference = declared.defence if declared else "best"
    rear = field_of_approach(target.x, target.y, target.facing, attacker.x, attacker.y) == "rear"
    if rear or preference not in ("best", "dodge") or not target.dodge_dv:
        return stand, "stand", steps
    use = board.dodges[target.id] + 1
    dodge, step = body_check.dodge_dv(to_hit.reuse_value(target.dodge_dv, use, target.free_dodges), dfd, att)
    if preference == "best" and stand >= dodge:
        return stand, "stand", steps
    board.dodges[target.id] += 1
    return dodge, "dodge", [step]


def _penalties(board: Board, attacker: Combatant, target: Combatant, av: int, dv: int
               ) -> tuple[int, int, list[Step]]:
    """The prevailing conditions: stun and surprise penalties, and a guard lowered by intimidation (F41)."""
    av, steps = to_hit.adjusted_av(av, to_hit.Adjustments(attacker_stun_penalty=pain_now(attacker)))
    dv, more = to_hit.penalised_dv(dv, to_hit.Adjustments(surprise_penalty=surprise_penalty(target),
                                                          defender_stun_penalty=pain_now(target)))
    dv, guard = lowered_guard(board, target, attacker.id, dv)
    return av, dv, [*steps[1:], *more, *guard]


def _outcome(result: str, spec: BodyCheckSpec, defence: str, att: body_check.Body, dfd: body_check.Body,
             both_moving: bool) -> tuple[str, str | None, int]:
    """(outcome, who is bounced, feet): F40 with RULINGS 20 for the loser, a successful Dodge bounces
    nobody; equal margins or two failures stop both."""
    if result == "a":
        if spec.kind == "tackle":
            return "borne-down", None, 0
        return "defender-bounced", "defender", body_check.bounce_feet(att, dfd, both_moving, "defender")
    if result == "b":
        if defence == "dodge":
            return "dodged", None, 0
        return "attacker-bounced", "attacker", body_check.bounce_feet(att, dfd, both_moving, "attacker")
    return "both-stop", None, 0


def _aftermath(board: Board, attacker_id: str, target_id: str, outcome: str, feet: int,
               footing: tuple[int, tuple[str, ...], Step]) -> None:
    """Bounce, fall and footing checks, then the Reprisal of a target who stood or dodged it."""
    ids = {"attacker": attacker_id, "defender": target_id}
    footing_dv, who, _ = footing
    if outcome == "defender-bounced":
        _bounce(board, target_id, attacker_id, feet)
        for role in who:
            _keep_feet(board, ids[role], footing_dv, "after the body check")
    elif outcome == "attacker-bounced":
        _bounce(board, attacker_id, target_id, feet)
    elif outcome == "borne-down":
        board.emit(StatusChanged(target_id, "fell", f"borne to the ground by {attacker_id}'s tackle"))
    elif outcome == "dodged":
        _keep_feet(board, attacker_id, footing_dv, f"his weight met no resistance when {target_id} dodged")
    if outcome in ("attacker-bounced", "dodged") and board.options.reprisals:
        offer_reprisal(board, target_id, attacker_id, None, body_committed=True)


def _bounce(board: Board, who: str, off: str, feet: int) -> None:
    if feet and board.options.knockback_moves:
        person, other = board.people[who], board.people[off]
        x, y = push_away(person.x, person.y, other.x, other.y, feet)
        board.update(person, x=round(x, 3), y=round(y, 3))


def _keep_feet(board: Board, who: str, dv: int, why: str) -> None:
    person = board.people[who]
    if person.standing and not check(board, person, "keep-feet", person.attribute("AGL"), dv):
        board.emit(StatusChanged(who, "fell", f"lost his footing: {why}"))
