"""Action times and the checks some actions need (table 4-1 and its footnotes; "A Word about Crossbows").

Each task answers the actions it takes and, where the text asks for a check, its DV: rummaging a full
pouch (CRD vs Progressive(items) + mph), untying a knot (F42), stringing a bow stronger than oneself (STR
vs Progressive(the STR gap), one action a try), cocking a crossbow (STR vs 13 with a goatsfoot or belt hook, 20 or 30
bare-handed; a crannequin or windlass always works; kept cocked, -1 POT a full day: RULINGS 25). Taking double time in adverse conditions halves
the DV ("Core task resolution").
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cache

from service.rules.errors import Contradiction, UnknownName
from service.rules.rounding import Progression, progressive, round_half_up
from service.rules.tactical import tables
from service.rules.tactical.movement import doff_time, rummage_time, untie_knot_cs
from service.rules.tactical.potence import kept_cocked
from service.rules.trace import Step

TABLE = "Table 4-1: Time Requirements for Common/Basic Character Actions"
CROSSBOWS = "A Word about Crossbows"
HOOK_DV = 13
BARE_DV = {"light": 20, "heavy": 30}
HOOKS = ("goatsfoot", "belt-hook")
WINDERS = ("crannequin", "windlass")


@dataclass(frozen=True, slots=True)
class Task:
    """Actions a task takes, the DV of its check (None: no check), which attribute, and per attempt or not;
    for a crossbow, the POT its shots lose for the days it is then kept cocked (RULINGS 25)."""

    actions: Fraction
    dv: int | None
    check: str | None
    per_attempt: bool
    trace: tuple[Step, ...]
    pot_penalty: int | None = None


@cache
def _rows() -> dict[str, dict]:
    return {row["action"].casefold(): row for row in tables.load("action-times")["rows"]}


def action_names() -> list[str]:
    """Every row of table 4-1, by its name."""
    return [row["action"] for row in tables.load("action-times")["rows"]]


def table_action(name: str, doff: bool = False) -> Task:
    """Table 4-1: the time one listed action takes (taking clothing or armor off: half, at least 1/4)."""
    row = _rows().get(name.casefold())
    if row is None:
        raise UnknownName(f"no action '{name}' in table 4-1", ("action",))
    if row["time"] == "variable":
        raise Contradiction(f"'{row['action']}' depends on its inputs: use its own task kind", ("action",))
    time = Fraction(row["time"])
    steps = [Step(TABLE, row["action"], time)]
    if doff:
        if "†" not in row["marks"]:
            raise Contradiction(f"'{row['action']}' is not clothing or armor", ("doff",))
        time = doff_time(time)
        steps.append(Step(TABLE, "taking it off: half the time, at least 1/4 action", time))
    return Task(time, None, None, False, tuple(steps))


def rummage(items: int, mph: int = 0, scheme: Progression = "triangular") -> Task:
    """Table 4-1 ††, "Throwing non-weapon objects": (items + 1) actions; CRD vs progressive(items) + mph."""
    actions = Fraction(rummage_time(items))
    dv = progressive(items, scheme) + mph
    return Task(actions, dv, "CRD", False, (Step(TABLE, f"{items} items + 1", actions),
                                            Step("Rummaging in a full pouch", f"CRD vs progressive({items}) + {mph} "
                                                                              "mph", dv)))


def untie(tier_str: int, tier_trade_sl: int, untier_crd_mod: int, untier_str: int) -> Task:
    """Table 4-1 †††, F42 with A46: CS to untie a knot, rounded half up, at least 1/4 action."""
    time = untie_knot_cs(tier_str, tier_trade_sl, untier_crd_mod, untier_str)
    return Task(time, None, None, False, (Step(f"{TABLE} (F42, A46)", f"max({tier_str}/10, {tier_trade_sl}/10) - "
                                                                     f"{untier_crd_mod} - max(0, {untier_str} - "
                                                                     f"{tier_str}), at least 1/4", time),))


def string_bow(bow_str: int, strength: int, scheme: Progression = "triangular") -> Task:
    """Table 4-1 **: 1/2 action; a bow above one's STR takes a STR check, 1 action a try, whose DV is
    Progressive per point the bow's STR exceeds the character's (the footnote's closing sentence)."""
    if bow_str <= strength:
        return Task(Fraction(1, 2), None, None, False, (Step(TABLE, "string a bow within one's STR", Fraction(1, 2)),))
    gap = bow_str - strength
    dv = progressive(gap, scheme)
    return Task(Fraction(1), dv, "STR", True,
                (Step(TABLE, f"bow STR {bow_str} above STR {strength}: STR check vs progressive({gap}), 1 action "
                             "per try", dv),))


def cock_crossbow(crossbow: str, tool: str, built_in: bool = False, tool_at_hand: bool = True,
                  days_cocked: int = 0) -> Task:
    """A Word about Crossbows: the actions and STR check to cock a light or heavy crossbow with a given tool,
    and the POT its shot loses when kept cocked `days_cocked` full days (RULINGS 25)."""
    found = _cocking(crossbow, tool, built_in, tool_at_hand)
    penalty, step = kept_cocked(days_cocked)
    return replace(found, trace=(*found.trace, step), pot_penalty=penalty)


def _cocking(crossbow: str, tool: str, built_in: bool, tool_at_hand: bool) -> Task:
    if crossbow not in BARE_DV:
        raise UnknownName("crossbow must be light or heavy", ("crossbow",))
    if tool in WINDERS:
        actions = Fraction(2 if built_in else 3)
        return Task(actions, None, None, False,
                    (Step(CROSSBOWS, f"{tool}: attach, wind, detach{' (built in: 2 actions)' if built_in else ''}; "
                                     "no check", actions),))
    if tool in HOOKS:
        if crossbow != "light":
            raise Contradiction("a goatsfoot or belt hook cocks only a light crossbow", ("crossbow",))
        if built_in and tool == "goatsfoot":
            actions = Fraction(1)
            detail = "goatsfoot built into the haft: position, hook and cock in one action"
        else:
            actions = Fraction(1 if tool_at_hand else 2) + 1
            detail = "grab and attach the tool (1 action, more if fetched) + cock (1 action)"
        return Task(actions, HOOK_DV, "STR", True, (Step(CROSSBOWS, detail, actions),
                                                    Step(CROSSBOWS, f"STR check vs {HOOK_DV}", HOOK_DV)))
    if tool != "none":
        raise UnknownName(f"no cocking tool '{tool}'", ("tool",))
    dv = BARE_DV[crossbow]
    return Task(Fraction(1), dv, "STR", True, (Step(CROSSBOWS, f"bare hands, {crossbow}: STR check vs {dv}; a "
                                                               "failure may cut the hands", dv),))


def double_time(task: Task) -> Task:
    """Core task resolution: taking twice the time in adverse conditions halves the DV (half up)."""
    dv = None if task.dv is None else round_half_up(Fraction(task.dv, 2))
    step = Step("Core task resolution", "double time in adverse conditions: time x2, DV halved", dv)
    return replace(task, actions=task.actions * 2, dv=dv, trace=(*task.trace, step))
