"""`python -m service simulate matchup.json [--trials N] [--seed S] [--chunk-size C] [--out DIR] [--json]`.

Runs the simulation in this process (no Celery, no Redis) with a progress bar, prints the summary and
writes the charts (tactical: segments.svg, wins.svg, wounds.svg) beside the input file, or into DIR.
The file is a matchup, or a whole `POST /v1/simulations` body: its `ruleset`, `trials`, `seed` and
`chunk_size` are used when the flags do not say otherwise, so the same file gives the API's numbers.
"""
from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path
from typing import Any

from tqdm import tqdm

from service.config import Config
from service.rules.errors import RulesError
from service.sim import chunks
from service.sim.budget import MAX_CHUNKS, default_chunk
from service.sim.simulator import simulator_for

DEFAULT_TRIALS = 10_000


def main(argv: list[str]) -> int:
    """Simulate the matchup file named in `argv`; 0 on success, 2 on a bad matchup or arguments."""
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        data = json.loads(Path(args.matchup).read_text(encoding="utf-8"))
        body = data if isinstance(data, dict) and "matchup" in data else {"matchup": data}
        ruleset = body.get("ruleset") or "tactical"
        simulator = simulator_for(ruleset)
        matchup = body["matchup"]
        cost = simulator.cost(matchup)
    except (OSError, ValueError, TypeError, KeyError, AttributeError, RulesError) as error:
        print(f"cannot read {args.matchup}: {_why(error)}", file=sys.stderr)
        return 2
    trials = _setting(parser, "trials", args.trials, body.get("trials"), DEFAULT_TRIALS)
    chunk_size = _setting(parser, "chunk_size", args.chunk_size, body.get("chunk_size"), 0) \
        or default_chunk(cost, trials, Config.from_env().max_chunk_cpu_seconds)
    seed = args.seed if args.seed is not None else body.get("seed")
    if seed is None:
        seed = random.SystemRandom().randrange(2**63)
    elif not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**63:
        parser.error(f"seed must be an integer from 0 to 2**63 - 1, not {seed!r}")
    parts = []
    with tqdm(total=trials, unit="fight", file=sys.stderr, disable=args.quiet) as bar:
        for index, size in enumerate(chunks.plan(trials, chunk_size)):
            parts.append(simulator.run_chunk(matchup, index, size, seed))
            bar.update(size)
    result = simulator.summarize(matchup, simulator.merge(parts))
    if ruleset != "tactical":
        print(json.dumps({"ruleset": ruleset, "seed": seed, **result}, indent=2))
    else:
        print(json.dumps({"seed": seed, **result}, indent=2) if args.json else _text(result, seed))
    out = Path(args.out) if args.out is not None else Path(args.matchup).resolve().parent
    out.mkdir(parents=True, exist_ok=True)
    for name in simulator.plots:
        (out / f"{name}.svg").write_text(simulator.plot(name, result), encoding="utf-8")
    print(f"plots written to {out}/", file=sys.stderr)
    return 0


def positive(text: str) -> int:
    """An argparse type: a whole number of at least 1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def _setting(parser: argparse.ArgumentParser, name: str, flag: int | None, in_file: Any, default: int) -> int:
    """The flag's value, else the file's (checked like a flag), else the default."""
    if flag is not None:
        return flag
    if in_file is None:
        return default
    if not isinstance(in_file, int) or isinstance(in_file, bool) or in_file < 1:
        parser.error(f"{name} in the input file must be a whole number of at least 1, not {in_file!r}")
    return in_file


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m service simulate", description=__doc__.splitlines()[0])
    parser.add_argument("matchup", help="JSON file: a matchup {'sides': [...], 'options': {...}} or a "
                                        "POST /v1/simulations body")
    parser.add_argument("--trials", type=positive, default=None,
                        help=f"fights to simulate (default: the file's `trials`, else {DEFAULT_TRIALS})")
    parser.add_argument("--seed", type=int, default=None, help="default: the file's `seed`, else a random one")
    parser.add_argument("--chunk-size", type=positive, default=None,
                        help=f"fights per chunk (default: the file's `chunk_size`, else the API's default: "
                             f"{chunks.DEFAULT_CHUNK}, fewer for dear matchups, more past {MAX_CHUNKS} chunks)")
    parser.add_argument("--out", default=None, help="directory for the SVG charts (default: beside the file)")
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
