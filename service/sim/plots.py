"""SVG charts of a simulation summary: segments to the end, win chances with 95% intervals, wounds.

Built on matplotlib's object API with the Agg/SVG backends only (no pyplot, no global figure state);
the same summary gives the same bytes (fixed hash salt, no date).
"""
from __future__ import annotations

import io
from typing import Any, Callable

import matplotlib
from matplotlib.figure import Figure

Summary = dict[str, Any]
STYLE = {"svg.hashsalt": "referee", "svg.fonttype": "none", "font.size": 9}


def segments(result: Summary) -> Figure:
    """Histogram: how many fights ended after each number of segments."""
    counts = result["segments"]["histogram"]
    last = max([i + 1 for i, c in enumerate(counts) if c] or [1])
    fig = Figure(figsize=(6, 3.2))
    ax = fig.add_subplot()
    ax.bar(range(1, last + 1), counts[:last], color="#4c72b0")
    ax.set_xlabel("segments until the fight ended")
    ax.set_ylabel("fights")
    ax.set_title(f"Fight length ({result['trials']} fights, mean {result['segments']['mean']:.2f} segments)")
    return fig


def wins(result: Summary) -> Figure:
    """Bars: each side's chance to win and of a draw, with the 95% Wilson interval."""
    rows = [(side["name"], side) for side in result["sides"]] + [("draw", result["draw"])]
    labels = [name for name, _ in rows]
    p = [row["p"] for _, row in rows]
    err = [[row["p"] - row["ci95"][0] for _, row in rows], [row["ci95"][1] - row["p"] for _, row in rows]]
    fig = Figure(figsize=(6, 3.2))
    ax = fig.add_subplot()
    ax.bar(labels, p, yerr=err, capsize=6, color=["#4c72b0", "#dd8452", "#55a868", "#c44e52"][: len(rows)])
    ax.set_ylim(0, 1)
    ax.set_ylabel("probability")
    ax.set_title("Chance to win (95% interval)")
    return fig


def wounds(result: Summary) -> Figure:
    """Stacked bars: each combatant's level of wounding at the end of the fight."""
    people = result["combatants"]
    fig = Figure(figsize=(max(6, 0.6 * len(people) + 2), 3.6))
    ax = fig.add_subplot()
    bottom = [0.0] * len(people)
    names = [person["name"] for person in people]
    for level in ("none", "light", "serious", "grievous", "mortal"):
        share = [person["levels"][level] for person in people]
        ax.bar(names, share, bottom=bottom, label=level)
        bottom = [b + s for b, s in zip(bottom, share)]
    ax.set_ylim(0, 1)
    ax.set_ylabel("share of fights")
    ax.set_title("Level of wounding at the end")
    ax.legend(fontsize=7, loc="upper right")
    ax.tick_params(axis="x", labelrotation=30)
    return fig


PLOTS: dict[str, Callable[[Summary], Figure]] = {"segments": segments, "wins": wins, "wounds": wounds}


def svg(name: str, result: Summary) -> str:
    """The chart `name` (segments, wins or wounds) of `result` as SVG text."""
    with matplotlib.rc_context(STYLE):
        fig = PLOTS[name](result)
        fig.tight_layout()
        out = io.StringIO()
        fig.savefig(out, format="svg", metadata={"Date": None})
    return out.getvalue()
