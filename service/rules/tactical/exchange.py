"""One attack in a Combat Segment: AV, the defence offered, the d100, and on a miss the Reprisal.

Seed: "Resolving the Battle", "Reprisal", "Resolving Ranged Attacks", "A Word about Defenses",
"Defenses & Defending", "Fields of Approach" and "Optional Rules: Heroic Effects". Blows that land go
to `blows.land` ("Getting Hit").
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from service.rules.tactical import ranged, to_hit
from service.rules.tactical.blows import concert_pot, land
from service.rules.tactical.demoralize import demoralize, lowered_guard
from service.rules.tactical.board import Board, can_initiate, pain_now, surprise_penalty
from service.rules.tactical.combat_state import Combatant
from service.rules.tactical.events import AttackRolled
from service.rules.tactical.geometry import field_of_approach
from service.rules.tactical.strike import Strike
from service.rules.tactical.task_resolution import chance as trt_chance
from service.rules.trace import Step


def resolve_strike(board: Board, strike: Strike) -> bool:
    """Roll one attack and apply what follows; True when it hit (seed "Resolving the Battle")."""
    attacker, defender = board.people[strike.attacker], board.people[strike.defender]
    weapon = attacker.weapons[strike.weapon]
    av, steps = _attack_value(board, attacker, strike.weapon)
    extra_pot = 0
    if strike.partner is not None:
        av, extra_pot = _combine(board, strike, attacker, av, steps)
    dv, defence, dv_steps = _defence(board, strike, attacker, defender)
    chance = trt_chance(av, dv, board.options.task_resolution)
    roll = board.d100(attacker.id)
    outcome = to_hit.outcome(roll.total, chance, board.options.heroic, board.options.bumble)
    trace = (*steps, *dv_steps,
             Step("RULINGS 4", f"TRT({av}, {dv}) by the {board.options.task_resolution} rule", chance),
             Step("RULINGS 6", f"d100 {roll.total} against {chance}: {outcome}", roll.total))
    board.emit(AttackRolled(attacker.id, defender.id, strike.mode, weapon.name, av, dv, defence, chance,
                            outcome, (roll,), trace))
    if outcome in ("heroic", "success"):
        result = land(board, strike, heroic=outcome == "heroic", extra_pot=extra_pot)
        if strike.intimidate is not None and result.pot_through_armor >= 1:
            demoralize(board, strike.attacker, strike.defender, strike.intimidate, result.pot_through_armor)
        return True
    if strike.mode == "melee" and board.options.reprisals:
        _reprisal(board, strike)
    return False


def _combine(board: Board, strike: Strike, attacker: Combatant, av: int, steps: list[Step]) -> tuple[int, int]:
    """F38: the lead AV + Combination SL, capped at both AVs added; in concert the second weapon is used
    too and its blow's POT joins the first's (returned as the extra POT)."""
    if strike.in_concert:
        second, more = _attack_value(board, attacker, strike.partner)
        steps += more
        cap = av + second
    else:
        cap = strike.combination_cap or av
    combined = min(av + strike.combination_sl, cap)
    steps.append(Step("Attack, Defense & Mixed Combinations (F38)",
                      f"AV {av} + Combination SL {strike.combination_sl}, at most {cap}", combined))
    extra = concert_pot(board, strike, strike.partner) if strike.in_concert else 0
    return combined, extra


def _attack_value(board: Board, attacker: Combatant, weapon: int) -> tuple[int, list[Step]]:
    board.uses[(attacker.id, weapon)] += 1
    adjustments = to_hit.Adjustments(attack_use=board.uses[(attacker.id, weapon)],
                                     attacker_stun_penalty=pain_now(attacker))
    return to_hit.adjusted_av(attacker.weapons[weapon].av, adjustments)


def _defence(board: Board, strike: Strike, attacker: Combatant, defender: Combatant
             ) -> tuple[int, str, list[Step]]:
    """The DV the defender offers: his best (or chosen) defence after reuse, Reprisal and penalties."""
    if not defender.standing:
        return 0, "none", [Step("Getting Hit: Levels of Wounding", f"{defender.id} is {defender.status}: "
                                                                   "no defence", 0)]
    if strike.mode in ("ranged", "stray"):
        return _ranged_defence(board, strike, defender)
    where = field_of_approach(defender.x, defender.y, defender.facing, attacker.x, attacker.y)
    if where == "rear":
        return 0, "none", [Step("Fields of Approach", "attacked from the Rear: no defence without warning", 0)]
    choice = _choose(board, defender, attacker.id, strike)
    adjustments = to_hit.Adjustments(defence_use=choice.use, free_defence_uses=choice.free,
                                     reprisal_same_weapon=choice.reprisal,
                                     surprise_penalty=surprise_penalty(defender),
                                     defender_stun_penalty=pain_now(defender))
    value, steps = to_hit.defence_value(choice.base, adjustments)
    value, more = to_hit.penalised_dv(value, adjustments)
    note = Step("Fields of Approach", f"{attacker.id} attacks from {defender.id}'s {where}", None)
    value, guard = lowered_guard(board, defender, attacker.id, value)
    return value, choice.name, [note, *steps, *more, *guard]


@dataclass(frozen=True)
class Option:
    """One defence the defender could offer: its DV this time, name, original value, use number, free
    uses, and whether it is the weapon that just missed defending the Reprisal."""

    value: int
    name: str
    base: int
    use: int
    free: int = 1
    reprisal: bool = False


def _choose(board: Board, defender: Combatant, attacker_id: str, strike: Strike) -> Option:
    """The defence the defender offers: the highest DV he actually has against this attack (first best:
    a parry on ties), among those his declared preference allows.

    A defender whose whole action is defence against this attacker ignores earlier uses ("A Word about
    Defenses"). A Reprisal parried with the weapon that just missed gets half of that weapon's DV as it
    stands before the failed attack, and is not a use; a later defence with it, if it had not defended
    before the Reprisal, is at full DV as if it were the first ("Reprisal").
    """
    preference = _preference(board, defender.id)
    whole = _defending_against(board, defender.id) == attacker_id
    options: list[Option] = []
    if preference in ("best", "parry"):
        options += [_parry(board, defender.id, i, weapon.parry, whole, strike)
                    for i, weapon in enumerate(defender.weapons) if weapon.parry and weapon.ranged is None]
    if preference in ("best", "dodge") and defender.dodge_dv and not strike.body_committed:
        use = 1 if whole else board.dodges[defender.id] + 1
        value = to_hit.reuse_value(defender.dodge_dv, use, defender.free_dodges)
        options.append(Option(value, "dodge", defender.dodge_dv, use, defender.free_dodges))
    if not options:
        return Option(0, "none", 0, 1)
    best = max(options, key=lambda o: o.value)  # max keeps the first of equals
    _count(board, defender.id, best)
    return best


def _parry(board: Board, who: str, weapon: int, parry: int, whole: bool, strike: Strike) -> Option:
    key = (who, weapon)
    if strike.mode == "reprisal" and weapon == strike.missed_weapon:
        use = max(1, board.uses[key])  # the failed attack itself does not diminish it
        return Option(to_hit.reprisal_value(to_hit.reuse_value(parry, use)), f"parry:{weapon}", parry, use,
                      reprisal=True)
    use = 1 if whole or key in board.recovered else board.uses[key] + 1
    return Option(to_hit.reuse_value(parry, use), f"parry:{weapon}", parry, use)


def _count(board: Board, defender: str, chosen: Option) -> None:
    if chosen.name == "dodge":
        board.dodges[defender] += 1
        return
    key = (defender, int(chosen.name.split(":")[1]))
    if chosen.reprisal:
        if not board.parried[key]:
            board.recovered.add(key)
        return
    board.uses[key] = 1 if key in board.recovered else board.uses[key] + 1  # recovered: this was use 1
    board.parried[key] += 1
    board.recovered.discard(key)


def _ranged_defence(board: Board, strike: Strike, defender: Combatant) -> tuple[int, str, list[Step]]:
    use = board.dodges[defender.id] + 1
    board.dodges[defender.id] += 1
    dodge = to_hit.reuse_value(defender.dodge_dv, use, defender.free_dodges)
    mph = Fraction(str(board.speed_now.get(defender.id, 0.0)))
    target = ranged.Target(aware=defender.aware, dodge_dv=dodge, agl_mod=defender.mod("AGL"), moving_mph=mph)
    value, steps = ranged.ranged_dv(target, strike.range_dv or 0)
    adjustments = to_hit.Adjustments(surprise_penalty=surprise_penalty(defender),
                                     defender_stun_penalty=pain_now(defender))
    value, more = to_hit.penalised_dv(value, adjustments)
    if strike.dv_shift:
        value += strike.dv_shift
        more.append(Step("Misses & Stray Fire", f"size modifier {strike.dv_shift:+d}", value))
    return value, "dodge" if defender.aware else "none", [*steps, *more]


def _preference(board: Board, who: str) -> str:
    declared = board.declaration(who, 1)
    return declared.defence if declared else "best"


def _defending_against(board: Board, who: str) -> str | None:
    declared = board.declaration(who, 1)
    return declared.target if declared and declared.action == "defend" else None


def _reprisal(board: Board, strike: Strike) -> None:
    """On a melee miss the defender may strike back at once or break off ("Reprisal")."""
    offer_reprisal(board, strike.defender, strike.attacker, strike.weapon)


def offer_reprisal(board: Board, defender_id: str, attacker_id: str, missed_weapon: int | None,
                   body_committed: bool = False) -> None:
    """"Reprisal": the defender the attack failed against strikes back at once, unless he declared
    otherwise; after a body check (`body_committed`) the attacker may not Dodge it (Body Check passages)."""
    defender = board.people[defender_id]
    declared = board.declaration(defender.id, 1)
    choice = declared.reprisal if declared else "attack"
    if choice != "attack" or not can_initiate(defender):
        return
    weapon = _melee_weapon(defender, declared.weapon if declared else 0)
    if weapon is None:
        return
    resolve_strike(board, Strike(defender.id, attacker_id, weapon, "common", "reprisal",
                                 missed_weapon=missed_weapon, body_committed=body_committed))


def _melee_weapon(combatant: Combatant, preferred: int) -> int | None:
    if combatant.weapons[preferred].ranged is None:
        return preferred
    for i, weapon in enumerate(combatant.weapons):
        if weapon.ranged is None:
            return i
    return None
