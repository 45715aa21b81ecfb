"""Who goes when in a melee round: the Statement of Intent in INT order, the Move phase in DEX order, and
every attack, missile and spell in strike-rank order (rules document §8; seed *1) Statement of Intent*,
*2) Move Phase*, *3) Melee Phase*)."""
from __future__ import annotations

from typing import Any

from service.rules.runequest_house import stats
from service.rules.runequest_house.declarations import FOLLOW_UPS
from service.rules.runequest_house.round.state import Round


def intent_order(work: Round) -> list[str]:
    """Lowest INT declares first; ties by the `intent_tie` d20, lower first [DOC *1) Statement of Intent*]."""
    return _ordered(work, lambda c: c["characteristics"]["int"], "intent_tie", lowest_first=True)


def movement_order(work: Round) -> list[str]:
    """Highest DEX moves first; ties by the `movement_tie` d20, higher first [DOC *2) Move Phase*]."""
    return _ordered(work, lambda c: c["characteristics"]["dex"], "movement_tie", lowest_first=False)


def _ordered(work: Round, key: Any, role: str, lowest_first: bool) -> list[str]:
    ids = [ident for ident in work.people if ident in work.declared]
    values = {ident: key(work.people[ident]) for ident in ids}
    counts: dict[int, int] = {}
    for value in values.values():
        counts[value] = counts.get(value, 0) + 1
    ties = {ident: work.dice.roll(role, 1, 20, combatant=ident).total if counts[values[ident]] > 1 else 0
            for ident in ids}
    sign = 1 if lowest_first else -1
    return sorted(ids, key=lambda i: (sign * values[i], sign * ties[i]))


def strike_order(work: Round) -> list[dict[str, Any]]:
    """Every attack, missile and spell with its SR, ascending; ties by higher DEX, then simultaneous
    [CORE/DEF `sr_tie`]. One weapon twice: -10% each, the second min(SR + 3, 10) (*1) Statement of Intent*)."""
    entries = []
    for order, (ident, decl) in enumerate(work.declared.items()):
        who = work.people[ident]
        dex, siz = who["characteristics"]["dex"], who["characteristics"]["siz"]
        actions = decl["actions"]
        twice = [a["type"] for a in actions] == ["attack", "attack"] and actions[0]["weapon"] == actions[1]["weapon"]
        srs: list[int | None] = []
        for index, action in enumerate(actions):
            sr = None
            if action["type"] == "attack" and action["mode"] in FOLLOW_UPS:
                sr = stats.dex_sr(dex, work.options)  # *Page 60*: at DEX SR
            elif action["type"] == "attack":
                weapon_sr = 0 if action["mode"] == "grapple" else who["weapons"][action["weapon"]]["sr"]
                sr = stats.melee_sr(dex, siz, weapon_sr, work.options)
                if twice and index == 1:
                    sr = stats.second_attack_sr(srs[0])  # type: ignore[arg-type]
            elif action["type"] == "missile":
                sr = stats.dex_sr(dex, work.options)
            elif action["type"] == "cast":
                sr = action["spell_sr"] if action["spell_sr"] is not None else stats.spell_sr(
                    dex, action["magic_points"], work.options)
                if index == 1 and actions[0]["type"] == "cast":
                    sr += srs[0]  # type: ignore[operator]
            srs.append(sr)
            if sr is not None:
                entries.append({"combatant": ident, "action": action["type"], "sr": sr, "index": index,
                                "target": action["target"], "twice": twice, "dex": dex, "order": order})
    entries.sort(key=lambda e: (e["sr"], -e["dex"], e["order"], e["index"]))
    return entries
