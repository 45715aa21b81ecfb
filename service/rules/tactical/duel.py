"""Simulated tactical fights: a matchup, the fight policy as ordinary declarations, and the verdict.

Seed: "The Order of Play each CS" and "Resolving the Battle". The simulator's policy is what a table of
simple fighters would declare every CS: each standing combatant attacks with his first weapon, the foe
chosen when the action resolves (`target_policy`: the first foe still standing, or one at random), and
takes every Reprisal. A client can replay any simulated fight by sending these declarations to
`segments/resolve`. What the vectorised engine leaves out (positions, ranged fire, surprise, slash and
thrust, street clothes) is refused here, for both, with the field that asks for it.
"""
from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from typing import Any, Mapping

from service.rules.errors import RulesError
from service.rules.interface import StepResult, Verdict
from service.rules.matchups import entries
from service.rules.tactical.combat_state import Combatant, EncounterState, Options
from service.rules.tactical.state_io import read_combatant

MELEE_GRIPS = ("one-handed", "hand-and-a-half", "two-handed", "hurled")
POLICIES = {"first": "first-standing", "random": "random-standing"}
DEFAULTS: dict[str, Any] = {"method": "ratio", "heroic": True, "bumble": True, "armor_wear": True,
                            "reprisals": True, "progression": "triangular", "targeting": "first",
                            "max_segments": 100}
CHOICES = {"method": ("ratio", "linear"), "progression": ("triangular", "linear"), "targeting": tuple(POLICIES)}
MAX_SEGMENTS = 1000
POLICY = "attack"  # the one fight policy simulations play (`declarations`); others are refused
COUNTS = ("attacks", "hits", "heroics", "bumbles", "reprisals", "reprisal_hits")


@dataclass(frozen=True)
class DuelMatchup:
    """A checked matchup: side names, each combatant's side index, the opening encounter and options."""

    sides: tuple[str, ...]
    side_of: Mapping[str, int]
    state: EncounterState
    options: Mapping[str, Any]


def read_options(raw: Any, path: tuple = ("options",)) -> dict[str, Any]:
    """A simulation's rule switches, each checked, defaults filled in (RULINGS 3, 4; the digest's defaults)."""
    if raw is None:
        raw = {}
    if not isinstance(raw, Mapping):
        raise RulesError("options must be an object", path)
    out = dict(DEFAULTS)
    for key, value in raw.items():
        if key == "policy":
            _policy(value, (*path, key))
            continue
        if key not in DEFAULTS:
            raise RulesError(f"unknown option {key!r}", (*path, key))
        if isinstance(DEFAULTS[key], bool) and not isinstance(value, bool):
            raise RulesError(f"{key} must be true or false", (*path, key))
        if key in CHOICES and value not in CHOICES[key]:
            raise RulesError(f"{key} must be one of {list(CHOICES[key])}", (*path, key))
        if key == "max_segments" and (isinstance(value, bool) or not isinstance(value, int)
                                      or not 1 <= value <= MAX_SEGMENTS):
            raise RulesError(f"max_segments must be 1..{MAX_SEGMENTS}", (*path, key))
        out[key] = value
    return out


def _policy(value: Any, path: tuple) -> None:
    """Simulations play one fight policy, `attack`: body checks, side-swipes and tackles (and every other
    maneuver) are left out of the engine, so a policy asking for them is refused, never approximated."""
    if value != POLICY:
        raise RulesError(f"simulations play only the `{POLICY}` policy (every standing combatant attacks "
                         f"with his first weapon); {value!r} is left out: play body checks, side-swipes and "
                         "tackles as `body-check` declarations in an encounter or POST "
                         "/v1/tactical/segments/resolve", path)


def read_matchup(data: Any, path: tuple = ()) -> DuelMatchup:
    """A matchup both simulators can play, or RulesError naming what the engine leaves out."""
    found = entries(data, path)
    options = read_options(data.get("options"), (*path, "options"))
    sides = tuple(dict.fromkeys(entry.side for entry in found))
    people = tuple(_combatant(entry.combatant, entry.side, entry.path) for entry in found)
    _one_spot(people, [entry.path for entry in found])
    state = EncounterState(people, _encounter_options(options))
    return DuelMatchup(sides, {c.id: sides.index(c.side) for c in people}, state, options)


def _encounter_options(options: Mapping[str, Any]) -> Options:
    """The resolver's switches for a simulated fight; knock-back moves nobody (positions are left out)."""
    return Options(task_resolution=options["method"], heroic=options["heroic"],
                   heroic_doubles_pot=options["heroic"], bumble=options["bumble"],
                   armor_wear=options["armor_wear"], reprisals=options["reprisals"],
                   progression=options["progression"], knockback_moves=False)


def _combatant(raw: Mapping[str, Any], side: str, path: tuple) -> Combatant:
    combatant = read_combatant({**raw, "side": side}, path)
    for i, weapon in enumerate(combatant.weapons):
        at = (*path, "weapons", i)
        if weapon.ranged is not None or weapon.grip not in MELEE_GRIPS:
            raise RulesError(f"the simulator plays hand weapons only (grip one of {list(MELEE_GRIPS)}); "
                             "ranged fire is left out", (*at, "ranged" if weapon.ranged else "grip"))
        if weapon.attack != "common":
            raise RulesError("the simulator plays common strikes only; slash and thrust are left out",
                             (*at, "attack"))
    if combatant.surprise.state != "none" and combatant.surprise.cs_left > 0:
        raise RulesError("surprise is left out of simulations", (*path, "surprise"))
    if combatant.clothing_layers:
        raise RulesError("street clothes are left out of simulations", (*path, "clothing_layers"))
    return combatant


def _one_spot(people: tuple[Combatant, ...], paths: list[tuple]) -> None:
    """Positions are left out: everyone is engaged with every foe, so all must stand on one spot."""
    first = people[0]
    for person, path in zip(people, paths):
        if (person.x, person.y) != (first.x, first.y):
            raise RulesError("positions are left out of simulations (everyone fights everyone): give every "
                             "combatant the same position or none", (*path, "position"))


def declarations(matchup: DuelMatchup, state: EncounterState) -> list[dict[str, Any]]:
    """The fight policy for the next CS: every standing combatant with an action attacks with weapon 0."""
    policy = POLICIES[matchup.options["targeting"]]
    return [{"combatant": c.id, "action": "attack", "target_policy": policy, "weapon": 0}
            for c in state.combatants if c.standing and c.actions > 0]


def verdict(matchup: DuelMatchup, state: EncounterState) -> Verdict:
    """Over when at most one side has anyone standing; that side wins (none left: a draw)."""
    up = {matchup.side_of[c.id] for c in state.combatants if c.standing}
    over = len(up) <= 1
    winner = matchup.sides[next(iter(up))] if over and up else None
    return Verdict(over, winner, {c.id: c.status for c in state.combatants})


def count_events(events: list[dict[str, Any]]) -> Counter:
    """Attack counts of one CS: attacks, hits, Heroics, Bumbles, Reprisals and Reprisal hits."""
    counts: Counter = Counter()
    for event in events:
        if event["type"] != "attack":
            continue
        hit = event["outcome"] in ("heroic", "success")
        reprisal = event["mode"] == "reprisal"
        counts.update({"attacks": 1, "hits": int(hit), "heroics": int(event["outcome"] == "heroic"),
                       "bumbles": int(event["outcome"] == "bumble"), "reprisals": int(reprisal),
                       "reprisal_hits": int(reprisal and hit)})
    return counts


class TacticalDuel:
    """`DuelRules` of the tactical ruleset (the resolver-loop simulator and the engine's oracle)."""

    def read_matchup(self, data: Mapping[str, Any], path: tuple = ()) -> DuelMatchup:
        """See `read_matchup`."""
        return read_matchup(data, path)

    def start(self, matchup: DuelMatchup) -> EncounterState:
        """The encounter as the matchup gives it, before its first CS."""
        return matchup.state

    def declare(self, matchup: DuelMatchup, state: EncounterState, rng: random.Random) -> list[dict[str, Any]]:
        """See `declarations` (the policy needs no dice: a random target is drawn when the blow resolves)."""
        return declarations(matchup, state)

    def verdict(self, matchup: DuelMatchup, state: EncounterState) -> Verdict:
        """See `verdict`."""
        return verdict(matchup, state)

    def max_steps(self, matchup: DuelMatchup) -> int:
        """The `max_segments` option."""
        return int(matchup.options["max_segments"])

    def details(self, matchup: DuelMatchup, before: EncounterState, result: StepResult) -> dict[str, float]:
        """The attack counts of one CS (summed over fights)."""
        return dict(count_events(result.events))

    def summarize_details(self, matchup: DuelMatchup, totals: Mapping[str, float], trials: int) -> dict[str, Any]:
        """Counts per fight and the hit rates of attacks and of Reprisals."""
        attacks, reprisals = totals.get("attacks", 0), totals.get("reprisals", 0)
        return {"events": {name: int(totals.get(name, 0)) for name in COUNTS},
                "hit_rate": totals.get("hits", 0) / attacks if attacks else 0.0,
                "reprisal_hit_rate": totals.get("reprisal_hits", 0) / reprisals if reprisals else 0.0}


DUEL = TacticalDuel()
