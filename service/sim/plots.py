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


def fights(n: int) -> str:
    """"1 fight", "2 fights"."""
    return f"{n:,} fight" if n == 1 else f"{n:,} fights"


def segments(result: Summary) -> Figure:
    """Histogram: how many fights ended after each number of segments (counts on the bars); fights the
    segment cap stopped are a separate grey bar, not counted among those that ended at the cap."""
    counts = list(result["segments"]["histogram"])
    capped = int(result["draw"].get("capped", 0))
    if capped and counts:
        counts[-1] -= capped
    last = max([i + 1 for i, c in enumerate(counts) if c] or [1])
    fig = Figure(figsize=(6.5, 3.4))
    ax = fig.add_subplot()
    bars = ax.bar(range(1, last + 1), counts[:last], color="#4c72b0", label="ended")
    if last <= 30:
        ax.bar_label(bars, padding=2, fontsize=7)
    if capped:
        stopped = ax.bar([last + 1], [capped], color="#999999",
                         label=f"stopped by the cap ({len(counts)} segments)")
        ax.bar_label(stopped, padding=2, fontsize=7)
        ax.legend(fontsize=7, loc="upper right")
    ax.set_xlabel("segments until the fight ended")
    ax.set_ylabel("fights")
    ax.set_title(f"Fight length ({fights(result['trials'])}, mean {result['segments']['mean']:.2f} segments)")
    return fig


def wins(result: Summary) -> Figure:
    """Bars: each side's chance to win, of a fight that ended in a draw and of one the segment cap
    stopped, with the 95% Wilson interval of each side and the value written on every bar."""
    draw = result["draw"]
    n = max(result["trials"], 1)
    capped = int(draw.get("capped", 0))
    rows = [(side["name"], side["p"], side["ci95"]) for side in result["sides"]]
    rows.append(("draw", (draw["count"] - capped) / n, None))
    if capped:
        rows.append(("stopped by the cap", capped / n, None))
    low = [p - ci[0] if ci else 0 for _, p, ci in rows]
    high = [ci[1] - p if ci else 0 for _, p, ci in rows]
    sides = len(result["sides"])
    colors = (["#4c72b0", "#dd8452", "#55a868", "#c44e52", "#8172b3"] * 4)[:sides] + ["#999999", "#cccccc"]
    fig = Figure(figsize=(6.5, 3.4))
    ax = fig.add_subplot()
    bars = ax.bar([r[0] for r in rows], [r[1] for r in rows], yerr=[low, high], capsize=6,
                  color=colors[: len(rows)])
    ax.bar_label(bars, labels=[f"{p:.1%}" for _, p, _ in rows], padding=2)
    ax.set_ylim(0, 1.1)
    ax.set_ylabel("probability")
    ax.set_title(f"Chance to win, {fights(result['trials'])} (95% interval)")
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
        bars = ax.bar(names, share, bottom=bottom, label=level)
        ax.bar_label(bars, labels=[f"{v:.0%}" if v >= 0.06 else "" for v in share], label_type="center",
                     fontsize=7)
        bottom = [b + s for b, s in zip(bottom, share)]
    ax.set_ylim(0, 1)
    ax.set_ylabel("share of fights")
    ax.set_title(f"Level of wounding at the end ({fights(result['trials'])})")
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
