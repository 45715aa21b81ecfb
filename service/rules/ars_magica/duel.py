"""Monte Carlo duels of `ars-magica` (document §9): the simulated fighters' policy as ordinary declarations,
when a fight is over, and the `details` counts (levels lost by the loser, botch and exceptional rates, how
often the initiative winner wins the round)."""
from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from service.rules.ars_magica import ladders, state
from service.rules.ars_magica.engine import ENGINE
from service.rules.ars_magica.state import State
from service.rules.interface import StepResult, Verdict
from service.rules.matchups import entries

STRESS_ROLLS = ("attack_rolled", "defence_rolled", "damage_rolled")


class Duel:
    """Everyone fights the nearest able foe; option `ai_stance` picks all-out attacks or desperate defence."""

    def read_matchup(self, data: Mapping[str, Any], path: tuple = ()) -> State:
        """A matchup's starting state (combatants in the encounter format, each with its side)."""
        people = [{**e.combatant, "side": e.side} for e in entries(data, path)]
        return ENGINE.read_state({"combatants": people, "options": data.get("options"),
                                  "round": data.get("round", 0)}, path)

    def start(self, matchup: State) -> State:
        """Fights begin from the matchup's combatants at its round (a stored encounter's round, when the
        matchup carries one, keeps timed effects and missile schedules in step; else 0)."""
        return State(matchup.round, matchup.options, matchup.combatants)

    def declare(self, matchup: State, current: State, rng: random.Random) -> list[dict[str, Any]]:
        """Each able fighter attacks (or shoots) the first able foe it is engaged with, else the first able foe."""
        out = []
        for c in current.combatants:
            if not state.able(c, current.options):
                continue
            foes = [f for f in current.combatants if f["side"] != c["side"] and state.able(f, current.options)]
            if not foes:
                continue
            engaged = [f for f in foes if f["id"] in c["engaged_with"]]
            target = (engaged or foes)[0]
            out.append({"combatant": c["id"], "action": _action(c, target, current), "target": target["id"]})
        return out

    def verdict(self, matchup: State, current: State) -> Verdict:
        """Over once at most one side has an able fighter; statuses are the ladders' words."""
        statuses = {c["id"]: state.status(c, current.options) for c in current.combatants}
        up = {c["side"] for c in current.combatants if statuses[c["id"]] == "standing"}
        return Verdict(len(up) <= 1, next(iter(up)) if len(up) == 1 else None, statuses)

    def max_steps(self, matchup: State) -> int:
        """Option `max_rounds`."""
        return int(matchup.options["max_rounds"])

    def details(self, matchup: State, before: State, result: StepResult) -> dict[str, float]:
        """Counts of one round: stress rolls, botches, attacks, exceptional blows, rounds where someone lost
        levels and those won by the initiative winner; at the end, the loser's body levels lost."""
        kinds = [e["type"] for e in result.events]
        counts: dict[str, float] = {
            "stress_rolls": sum(2 if k == "damage_rolled" else 1 for k in kinds if k in STRESS_ROLLS),
            "botches": kinds.count("botched"), "attacks": kinds.count("attack_rolled"),
            "exceptional": kinds.count("exceptional_blow")}
        winner = next((e["combatant"] for e in result.events if e["type"] == "initiative_contest"), None)
        inflicted: dict[str, int] = {}
        for e in result.events:
            if e["type"] == "damage_rolled":
                inflicted[e["combatant"]] = inflicted.get(e["combatant"], 0) + e["levels"]
        if winner is not None and any(inflicted.values()):
            counts["decided_rounds"] = 1
            counts["first_strike_rounds"] = int(inflicted.get(winner, 0) > max(
                (v for k, v in inflicted.items() if k != winner), default=0))
        verdict = self.verdict(matchup, result.state)
        if verdict.over and verdict.winner is not None:
            for c in result.state.combatants:
                if c["side"] != verdict.winner:
                    counts[f"levels_lost_{c['body_levels_lost']}"] = counts.get(f"levels_lost_{c['body_levels_lost']}", 0) + 1
        return counts

    def summarize_details(self, matchup: State, totals: Mapping[str, float], trials: int) -> dict[str, Any]:
        """`levels_lost` (share of losers by body levels lost), `botch_rate` (per stress roll),
        `exceptional_rate` (per attack), `first_strike_wins` (share of decided rounds)."""
        losers = {k.removeprefix("levels_lost_"): v for k, v in totals.items() if k.startswith("levels_lost_")}
        count = sum(losers.values())
        return {"levels_lost": {k: v / count for k, v in sorted(losers.items(), key=lambda kv: int(kv[0]))},
                "botch_rate": _rate(totals, "botches", "stress_rolls"),
                "exceptional_rate": _rate(totals, "exceptional", "attacks"),
                "first_strike_wins": _rate(totals, "first_strike_rounds", "decided_rounds")}


def _rate(totals: Mapping[str, float], part: str, whole: str) -> float:
    return totals.get(part, 0) / totals[whole] if totals.get(whole) else 0.0


def _action(c: dict[str, Any], target: dict[str, Any], current: State) -> str:
    options = current.options
    from service.rules.ars_magica.totals import weapon_of
    if weapon_of(c["weapon"], options["weapon_pack"], ("weapon",)).missile:
        return "missile"
    if options["ai_stance"] == "all_out_when_opponent_hurt":
        if c["stance"] == "all_out_ready":
            return "all_out_attack"
        if target["body_levels_lost"] > 0:
            return "all_out_prepare"
    if options["ai_stance"] == "desperate_when_heavy":
        heavy = ladders.index_of(options["body_levels"], "heavy", ()) if any(
            r["name"] == "heavy" for r in options["body_levels"]) else None
        if heavy is not None and c["body_levels_lost"] >= heavy:
            return "desperate_defence"
    return "attack"


DUEL = Duel()
