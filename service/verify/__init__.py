"""`python -m service verify FILE`: check an encounter's audit (GET .../audit, or the answer of DELETE)
without trusting the server that wrote it (issue 25, item 5).

1. every revealed seed must hash to its commitment; nonces must only go up; one client seed per commitment;
2. every derived die is recomputed from its revealed seed (service.verify.dice, written from the README);
3. every resolution is replayed through the stateless resolver with those dice supplied, and must give the
   logged events byte for byte (service.verify.replay).
A resolution under a commitment not yet revealed cannot be checked, and a step resolved with a `seed` the
caller chose is not committed: both fail the verification (`--allow-seeded` accepts the second kind).
"""
from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field
from typing import Any

from service.verify.dice import check_draws, check_order, revealed_seeds
from service.verify.replay import replay


@dataclass
class Report:
    """What a verification found: `problems` (it fails when there is any) and how much it checked."""

    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    resolutions: int = 0
    dice: int = 0

    @property
    def ok(self) -> bool:
        return not self.problems


def verify(doc: dict[str, Any], allow_seeded: bool = False, rules: bool = True) -> Report:
    """Check an audit document: seeds, nonces and dice, then (with `rules`) the replay of every step."""
    report = Report()
    seeds = revealed_seeds(doc, report.problems)
    check_order(doc, report.problems)
    cut = doc.get("truncated")
    if cut:
        report.notes.append(f"the audit outgrew the server's byte cap: its {cut['dropped']} oldest entries (nonces "
                            f"up to {cut['through_nonce']}) were dropped and cannot be checked; the rest is")
    for r in doc["resolutions"]:
        report.resolutions += 1
        report.dice += len(r["draws"])
        if r.get("seed") is not None:
            if not allow_seeded:
                report.problems.append(f"nonce {r['nonce']}: resolved with seed {r['seed']} chosen by the caller, "
                                       "not with the committed dice")
        elif r["commitment"] not in seeds:
            report.problems.append(f"nonce {r['nonce']}: commitment {r['commitment']} is not in the audit's seeds")
        elif seeds[r["commitment"]] is None:
            report.problems.append(f"nonce {r['nonce']}: commitment {r['commitment']} is not revealed (or its "
                                   "seed is wrong): reveal it, then verify again")
        else:
            check_draws(doc, r, seeds[r["commitment"]], report.problems)
        found = replay(doc["ruleset"], r) if rules else None
        if found:
            report.problems.append(found)
    return report


def main(argv: list[str]) -> int:
    """The command: prints what was checked, or every problem; exit status 0 only when all is well."""
    args = [a for a in argv if not a.startswith("--")]
    if len(args) != 1:
        print("usage: python -m service verify FILE [--allow-seeded]", file=sys.stderr)
        return 2
    try:
        with open(args[0], encoding="utf-8") as handle:
            doc = json.load(handle)
        report = verify(doc, allow_seeded="--allow-seeded" in argv)
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as error:
        print(f"not an audit (GET .../audit or the answer of DELETE): {type(error).__name__}: {error}",
              file=sys.stderr)
        return 2
    for problem in report.problems:
        print(f"FAIL {problem}")
    for note in report.notes:
        print(f"note: {note}")
    if report.ok:
        print(f"ok: {report.resolutions} resolutions, {report.dice} dice, {len(doc['seeds'])} commitments "
              f"(encounter {doc['encounter_id']}, {doc['ruleset']})")
    return 0 if report.ok else 1
