"""Monte Carlo duels of `runequest-house` (rules document §9): the duel policy as ordinary declarations."""
from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from typing import Any

from service.rules.interface import StepResult, Verdict
from service.rules.matchups import entries
from service.rules.runequest_house import model, status
from service.rules.runequest_house.engine import ENGINE
from service.rules.runequest_house.pack import LOCATIONS


class Duel:
    """Each figure attacks its first standing foe and parries (or dodges without a parrying item) [DEF
    `duel_declaration`]; a prone figure stands up instead of attacking. The fight ends when at most one side
    can fight (total HP, head, chest or abdomen at 0, no weapon arm) or at `max_rounds`."""

    def read_matchup(self, data: Mapping[str, Any], path: tuple = ()) -> model.State:
        """The first state of a matchup (ids filled in, sides from the matchup)."""
        people = [{**{k: v for k, v in e.combatant.items() if k != "name"}, "side": e.side} for e in entries(data, path)]
        paths = {e.combatant["id"]: e.path for e in entries(data, path)}
        try:
            return ENGINE.read_state({"combatants": people, "options": data.get("options")}, path)
        except Exception as error:
            field = getattr(error, "field", None)
            if field and len(field) >= len(path) + 2 and field[len(path)] == "combatants":
                index = field[len(path) + 1]
                error.field = (*paths[people[index]["id"]], *field[len(path) + 2:])  # type: ignore[attr-defined]
            raise

    def start(self, matchup: model.State) -> model.State:
        """A fight starts from the matchup's state (two figures adjacent and engaged, §9)."""
        return matchup

    def declare(self, matchup: model.State, state: model.State, rng: random.Random) -> list[dict[str, Any]]:
        """attack + parry (attack + dodge) for every figure that can fight and has a foe."""
        out = []
        dodge_only = state.options["duel_declaration"] == "attack_dodge"
        for who in state.combatants:
            if not status.can_fight(who):
                continue
            foes = [c["id"] for c in state.combatants if c["side"] != who["side"] and status.can_fight(c)]
            if not foes:
                continue
            can_parry = who["shield"] is not None or any(w["parry"] > 0 for w in who["weapons"])
            defence = {"type": "dodge" if dodge_only or not can_parry else "parry"}
            first = {"type": "move"} if who["prone"] else {"type": "attack", "target": foes[0], "weapon": 0}
            out.append({"combatant": who["id"], "actions": [first, defence]})
        return out

    def verdict(self, matchup: model.State, state: model.State) -> Verdict:
        """Over when at most one side still has a figure that can fight (standing or prone) (§9)."""
        statuses = {c["id"]: status.status(c) for c in state.combatants}
        up = {c["side"] for c in state.combatants if statuses[c["id"]] in ("standing", "prone")}
        return Verdict(len(up) <= 1, next(iter(up)) if len(up) == 1 else None, statuses)

    def max_steps(self, matchup: model.State) -> int:
        """Option `max_rounds` [DEF]: a fight still going then is a capped draw."""
        return matchup.options["max_rounds"]

    def details(self, matchup: model.State, before: model.State, result: StepResult) -> dict[str, float]:
        """Counts of the round: damage per side and location, parry AP lost, knockback falls, fumbles,
        criticals."""
        sides = {c["id"]: c["side"] for c in before.combatants}
        counts: Counter = Counter()
        for event in result.events:
            kind = event["type"]
            if kind == "location_damaged":
                counts[f"location_damage|{sides[event['combatant']]}|{event['location']}"] += event["damage"]
            elif kind == "weapon_damaged" and event.get("parrying"):
                counts["parry_ap_lost"] += event["ap_loss"]
            elif kind == "fell" and event["cause"] == "knockback":
                counts["knockback_falls"] += 1
            elif kind in ("attack_rolled", "defence_rolled"):
                if event.get("degree") == "fumble":
                    counts["fumbles"] += 1
                elif event.get("degree") == "critical":
                    counts["criticals"] += 1
        return dict(counts)

    def summarize_details(self, matchup: model.State, totals: Mapping[str, float], trials: int) -> dict[str, Any]:
        """Means per fight (rules document §9)."""
        n = max(trials, 1)
        sides = list(dict.fromkeys(c["side"] for c in matchup.combatants))
        damage = {side: {loc: totals.get(f"location_damage|{side}|{loc}", 0) / n for loc in LOCATIONS}
                  for side in sides}
        return {"location_damage": damage, "parry_ap_lost": totals.get("parry_ap_lost", 0) / n,
                "knockback_falls": totals.get("knockback_falls", 0) / n, "fumbles": totals.get("fumbles", 0) / n,
                "criticals": totals.get("criticals", 0) / n}


DUEL = Duel()
