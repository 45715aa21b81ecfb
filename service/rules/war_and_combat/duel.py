"""Simulated duels of `war-and-combat` (rules document §9): fighters set adjacent and facing, each engages
the nearest standing foe with the duel intention and tactic, until one side is out of the fight."""
from __future__ import annotations

import random
from typing import Any, Mapping

from service.rules.interface import StepResult, Verdict
from service.rules.matchups import entries
from service.rules.war_and_combat import hexes, wounds
from service.rules.war_and_combat.engine import ENGINE, status_of
from service.rules.war_and_combat.state import State, read_state


def _place(people: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Sides in facing columns one hex apart: the first side at q = 0 facing east, the others at q = 1
    facing west (rules document §9 setup), unless positions were sent."""
    if any("position" in p for p in people):
        return people
    sides = list(dict.fromkeys(p["side"] for p in people))
    rows: dict[str, int] = {}
    out = []
    for p in people:
        column = 0 if p["side"] == sides[0] else sides.index(p["side"])
        row = rows.get(p["side"], 0)
        rows[p["side"]] = row + 1
        out.append({**p, "position": {"q": column, "r": row}, "facing": 0 if column == 0 else 3})
    return out


class Duel:
    """The `DuelRules` of `war-and-combat`."""

    def read_matchup(self, data: Mapping[str, Any], path: tuple = ()) -> State:
        """A matchup's starting state (combatants in the §3 format, options of §10)."""
        found = entries(data, path)
        people = [{**e.combatant, "side": e.side} for e in found]
        try:
            return read_state({"combatants": _place(people), "options": data.get("options")}, path)
        except Exception as error:  # RulesError paths name `combatants.i`; a matchup names its side
            field = getattr(error, "field", None)
            if field and len(field) >= len(path) + 2 and field[len(path)] == "combatants":
                error.field = (*found[field[len(path) + 1]].path, *field[len(path) + 2:])  # type: ignore[attr-defined]
            raise

    def start(self, matchup: State) -> State:
        """The fight starts from the matchup's state."""
        return matchup

    def declare(self, matchup: State, state: State, rng: random.Random) -> list[dict[str, Any]]:
        """Every able fighter engages the nearest standing foe, walking toward him when out of reach."""
        people = {c["id"]: c for c in state.combatants}
        options = state.options
        able = {i for i, c in people.items() if not wounds.condition(c["wounds"], c["unconscious"], options).defeated}
        taken = {(c["position"]["q"], c["position"]["r"]) for c in state.combatants}
        out = []
        for ident in sorted(able, key=lambda i: list(people).index(i)):
            me = people[ident]
            here = (me["position"]["q"], me["position"]["r"])
            foes = [f for f in able if people[f]["side"] != me["side"]]
            if not foes:
                continue
            foe = min(foes, key=lambda f: (hexes.distance(here, _at(people[f])), list(people).index(f)))
            path, at = [], here
            reach = max(me["weapons"][0]["range"], 1)
            while hexes.distance(at, _at(people[foe])) > reach and len(path) < 10:
                options_next = [hexes.step(at, d) for d in range(6)]
                free = [h for h in options_next if h not in taken]
                if not free:
                    break
                at = min(free, key=lambda h: hexes.distance(h, _at(people[foe])))
                path.append({"q": at[0], "r": at[1]})
            out.append({"combatant": ident, "action": "engage", "target": foe,
                        "intention": options["duel_intention"], "tactic": options["duel_tactic"], "path": path})
        return out

    def verdict(self, matchup: State, state: State) -> Verdict:
        """Over when at most one side has a fighter still in the fight."""
        statuses = {c["id"]: status_of(None, c["id"], c, state.options) for c in state.combatants}
        up = {c["side"] for c in state.combatants if statuses[c["id"]] == "standing"}
        return Verdict(len(up) <= 1, next(iter(up)) if len(up) == 1 else None, statuses)

    def max_steps(self, matchup: State) -> int:
        """Option `max_rounds`."""
        return matchup.options["max_rounds"]

    def details(self, matchup: State, before: State, result: StepResult) -> dict[str, float]:
        """Additive counts: landed blows and criticals, flurries and their starting actions, finishing wounds,
        and rounds each side won the initiative (`initiative:<side>`)."""
        sides = {c["id"]: c["side"] for c in before.combatants}
        order = result.summary.get("order") or []
        out: dict[str, float] = {f"initiative:{sides[order[0]]}": 1} if order else {}
        last_wound: dict[str, tuple[str, str]] = {}
        for e in result.events:
            if e["type"] == "blow_landed":
                out["landed"] = out.get("landed", 0) + 1
                out["critical"] = out.get("critical", 0) + (1 if e["critical"] else 0)
            elif e["type"] == "flurry_started":
                out["flurries"] = out.get("flurries", 0) + len(e["actions"])
                out["flurry_actions"] = out.get("flurry_actions", 0) + sum(e["actions"].values())
            elif e["type"] == "wound_taken":
                last_wound[e["combatant"]] = (e["location"], e["severity"])
            elif e["type"] == "out_of_fight" and e["combatant"] in last_wound:
                key = "finish:" + ":".join(last_wound[e["combatant"]])
                out[key] = out.get(key, 0) + 1
        return out

    def summarize_details(self, matchup: State, totals: Mapping[str, float], trials: int) -> dict[str, Any]:
        """`finishing_wound` (share by location and severity), `critical_share`, `actions_per_flurry`."""
        finishes = {k[len("finish:"):]: v for k, v in totals.items() if k.startswith("finish:")}
        count = sum(finishes.values())
        landed = totals.get("landed", 0)
        flurries = totals.get("flurries", 0)
        return {"finishing_wound": {k: v / count for k, v in sorted(finishes.items())} if count else {},
                "critical_share": totals.get("critical", 0) / landed if landed else 0.0,
                "actions_per_flurry": totals.get("flurry_actions", 0) / flurries if flurries else 0.0}


def _at(c: Mapping[str, Any]) -> tuple[int, int]:
    return c["position"]["q"], c["position"]["r"]


DUEL = Duel()
