"""SVG charts of a round-based ruleset's simulation: win chances, rounds fought, each combatant's fate.

The ruleset's own words label the axes (its `terms`: "rounds"). matplotlib's object API with the SVG
backend only; the same result gives the same bytes (fixed hash salt, no date).
"""
from __future__ import annotations

import io
from typing import Any, Callable, Mapping

import matplotlib
from matplotlib.figure import Figure

Result = Mapping[str, Any]
STYLE = {"svg.hashsalt": "referee", "svg.fonttype": "none", "font.size": 9}


def fights(n: int) -> str:
    """"1 fight", "2 fights"."""
    return f"{n} fight" if n == 1 else f"{n} fights"


def wins(result: Result, terms: Mapping[str, str]) -> Figure:
    """Bars: each side's chance to win, then fights that ended undecided and fights stopped by the cap,
    each with its 95% interval and its value written on the bar."""
    draw = result["draw"]
    n = max(result["trials"], 1)
    rows = [(side["name"], side["p"], side["ci95"]) for side in result["sides"]]
    rows.append(("draw", (draw["count"] - draw["capped"]) / n, None))
    rows.append((f"stopped at the {terms.get('step', 'round')} cap", draw["capped"] / n, None))
    fig = Figure(figsize=(6.5, 3.4))
    ax = fig.add_subplot()
    low = [p - ci[0] if ci else 0 for _, p, ci in rows]
    high = [ci[1] - p if ci else 0 for _, p, ci in rows]
    bars = ax.bar([r[0] for r in rows], [r[1] for r in rows], yerr=[low, high], capsize=6,
                  color=(["#4c72b0", "#dd8452", "#55a868", "#8172b3"] * 5)[: len(rows) - 2] + ["#999999", "#cccccc"])
    ax.bar_label(bars, labels=[f"{p:.1%}" for _, p, _ in rows], padding=2)
    ax.set_ylim(0, 1.1)
    ax.set_ylabel("probability")
    ax.set_title(f"Chance to win, {fights(result['trials'])} (95% interval)")
    return fig


def rounds(result: Result, terms: Mapping[str, str]) -> Figure:
    """Histogram: how many fights ended after each number of rounds (counts on the bars)."""
    counts = result["rounds"]["histogram"]
    steps = terms.get("steps", "rounds")
    fig = Figure(figsize=(6.5, 3.4))
    ax = fig.add_subplot()
    bars = ax.bar(range(1, len(counts) + 1), counts, color="#4c72b0")
    if len(counts) <= 30:
        ax.bar_label(bars, padding=2, fontsize=7)
    ax.set_xlabel(f"{steps} until the fight ended")
    ax.set_ylabel("fights")
    ax.set_title(f"Fight length ({fights(result['trials'])}, mean {result['rounds']['mean']:.2f} {steps})")
    return fig


def outcomes(result: Result, terms: Mapping[str, str]) -> Figure:
    """Stacked bars: how each combatant ended the fight (the ruleset's status words)."""
    people = result["combatants"]
    statuses = sorted({status for person in people for status in person["outcome"]})
    fig = Figure(figsize=(max(6.5, 0.7 * len(people) + 2), 3.6))
    ax = fig.add_subplot()
    bottom = [0.0] * len(people)
    names = [person["name"] for person in people]
    for status in statuses:
        share = [person["outcome"].get(status, 0.0) for person in people]
        ax.bar(names, share, bottom=bottom, label=status)
        bottom = [b + s for b, s in zip(bottom, share)]
    ax.set_ylim(0, 1)
    ax.set_ylabel("share of fights")
    ax.set_title("How each combatant ended the fight")
    ax.legend(fontsize=7, loc="upper right")
    ax.tick_params(axis="x", labelrotation=30)
    return fig


PLOTS: dict[str, Callable[[Result, Mapping[str, str]], Figure]] = {
    "wins": wins, "rounds": rounds, "outcomes": outcomes}


def svg(name: str, result: Result, terms: Mapping[str, str]) -> str:
    """The chart `name` of `result` as SVG text."""
    with matplotlib.rc_context(STYLE):
        fig = PLOTS[name](result, terms)
        fig.tight_layout()
        out = io.StringIO()
        fig.savefig(out, format="svg", metadata={"Date": None})
    return out.getvalue()
