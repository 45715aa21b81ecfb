"""The smoting round engine and duel rules behind encounters, `rounds/resolve` and simulations
(seed *Sequence of Play*; smoting.md sections 8, 9 and 12.8)."""
from __future__ import annotations

import copy
import random
from collections import Counter
from dataclasses import dataclass, replace
from typing import Any, Mapping

from service.rules.dice import DiceSource
from service.rules.errors import Contradiction, RulesError, UnknownName
from service.rules.interface import StepResult, Verdict
from service.rules.matchups import entries
from service.rules.options import read_options, whole
from service.rules.smoting import countdown, fighters
from service.rules.smoting.board import Board
from service.rules.smoting.options import OPTIONS

ACTIONS = ("attack", "move", "withdraw", "idle", "pass", "hold")
DEFENCES = ("none", "parry", "dodge", "block")
MOVES = ("zone", "battle", "trivial")
COUNTED = {"rank_lost": "ranks_lost", "hit": "hits", "injury": "injuries"}  # event -> detail counted by side
# (ranks lost and injuries by the side that suffers them, hits by the attacker's side)


@dataclass(frozen=True)
class State:
    """A round state: round counter, options, surprised sides, zones and combatants (canonical JSON)."""

    round: int
    options: Mapping[str, Any]
    surprise: tuple[str, ...]
    zones: tuple[Mapping[str, Any], ...]
    combatants: tuple[Mapping[str, Any], ...]


def _zones(raw: Any, path: tuple) -> tuple[dict[str, Any], ...]:
    if raw is None:
        return ()
    if not isinstance(raw, list) or len(raw) > 100:
        raise RulesError("must be a list of at most 100 zones", path)
    out = []
    for i, zone in enumerate(raw):
        where = (*path, i)
        if not isinstance(zone, Mapping) or not isinstance(zone.get("id"), str) or not zone["id"]:
            raise RulesError("a zone needs an id", (*where, "id"))
        adjacent = zone.get("adjacent", [])
        if not isinstance(adjacent, list) or not all(isinstance(a, str) for a in adjacent):
            raise RulesError("must be a list of zone ids", (*where, "adjacent"))
        neck = zone.get("bottleneck")
        if neck is not None:
            if not isinstance(neck, Mapping) or not isinstance(neck.get("to"), str):
                raise RulesError("a bottleneck needs `to` and `capacity`", (*where, "bottleneck"))
            neck = {"to": neck["to"], "capacity": whole(neck.get("capacity"), (*where, "bottleneck", "capacity"), 0, 100)}
        out.append({"id": zone["id"], "adjacent": list(adjacent), "bottleneck": neck})
    ids = [z["id"] for z in out]
    for i, zone in enumerate(out):
        if ids.index(zone["id"]) != i:
            raise Contradiction("zone ids must be unique", (*path, i, "id"))
        for j, other in enumerate(zone["adjacent"]):
            if other not in ids:
                raise UnknownName(f"no zone {other!r}", (*path, i, "adjacent", j))
    return tuple(out)


class Engine:
    """Round engine of smoting (see the module docstring)."""

    step = "round"

    def read_state(self, data: Mapping[str, Any], path: tuple = ()) -> State:
        """A state from JSON, every value checked (smoting.md sections 3 and 12.8)."""
        if not isinstance(data, Mapping):
            raise RulesError("a state is an object", path or None)
        options = read_options(OPTIONS, data.get("options"), (*path, "options"))
        people = data.get("combatants")
        if not isinstance(people, list) or not people:
            raise RulesError("a state needs combatants", (*path, "combatants"))
        combatants = tuple(fighters.read(c, (*path, "combatants", i)) for i, c in enumerate(people))
        ids = [c["id"] for c in combatants]
        for i, ident in enumerate(ids):
            if ids.index(ident) != i:
                raise Contradiction(f"combatant id {ident!r} is used twice", (*path, "combatants", i, "id"))
        zones = _zones(data.get("zones"), (*path, "zones"))
        surprise = data.get("surprise") or []
        if not isinstance(surprise, list) or not all(isinstance(s, str) for s in surprise):
            raise RulesError("must be a list of side names", (*path, "surprise"))
        zone_ids = {z["id"] for z in zones}
        for i, c in enumerate(combatants):
            for j, other in enumerate(c["engaged_with"]):
                if other not in ids or other == c["id"]:
                    raise UnknownName(f"no other combatant {other!r}", (*path, "combatants", i, "engaged_with", j))
            if zones and c["zone"] is not None and c["zone"] not in zone_ids:
                raise UnknownName(f"no zone {c['zone']!r}", (*path, "combatants", i, "zone"))
        return State(whole(data.get("round", 0), (*path, "round"), 0, 10**6), options, tuple(surprise), zones,
                     combatants)

    def write_state(self, state: State) -> dict[str, Any]:
        """The canonical JSON form."""
        return {"ruleset": "smoting", "round": state.round, "options": copy.deepcopy(dict(state.options)),
                "surprise": list(state.surprise), "zones": copy.deepcopy(list(state.zones)),
                "combatants": copy.deepcopy(list(state.combatants))}

    def check_declarations(self, state: State, declarations: list[dict[str, Any]],
                           path: tuple = ("declarations",)) -> list[dict[str, Any]]:
        """One declaration per combatant, naming known combatants, zones and possible actions."""
        people = {c["id"]: c for c in state.combatants}
        zones = {z["id"] for z in state.zones}
        seen, out = set(), []
        for i, raw in enumerate(declarations):
            out.append(_declaration(raw, people, zones, (*path, i)))
            if out[-1]["combatant"] in seen:
                raise Contradiction("one declaration per combatant", (*path, i, "combatant"))
            seen.add(out[-1]["combatant"])
        return out

    def resolve(self, state: State, declarations: list[dict[str, Any]], dice: DiceSource) -> StepResult:
        """One round (smoting.md section 8)."""
        people = {c["id"]: fighters.copy_of(c) for c in state.combatants}
        surprise = state.round == 0 and bool(state.surprise)
        board = Board(people, list(people), dict(state.options), {z["id"]: z for z in state.zones}, dice,
                      {i for i, c in people.items() if c["side"] in state.surprise} if surprise else set())
        summary = countdown.play(board, {d["combatant"]: d for d in declarations}, surprise)
        for ident, hand in board.hands.items():
            people[ident]["held_die"] = hand.held if board.active(ident) else None
        after = replace(state, round=state.round + 1, surprise=(),
                        combatants=tuple(people[c["id"]] for c in state.combatants))
        return StepResult(board.events, after, summary)


def _declaration(raw: Any, people: Mapping[str, Any], zones: set[str], path: tuple) -> dict[str, Any]:
    if not isinstance(raw, Mapping):
        raise RulesError("a declaration is an object", path)
    who = raw.get("combatant")
    if who not in people:
        raise UnknownName(f"no combatant {who!r}", (*path, "combatant"))
    action = raw.get("action", "pass")
    if action not in ACTIONS:
        raise RulesError(f"must be one of {list(ACTIONS)}", (*path, "action"))
    out: dict[str, Any] = {"combatant": who, "action": action, "defence": raw.get("defence", "none"),
                           "defend_if": raw.get("defend_if", "always"), "soak": raw.get("soak", "auto")}
    for key, choices in (("defence", DEFENCES), ("defend_if", ("always", "spare")),
                         ("soak", ("auto", "always", "never"))):
        if out[key] not in choices:
            raise RulesError(f"must be one of {list(choices)}", (*path, key))
    target = raw.get("target")
    if target is not None and (target not in people or target == who):
        raise UnknownName(f"no other combatant {target!r}", (*path, "target"))
    if action == "attack":
        if target is None:
            raise Contradiction("an attack needs a target", (*path, "target"))
        if people[who]["xposures"]["attack"] < 1:
            raise Contradiction("this combatant has no attack dice (xposures.attack)", (*path, "action"))
    if target is not None:
        out["target"] = target
    if action == "move":
        out["move"] = _move(raw.get("move"), people, zones, (*path, "move"))
    return out


def _move(raw: Any, people: Mapping[str, Any], zones: set[str], path: tuple) -> dict[str, Any]:
    if not isinstance(raw, Mapping) or raw.get("kind", "zone") not in MOVES:
        raise RulesError(f"a move needs a kind of {list(MOVES)}", (*path, "kind"))
    kind, to = raw.get("kind", "zone"), raw.get("to")
    if kind == "zone" and (not isinstance(to, str) or (zones and to not in zones)):
        raise Contradiction("a zone move needs a known zone in `to`", (*path, "to"))
    if kind == "battle" and to is not None and to not in people:
        raise Contradiction("a battle move's `to` is a combatant id", (*path, "to"))
    return {"kind": kind, "to": to}


class Duel:
    """Simulated fights (smoting.md section 9): every fighter InContact in one zone, attacking the first
    enemy still standing, defending with a spare die, soaking and taking stuns (option `duel_ai`)."""

    def read_matchup(self, data: Mapping[str, Any], path: tuple = ()) -> State:
        """The first state of a matchup: everyone in zone `field`, engaged with every enemy."""
        people = [{**e.combatant, "side": e.side} for e in entries(data, path)]
        for i, entry in enumerate(entries(data, path)):
            fighters.read({**entry.combatant, "side": entry.side}, entry.path)
        ids = [p["id"] for p in people]
        placed = [{**p, "zone": "field", "status": "in_contact",
                   "engaged_with": [q for q, other in zip(ids, people) if other["side"] != p["side"]]}
                  for p in people]
        return ENGINE.read_state({"combatants": placed, "options": data.get("options"),
                                  "zones": [{"id": "field"}]}, path)

    def start(self, matchup: State) -> State:
        return matchup

    def declare(self, matchup: State, state: State, rng: random.Random) -> list[dict[str, Any]]:
        """Attack the first enemy standing; defend with the best defence Xposure (parry, then dodge, then
        block) when a die is spare; `reckless` never defends."""
        reckless = state.options["duel_ai"] == "reckless"
        out = []
        for me in state.combatants:
            foes = [c["id"] for c in state.combatants if c["side"] != me["side"] and fighters.active(c)]
            if not fighters.active(me) or not foes or me["xposures"]["attack"] < 1:
                out.append({"combatant": me["id"], "action": "pass"})
                continue
            defence = next((k for k in ("parry", "dodge", "block") if me["xposures"][k] > 0), "none")
            out.append({"combatant": me["id"], "action": "attack", "target": foes[0],
                        "defence": "none" if reckless else defence, "defend_if": "spare", "soak": "auto"})
        return out

    def verdict(self, matchup: State, state: State) -> Verdict:
        standing = {c["side"] for c in state.combatants if fighters.active(c)}
        statuses = {c["id"]: _status(c) for c in state.combatants}
        return Verdict(len(standing) <= 1, next(iter(standing)) if len(standing) == 1 else None, statuses)

    def max_steps(self, matchup: State) -> int:
        return matchup.options["max_rounds"]

    def details(self, matchup: State, before: State, result: StepResult) -> dict[str, float]:
        kinds = Counter(e["type"] for e in result.events)
        out = {"traumas": kinds["trauma"], "killing_blows": sum(e.get("killing_blow", False) for e in result.events
                                                                 if e["type"] == "trauma"),
               "kills": kinds["killed"], "actions": len(result.summary["countdown"]), "rounds": 1}
        sides = {c["id"]: c["side"] for c in before.combatants}
        for e in result.events:
            if e["type"] in COUNTED:
                key = f"{COUNTED[e['type']]}:{sides[e['combatant']]}"
                out[key] = out.get(key, 0) + 1
        return out

    def summarize_details(self, matchup: State, totals: Mapping[str, float], trials: int) -> dict[str, Any]:
        sides = list(dict.fromkeys(c["side"] for c in matchup.combatants))
        n = max(trials, 1)
        return {"traumas": totals.get("traumas", 0) / n, "killing_blows": totals.get("killing_blows", 0) / n,
                "kia_rate": totals.get("kills", 0) / n,
                "mean_ranks_lost": {side: totals.get(f"ranks_lost:{side}", 0) / n for side in sides},
                "actions_per_round": totals.get("actions", 0) / max(totals.get("rounds", 0), 1)}


def _status(c: Mapping[str, Any]) -> str:
    flags = c["flags"]
    if flags["kia"]:
        return "killed"
    if flags["ooa"]:
        return "out_of_action"
    if flags["crushed"]:
        return "crushed"
    return "standing"


ENGINE = Engine()
DUEL = Duel()
