"""A client's byte meter (issue 22): the bytes each of its encounters holds in Redis, and their sum.

The meter is the hash `service.sessions.keys.client_bytes(client)`: one field per encounter, and `_total`.
Who the client is and what happens at the cap belong to the HTTP layer (service.api.http.byte_quota); a
step hands its `Meter` to the repository, which reads the sum with its snapshot and sets the encounter's
figure with its commit, so the meter adds no round trip to the step (issue 27, item 2).
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

TOTAL = "_total"  # the sum's field (encounter ids are hex: never this)
# KEYS: the meter. ARGV: encounter id, its bytes (-1: forget it), seconds to keep the meter. Returns the sum.
METER = """
local old = tonumber(redis.call('HGET', KEYS[1], ARGV[1]) or '0')
local new = tonumber(ARGV[2])
if new < 0 then
  redis.call('HDEL', KEYS[1], ARGV[1])
  new = 0
else
  redis.call('HSET', KEYS[1], ARGV[1], new)
end
local total = redis.call('HINCRBY', KEYS[1], '_total', new - old)
redis.call('EXPIRE', KEYS[1], ARGV[3])
return total
"""


@dataclass(frozen=True)
class Meter:
    """One client's meter as a write sees it: its key, how long it is kept, and `check(sum)`, which raises
    when the sum read before the write is at the client's cap (it may prune expired encounters first)."""

    key: str
    ttl: int
    check: Callable[[int], None]

    def args(self, encounter_id: str, stored: int) -> list:
        """The METER script's arguments setting `encounter_id`'s figure to `stored` bytes."""
        return [encounter_id, stored, self.ttl]
