"""`python -m service simulate matchup.json --trials 100000 [--seed S] [--out DIR] [--json]`.

Runs the engine in this process (no Celery, no Redis) with a progress bar, prints the summary and
writes the three charts (segments.svg, wins.svg, wounds.svg) into DIR.
"""
from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path
from typing import Any

from tqdm import tqdm

from service.rules.errors import RulesError
from service.sim import chunks, plots, summary
from service.sim.matchup import parse


def main(argv: list[str]) -> int:
    """Simulate the matchup file named in `argv`; 0 on success, 2 on a bad matchup or arguments."""
    args = _parser().parse_args(argv)
    try:
        data = json.loads(Path(args.matchup).read_text(encoding="utf-8"))
        m = parse(data.get("matchup", data) if isinstance(data, dict) else data)  # a POST body works too
    except (OSError, ValueError, RulesError) as error:
        print(f"cannot read {args.matchup}: {_why(error)}", file=sys.stderr)
        return 2
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**63)
    with tqdm(total=args.trials, unit="fight", file=sys.stderr, disable=args.quiet) as bar:
        tally = chunks.run(m, args.trials, seed, args.chunk_size, progress=bar.update)
    result = summary.summarise(m, tally)
    print(json.dumps({"seed": seed, **result}, indent=2) if args.json else _text(result, seed))
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for name in plots.PLOTS:
        (out / f"{name}.svg").write_text(plots.svg(name, result), encoding="utf-8")
    print(f"plots written to {out}/", file=sys.stderr)
    return 0


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m service simulate", description=__doc__.splitlines()[0])
    parser.add_argument("matchup", help="JSON file: {'sides': [...], 'options': {...}}")
    parser.add_argument("--trials", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--chunk-size", type=int, default=chunks.DEFAULT_CHUNK)
    parser.add_argument("--out", default=".", help="directory for the SVG charts")
    parser.add_argument("--json", action="store_true", help="print the whole summary as JSON")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    return parser


def _why(error: Exception) -> str:
    if isinstance(error, RulesError) and error.field:
        return f"{'.'.join(map(str, error.field))}: {error.message}"
    return str(error)


def _text(result: dict[str, Any], seed: int) -> str:
    lines = [f"{result['trials']} fights, seed {seed}, mean {result['segments']['mean']:.2f} segments"]
    for row in [*result["sides"], {"name": "draw", **result["draw"]}]:
        low, high = row["ci95"]
        lines.append(f"  {row['name']:<20} {100 * row['p']:6.2f}%  (95% CI {100 * low:.2f}-{100 * high:.2f})")
    first = result["first_strike"]
    lines.append(f"  first to act in segment 1 won {100 * first['first_side_wins']['p']:.1f}% "
                 f"(another side {100 * first['other_side_wins']['p']:.1f}%)")
    for person in result["combatants"]:
        fate = ", ".join(f"{k} {100 * v:.1f}%" for k, v in person["outcome"].items() if v)
        lines.append(f"  {person['name']:<20} wounds {person['wounds']['mean']:.2f}; {fate}")
    return "\n".join(lines)
