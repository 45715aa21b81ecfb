"""A blow that struck true, applied to the combatant it hit: POT, knock-back, armor, wounds, pain.

Seed: "Getting Hit: The POT of Blows", "Getting Hit: Knock-Back", "Getting Hit: The Virtue of Armor",
"Getting Hit: Wound Thresholds", "Getting Hit: Stunned by Pain" and "Getting Hit: Levels of Wounding".
The arithmetic is `damage.resolve_blow` (the same code the /damage calculator runs); this module adds
the checks the struck combatant then rolls and writes the result into the CS's board.
"""
from __future__ import annotations

from fractions import Fraction

from service.rules.tactical import armor, damage, potence
from service.rules.tactical.board import Board, pain_now
from service.rules.tactical.combat_state import Combatant, Layer, Weapon
from service.rules.tactical.events import BlowLanded, CheckRolled, StatusChanged
from service.rules.tactical.geometry import push_away
from service.rules.tactical.strike import Strike
from service.rules.tactical.task_resolution import chance as trt_chance
from service.rules.tactical.wounds import DEATH_DV, Stun


def land(board: Board, strike: Strike, heroic: bool, extra_pot: int = 0) -> damage.BlowResult:
    """Resolve the blow of a hit and apply it to the defender (digest section 17, step 4); `extra_pot` is
    the POT of a second blow struck in concert (F38)."""
    attacker, defender = board.people[strike.attacker], board.people[strike.defender]
    weapon = attacker.weapons[strike.weapon]
    options = _options(board, heroic, extra_pot)
    result = damage.resolve_blow(_attacker(board, attacker, strike), _weapon(weapon, strike.days_cocked),
                                 _target(board, defender, strike), strike.attack, options)
    layers = tuple(Layer(a.type, a.dr, a.rating) for a in result.armor_after)
    wounding = result.wounding
    defender = board.update(defender, armor=layers, wounds=min(11, wounding.total),
                            edged_blow_taken=defender.edged_blow_taken or weapon.edge == "edged")
    board.emit(BlowLanded(attacker.id, defender.id, result.pot, result.knockback_feet, result.pot_through_armor,
                          wounding.inflicted, wounding.total, wounding.level,
                          tuple({"type": a.type, "dr": a.dr, "durability": a.durability} for a in layers),
                          result.trace))
    if result.knockback_feet:
        _knocked_back(board, defender, attacker, result.knockback_feet, result.keep_feet_dv)
    _wound_status(board, board.people[defender.id], wounding.status)
    if result.stun is not None and board.people[defender.id].standing:
        _pain(board, board.people[defender.id], result.stun)
    return result


def concert_pot(board: Board, strike: Strike, weapon_index: int) -> int:
    """F38: the POT the second weapon's blow adds when two blows land in concert."""
    attacker = board.people[strike.attacker]
    return potence.blow_potence(_attacker(board, attacker, strike), _weapon(attacker.weapons[weapon_index])).pot


def _attacker(board: Board, attacker: Combatant, strike: Strike) -> potence.Attacker:
    charge = Fraction(str(board.speed_now.get(attacker.id, 0.0))) if attacker.id in board.charge_ready else 0
    if strike.mode != "melee":
        charge = 0
    return potence.Attacker(strength=attacker.attribute("STR"), modified_sta=attacker.attribute("mSTA"),
                            coordination=attacker.attribute("CRD"), charge_mph=Fraction(charge),
                            wounds=attacker.wounds)


def _weapon(weapon: Weapon, days_cocked: int = 0) -> potence.Weapon:
    grip = "bow" if weapon.ranged in ("bow", "short-bow", "sling") else weapon.grip
    grip = "crossbow" if weapon.ranged in ("light-crossbow", "heavy-crossbow") else grip
    if weapon.ranged in ("hurled-hilted", "hurled-hafted"):
        grip = "hurled"
    return potence.Weapon(grip=grip, size=weapon.size, weight_class=weapon.weight_class, edge=weapon.edge,
                          arrowhead_db=weapon.arrowhead_db, fixed_pot=weapon.fixed_pot, days_cocked=days_cocked)


def _target(board: Board, defender: Combatant, strike: Strike) -> damage.Target:
    layers = tuple(armor.layer(a.type, durability=a.durability) for a in defender.armor)
    moving = Fraction(str(board.speed_now.get(defender.id, 0.0))) if strike.mode == "opportunity" else Fraction(0)
    return damage.Target(modified_sta=defender.attribute("mSTA"), condition=defender.attribute("CND"),
                         pain_resistance=defender.attribute("P-RES"), armor=layers,
                         clothing_layers=defender.clothing_layers, wounds=defender.wounds,
                         moving_mph=moving, range_band=strike.range_band)


def _options(board: Board, heroic: bool, extra_pot: int = 0) -> damage.BlowOptions:
    return damage.BlowOptions(armor_wear=board.options.armor_wear, progression=board.options.progression,
                              heroic_double=heroic and board.options.heroic_doubles_pot, extra_pot=extra_pot)


def check(board: Board, who: Combatant, name: str, av: int, dv: int) -> bool:
    """A simple d100 check by `who` of his own AV against a DV on the TRT (e.g. P-RES vs pain)."""
    chance = trt_chance(av, dv, board.options.task_resolution)
    roll = board.d100(who.id)
    passed = roll.total <= chance
    board.emit(CheckRolled(who.id, name, av, dv, chance, passed, (roll,)))
    return passed


def _knocked_back(board: Board, defender: Combatant, attacker: Combatant, feet: int, dv: int) -> None:
    if board.options.knockback_moves:
        x, y = push_away(defender.x, defender.y, attacker.x, attacker.y, feet)
        defender = board.update(defender, x=round(x, 3), y=round(y, 3))
    if defender.standing and not check(board, defender, "keep-feet", defender.attribute("AGL"), dv):
        board.emit(StatusChanged(defender.id, "fell", "knocked off his feet by the blow"))


def _wound_status(board: Board, defender: Combatant, status: str) -> None:
    """10th wound: collapse and a P-RES check vs 55 or death; an 11th wound is death (RULINGS 13)."""
    if status == "dead" and defender.status != "dead":
        board.update(defender, status="dead")
        board.emit(StatusChanged(defender.id, "dead", "an eleventh wound"))
    elif status == "collapsed" and defender.status in ("standing", "unconscious"):
        survived = check(board, defender, "death", defender.attribute("P-RES"), DEATH_DV)
        board.update(defender, status="collapsed" if survived else "dead")
        board.emit(StatusChanged(defender.id, "collapsed" if survived else "dead", "the final Mortal wound"))


def _pain(board: Board, defender: Combatant, stun: Stun) -> None:
    """Stun by pain: P-RES check to stay conscious, then HRT check for the penalty (RULINGS 14)."""
    if not check(board, defender, "pain-consciousness", defender.attribute("P-RES"), stun.check_dv):
        board.update(defender, status="unconscious")
        board.emit(StatusChanged(defender.id, "unconscious", "stunned by pain"))
        return
    steady = check(board, defender, "pain-heart", defender.attribute("HRT"), stun.check_dv)
    penalty = stun.penalty_if_passed if steady else stun.penalty_if_failed
    if penalty > pain_now(defender):
        board.update(defender, pain_initial=penalty, pain_age=0)
        board.emit(StatusChanged(defender.id, "standing", "stunned by pain", penalty))
