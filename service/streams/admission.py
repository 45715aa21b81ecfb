"""Caps on open event streams per client and per encounter, counted across every worker in Redis.

Each open stream holds a lease: a member of two sorted sets (the client's, the encounter's) scored with
the time it lapses. Whoever serves the stream renews its leases while it is open and removes them when it
closes; a lease of a process that died lapses by itself within LEASE_SECONDS.
"""
from __future__ import annotations

import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from service.sessions.keys import client_streams, encounter_streams
from service.streams.errors import TooManyStreams

LEASE_SECONDS = 60
RENEW_SECONDS = 20
# KEYS: the set. ARGV: now, lapses at, member, cap. 1 = admitted, 0 = full.
ADMIT = """
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[4]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[3])
redis.call('EXPIRE', KEYS[1], math.ceil(tonumber(ARGV[2]) - tonumber(ARGV[1])) + 1)
return 1
"""


@dataclass(frozen=True)
class Lease:
    """One open stream's place in its client's and its encounter's counts."""

    member: str
    client_key: str
    encounter_key: str


class Admission:
    """Admit or refuse a new stream; `redis` is a function returning the shared client."""

    def __init__(self, redis: Callable[[], Any], per_client: int, per_encounter: int,
                 clock: Callable[[], float] = time.time):
        self._redis, self.per_client, self.per_encounter, self.clock = redis, per_client, per_encounter, clock
        self._script = None

    def admit(self, client: str, encounter_id: str) -> Lease:
        """A lease for a new stream, or TooManyStreams (429) naming the cap it would pass."""
        lease = Lease(secrets.token_hex(8), client_streams(client), encounter_streams(encounter_id))
        now = self.clock()
        if not self._take(lease.client_key, lease.member, now, self.per_client):
            raise TooManyStreams(f"this client already has {self.per_client} open event streams; close one "
                                 "or retry later")
        if not self._take(lease.encounter_key, lease.member, now, self.per_encounter):
            self.release([lease])
            raise TooManyStreams(f"this encounter already has {self.per_encounter} open event streams; "
                                 "close one or retry later")
        return lease

    def renew(self, leases: list[Lease]) -> None:
        """Push the leases of streams still open LEASE_SECONDS further."""
        if not leases:
            return
        until = self.clock() + LEASE_SECONDS
        with self._redis().pipeline(transaction=False) as pipe:
            for lease in leases:
                pipe.zadd(lease.client_key, {lease.member: until}, xx=True)
                pipe.zadd(lease.encounter_key, {lease.member: until}, xx=True)
            pipe.execute()

    def release(self, leases: list[Lease]) -> None:
        """Forget the leases of streams that closed."""
        if not leases:
            return
        with self._redis().pipeline(transaction=False) as pipe:
            for lease in leases:
                pipe.zrem(lease.client_key, lease.member)
                pipe.zrem(lease.encounter_key, lease.member)
            pipe.execute()

    def redis_count(self, encounter_id: str) -> int:
        """Open streams counted on one encounter (lapsed leases included until the next admission)."""
        return int(self._redis().zcard(encounter_streams(encounter_id)))

    def _take(self, key: str, member: str, now: float, cap: int) -> bool:
        if self._script is None:
            self._script = self._redis().register_script(ADMIT)
        return bool(self._script(keys=[key], args=[now, now + LEASE_SECONDS, member, cap]))
