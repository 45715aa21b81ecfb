"""The `ars-magica` round engine (COMBAT SEQUENCE): declarations, movement, first missiles, melee, second
missiles, magic, fatigue - one round from a state, checked declarations and a DiceSource."""
from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from service.rules.ars_magica import phases, state
from service.rules.ars_magica.fatigue import fatigue_roll
from service.rules.ars_magica.melee import melee
from service.rules.ars_magica.options import LOCATIONS, OPTIONS
from service.rules.ars_magica.state import State
from service.rules.ars_magica.work import Round
from service.rules.dice import DiceSource
from service.rules.errors import Contradiction, RulesError, UnknownName
from service.rules.interface import StepResult
from service.rules.options import read_options, whole
from service.rules.rounding import exact

ACTIONS = ("attack", "missile", "move", "defend", "desperate_defence", "all_out_prepare", "all_out_attack", "cast",
           "none")
ROLES = ("initiative", "attack", "defence", "damage", "soak", "botch", "botch_index", "missile", "fatigue", "cast")
TARGETED = ("attack", "missile", "all_out_attack")
TWO_WEAPONS = ("attack_twice", "attack_and_defend", "defend_twice")


LAST_ROUND = 1_000_000  # the state's own bound: a round past it could not be written back


class Engine:
    """One round at a time (`step` is "round")."""

    step = "round"

    def read_state(self, data: Mapping[str, Any], path: tuple = ()) -> State:
        """The state from JSON (§12.6), options checked against the ruleset's OptionSpecs."""
        if not isinstance(data, Mapping):
            raise RulesError("a state is an object", path or None)
        options = read_options(OPTIONS, data.get("options"), (*path, "options"))
        return state.read_state(data, options, path)

    def write_state(self, current: State) -> dict[str, Any]:
        """The canonical JSON form of a state."""
        return state.write_state(current)

    def check_declarations(self, current: State, declarations: list[dict[str, Any]],
                           path: tuple = ("declarations",)) -> list[dict[str, Any]]:
        """Declarations in canonical form; unknown combatants or targets, a second declaration for one
        combatant, or an impossible action answer 422 naming the declaration's field."""
        if current.round >= LAST_ROUND:
            raise Contradiction(f"an encounter counts at most {LAST_ROUND} rounds", ("state", "round"))
        people, seen, out = current.by_id(), set(), []
        for i, raw in enumerate(declarations):
            where = (*path, i)
            d = _canonical(raw, where)
            who = people.get(d["combatant"])
            if who is None or d["combatant"] in seen:
                raise UnknownName("unknown combatant, or one declared twice", (*where, "combatant"))
            seen.add(d["combatant"])
            _possible(d, who, people, current, where)
            out.append(d)
        return out

    def resolve(self, current: State, declarations: list[dict[str, Any]], dice: DiceSource) -> StepResult:
        """One round (COMBAT SEQUENCE); the summary carries `initiative`, `melee_order`, `missile_phases`."""
        dice.check_queues({role: 10 for role in ROLES}, combatants=[c["id"] for c in current.combatants], first=0)
        work = Round(current, declarations, dice)
        phases.declarations(work)
        phases.move(work)
        first = phases.missile_phase(work, "first")
        initiative, order = melee(work)
        second = phases.missile_phase(work, "second")
        phases.magic(work)
        for ident in work.order:
            if work.action(ident) == "all_out_attack":
                fatigue_roll(work, ident, 6, "all_out_attack")
        _end(work)
        after = State(work.number, current.options, work.combatants())
        work.emit("round_ended", standing=[i for i in work.order if work.able(i)])
        return StepResult(work.events, after, {"initiative": initiative, "melee_order": order,
                                               "missile_phases": {"first": first, "second": second}})


def _end(work: Round) -> None:
    """Stances for the next round and effects that have run out."""
    for ident in work.order:
        person = work.people[ident]
        person["stance"] = "all_out_ready" if work.action(ident) == "all_out_prepare" and work.able(ident) else "normal"
        person["effects"] = [e for e in person["effects"] if e["until"] is None or e["until"] > work.number]
        if work.action(ident) not in ("missile",) and person["missile_first_round"] is not None:
            person["missile_first_round"] = None


def _canonical(raw: Any, where: tuple) -> dict[str, Any]:
    if not isinstance(raw, Mapping):
        raise RulesError("a declaration is an object", where)
    action = raw.get("action", "none")
    if action not in ACTIONS:
        raise RulesError(f"must be one of {list(ACTIONS)}", (*where, "action"))
    move = raw.get("move_yd", 0)
    if isinstance(move, bool) or not isinstance(move, (int, float)) or not math.isfinite(move) or abs(move) > 1000:
        raise RulesError("must be a number of yards between -1000 and 1000", (*where, "move_yd"))
    two = raw.get("two_weapons")
    if two is not None and two not in TWO_WEAPONS:
        raise RulesError(f"must be one of {list(TWO_WEAPONS)} or null", (*where, "two_weapons"))
    location = raw.get("location")
    if location is not None and location not in LOCATIONS:
        raise RulesError(f"must be one of {list(LOCATIONS)}", (*where, "location"))
    hold = raw.get("hold_ground", False)
    if not isinstance(hold, bool):
        raise RulesError("must be true or false", (*where, "hold_ground"))
    return {"combatant": raw.get("combatant"), "action": action, "target": raw.get("target"), "hold_ground": hold,
            "two_weapons": two, "move_yd": int(move) if float(move).is_integer() else move,
            "spell": _spell(raw.get("spell"), (*where, "spell")), "location": location}


def _spell(raw: Any, where: tuple) -> dict[str, int] | None:
    if raw is None:
        return None
    if not isinstance(raw, Mapping):
        raise RulesError("a spell is {technique, form, level}", where)
    return {k: whole(raw.get(k, 0), (*where, k), 0, 200) for k in ("technique", "form", "level")}


def _possible(d: dict[str, Any], who: dict[str, Any], people: dict, current: State, where: tuple) -> None:
    options = current.options
    acting = d["action"] not in ("none", "move")
    if acting and not state.able(who, options):
        raise RulesError(f"{who['id']} cannot act ({state.status(who, options)})", (*where, "action"))
    if (d["action"] in TARGETED or d["target"] is not None) and (
            d["target"] not in people or d["target"] == d["combatant"]):
        raise RulesError("a target is another combatant of this state", (*where, "target"))
    if d["action"] == "all_out_attack" and who["stance"] != "all_out_ready":
        raise RulesError("an all-out attack needs a preparing round first (all_out_prepare)", (*where, "action"))
    if d["action"] == "missile" and not _missile(who, options):
        raise RulesError("a missile needs a missile weapon", (*where, "action"))
    if d["action"] == "cast" and d["spell"] is None:
        raise RulesError("a casting needs a spell {technique, form, level}", (*where, "spell"))
    if d["two_weapons"] is not None and who["off_hand"] is None:
        raise RulesError("two weapons need an off_hand weapon", (*where, "two_weapons"))
    if d["move_yd"] and abs(exact(d["move_yd"])) > phases.allowance(who, options, acting):
        raise RulesError(f"at most {phases.allowance(who, options, acting)} yards this round", (*where, "move_yd"))


def _missile(who: dict[str, Any], options: Mapping[str, Any]) -> bool:
    from service.rules.ars_magica.totals import weapon_of
    return weapon_of(who["weapon"], options["weapon_pack"], ("weapon",)).missile


ENGINE = Engine()
