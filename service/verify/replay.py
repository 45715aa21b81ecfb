"""The rules half of verifying an audit: each resolution replayed through the stateless resolver with the
audited dice supplied in order, its events compared byte for byte (as canonical JSON, keys sorted) with the ones it logged.

The dice come from `Replayed`, a generator that hands out the audited faces and refuses any other die, so
a replay that asks for a die the audit does not have (or a different one) fails, naming where.
"""
from __future__ import annotations

import json
import random
from typing import Any

from service.rules.errors import RulesError
from service.sessions.records import Segment, numbered
from service.sessions.steps import resolve_once


class Mismatch(Exception):
    """The resolver asked for a die the audit does not have at that point."""


class Replayed(random.Random):
    """The audited derived faces, in order: `_randbelow(s)` is the next one, which must be a d`s`."""

    def __init__(self, faces: list[tuple[int, int]], draws: list):
        super().__init__(0)
        self.audited, self.n, self.draws = faces, 0, draws

    def _randbelow(self, n: int) -> int:  # type: ignore[override]
        if self.n >= len(self.audited):
            raise Mismatch(f"the resolver rolled a d{n} as derived die {self.n}, past the audit's last die")
        sides, face = self.audited[self.n]
        if sides != n:
            raise Mismatch(f"the resolver rolled a d{n} as derived die {self.n}, the audit has a d{sides}")
        self.n += 1
        self.draws.append((sides, face, False))
        return face - 1

    def faces(self, count: int, sides: int) -> list[int]:
        """A batch of audited faces, as the committed generator hands out a batch (one die at a time)."""
        return [1 + self._randbelow(sides) for _ in range(count)]

    def random(self) -> float:
        raise Mismatch("the resolver asked for a random float: audited steps roll only dice")

    def getrandbits(self, k: int) -> int:
        raise Mismatch("the resolver asked for random bits: audited steps roll only dice")


def replay(ruleset: str, r: dict[str, Any]) -> str | None:
    """Replay resolution `r`; None when its draws and events come out exactly as audited, else what differs."""
    draws: list = []
    rng = Replayed([(d["sides"], d["face"]) for d in r["draws"] if not d["supplied"]], draws)
    try:
        step = resolve_once(ruleset, r["state"], r["declarations"], r.get("seed"), (), r["rolls"], rng, draws)
    except (Mismatch, RulesError) as error:
        return f"nonce {r['nonce']}: the replay failed: {error}"
    if [{"sides": s, "face": f, "supplied": supplied} for s, f, supplied in draws] != r["draws"]:
        return f"nonce {r['nonce']}: the replay used {len(draws)} dice, the audit lists {len(r['draws'])}"
    first = r["events"][0]["seq"] - 1 if r["events"] else 0
    events = numbered(Segment(r["segment"], None, step.events, step.state), first)
    if step.number != r["segment"] or _bytes(events) != _bytes(r["events"]):
        return f"nonce {r['nonce']}: the replayed events differ from the logged ones (step {r['segment']})"
    return None


def _bytes(events: list[dict[str, Any]]) -> bytes:
    """Events as canonical bytes: sorted keys, no spaces (the API answers JSON with sorted keys, so an
    audit saved from it has lost the order the resolver built its objects in, and nothing else)."""
    return json.dumps(events, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()
