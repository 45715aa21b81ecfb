"""Every Redis key the service writes, named in one place so that what is used together shares a slot.

On a Redis Cluster a key's slot is the hash of its hash tag (the text between the first `{` and `}`).
Whatever one Lua script, one MULTI/EXEC or one multi-key command touches must share a slot, so each
family of keys carries one tag: an encounter's id for all of its keys (and the channel its writes publish
on), a client for its counters, and one tag, `{jobs}`, for every simulation job. The jobs' fair queue
hands out the next chunk across every client's jobs in one atomic step (ring, queues, records, claims,
leases), which needs them on one slot, as a Redis job queue on a cluster does (BullMQ asks for a hash tag
in its queue prefix for the same reason). A chunk costs the job slot a few commands per second or so of
worker CPU, so one shard carries many workers' traffic; encounters, which are most of the data and the
requests, spread over every shard. `tests/integration/test_cross_slot.py` checks every script and every
command the stores send.

API keys (`referee:apikey:<digest>`, service.api.http.auth) keep their untagged names: they are long-lived, and
each is only ever used alone.
"""
from __future__ import annotations

from dataclasses import dataclass

ENCOUNTER = "referee:enc:"
JOBS = "referee:sim:{jobs}:"  # every key of every simulation job: see below


def tagged(prefix: str, tag: str, *parts: object) -> str:
    """`prefix{tag}:part:part`: a key on the slot of `tag`."""
    return f"{prefix}{{{tag}}}" + "".join(f":{part}" for part in parts)


@dataclass(frozen=True)
class Keys:
    """The Redis keys of one encounter: all on the slot of its id (a script may touch any of them)."""

    main: str
    events: str
    undo: str
    live: str
    audit: str

    @classmethod
    def of(cls, encounter_id: str) -> Keys:
        base = tagged(ENCOUNTER, encounter_id)
        return cls(base, f"{base}:events", f"{base}:undo", f"{base}:live", f"{base}:audit")

    def named(self, suffix: str) -> str:
        """Another key of this encounter (e.g. "nonce"), on the same slot as the rest."""
        return f"{self.main}:{suffix}"

    @property
    def stored(self) -> tuple[str, str, str, str]:
        return self.main, self.events, self.undo, self.audit

    @property
    def all(self) -> tuple[str, str, str, str, str]:
        return self.main, self.events, self.undo, self.live, self.audit


def client_bytes(client: str) -> str:
    """Hash of what each of a client's encounters holds, and the sum (the byte cap)."""
    return tagged("referee:quota:bytes:", client)


def client_encounters(client: str) -> str:
    """Sorted set of a client's encounter ids (the stored-encounters cap)."""
    return tagged("referee:quota:enc:", client)


def rate_window(identity: str, period: int, window: int) -> str:
    """One fixed-window rate-limit counter."""
    return tagged("referee:rate:", identity, period, window)


def client_streams(client: str) -> str:
    """Sorted set of a client's open-stream leases."""
    return tagged("referee:streams:client:", client)


def encounter_streams(encounter_id: str) -> str:
    """Sorted set of an encounter's open-stream leases (on the encounter's own slot)."""
    return tagged("referee:streams:enc:", encounter_id)
