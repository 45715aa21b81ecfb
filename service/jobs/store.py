"""Simulation jobs in Redis: the job record, the fair queue of chunks, one tally per chunk, progress, leases.

Keys (all expire with the job's TTL, but the ring and the set of active jobs; `{jobs}` below is in every name:
one hash tag puts all of them on one Redis Cluster slot, as the fair queue's scripts need):
  referee:sim:{id}              hash: state, ruleset, trials, seed, chunk_size, chunks, next (the next chunk
                                to hand out), times, matchup, result, cost (engine, combatants, steps,
                                cpu_seconds), tenant, client, requeued (chunks handed back to the queue
                                before they finished: by a stopping worker, or swept after a dead one)
  referee:sim:{id}:part:{i}     the tally of chunk i, written once (SET NX)
  referee:sim:{id}:done         hash chunk index -> trials, written once per chunk (HSETNX)
  referee:sim:{id}:claimed      hash chunk index -> time a worker began it
  referee:sim:{id}:lease:{i}    present while a live worker runs chunk i (it renews it every few seconds)
  referee:sim:{id}:retry        chunks whose worker died, to hand out again before the job's others
  referee:sim:queue:{client}    the client's jobs with chunks not yet handed out, oldest first
  referee:sim:ring              the clients with such jobs, in the order their next chunk is due
  referee:sim:gate              written first by the scripts that must not half-run on a full Redis
  referee:sim:active            ids of jobs a worker has begun and that have not ended (what the sweeper
                                looks at: jobs still waiting in the queue cost it nothing)
  referee:sim:client:{client}   sorted set of a client's job ids scored by estimated CPU s (the caps)
  referee:sim:client:{client}:cpu  the CPU s of the jobs it was given since its jobs were last counted
Every write a chunk makes is idempotent, so a chunk run twice (a worker killed mid-chunk, a chunk handed
out again) counts once. A job's state only ever leaves `queued`/`running` once: `done` and `failed` are
final, and a deleted job is gone (a chunk still running finds no record and stops).
"""
from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any

from redis import Redis
from redis.exceptions import OutOfMemoryError, ResponseError

from service.jobs import lua
from service.sessions.keys import JOBS

PREFIX = JOBS  # "referee:sim:{jobs}:": one hash tag for every job key (service.sessions.keys)
ACTIVE = PREFIX + "active"
RING = PREFIX + "ring"
GATE = PREFIX + "gate"  # written first by scripts that must not half-run on a full Redis (service.jobs.lua)
TERMINAL = ("done", "cancelled", "failed")
INTEGERS = ("trials", "seed", "chunk_size", "chunks", "trials_done", "next", "combatants", "steps", "requeued")
FLOATS = ("created", "started", "finished", "cpu_seconds")


@dataclass(frozen=True)
class Caps:
    """What one client may have queued or running at once (0: no bound)."""

    jobs: int = 0
    cpu_seconds: float = 0.0


NO_CAPS = Caps()


class OverCap(Exception):
    """The client already holds as much as a cap allows."""

    def __init__(self, message: str):
        super().__init__(message)


class JobStore:
    """Reads and writes one Redis database's simulation jobs."""

    def __init__(self, redis: Redis, ttl: int = 24 * 3600):
        self.redis = redis
        self.ttl = ttl

    def _script(self, script: str, keys: int, *args: Any) -> Any:
        """Run a Lua script; a Redis at its maxmemory refusing a write inside it raises OutOfMemoryError, as
        it does for a plain command (redis-py reports it as a script error)."""
        try:
            return self.redis.eval(script, keys, *args)
        except ResponseError as error:
            if "OOM command not allowed" in str(error) and not isinstance(error, OutOfMemoryError):
                raise OutOfMemoryError(str(error)) from error
            raise

    def submit(self, record: dict[str, Any], caps: Caps = NO_CAPS) -> None:
        """Store a new job and queue its chunks behind its client's other jobs, if the client's caps allow
        (OverCap otherwise, and nothing is stored)."""
        job_id, client = record["id"], record["client"]
        keys = [PREFIX + job_id, f"{PREFIX}client:{client}", f"{PREFIX}queue:{client}", RING,
                f"{PREFIX}client:{client}:cpu"]
        fields = [item for pair in record.items() for item in pair]
        admitted, _, work = self._script(lua.SUBMIT, 5, *keys, PREFIX, job_id, client, caps.jobs,
                                                caps.cpu_seconds, record["cpu_seconds"], self.ttl, *fields)
        if admitted == 0:
            raise OverCap(f"at most {caps.jobs} simulations may be queued or running per client; wait for one "
                          "to end or delete one")
        if admitted < 0:
            raise OverCap(f"this client's queued and running simulations may cost {float(work):,.0f} s of worker "
                          f"CPU; with this one ({record['cpu_seconds']:,.0f} s) that passes the {caps.cpu_seconds:g} s "
                          "a client may have queued at once; wait for one to end or delete one")

    def take(self, lease_seconds: int) -> tuple[str, int, bool] | None:
        """The next chunk fairly due, claimed with a lease: (job id, chunk, whether more are queued), or None."""
        taken = self._script(lua.TAKE, 2, RING, GATE, PREFIX, time.time(), lease_seconds, self.ttl)
        return None if taken is None else (taken[0].decode(), int(taken[1]), bool(taken[2]))

    def queued(self) -> bool:
        """Whether any client has a chunk waiting to be handed out (or a stale entry a take will clear)."""
        return bool(self.redis.llen(RING))

    def get(self, job_id: str) -> dict[str, Any] | None:
        """The job record with numbers and JSON decoded, or None for an unknown (or expired) id."""
        raw = self.redis.hgetall(PREFIX + job_id)
        if not raw or b"trials" not in raw:
            return None
        job = {k.decode(): v.decode() for k, v in raw.items()}
        job.setdefault("ruleset", "tactical")
        for name in INTEGERS:
            if name in job:
                job[name] = int(job[name])
        for name in FLOATS:
            if name in job:
                job[name] = float(job[name])
        for name in ("matchup", "result"):
            if name in job:
                job[name] = json.loads(job[name])
        return job

    def state(self, job_id: str) -> str | None:
        """The job's state (None once it is deleted or expired): what a running chunk watches."""
        state = self.redis.hget(PREFIX + job_id, "state")
        return state.decode() if state is not None else None

    def active(self) -> list[str]:
        """Ids of the jobs a worker has begun that are not known to have ended."""
        return [member.decode() for member in self.redis.smembers(ACTIVE)]

    def forget_active(self, job_id: str) -> None:
        self.redis.srem(ACTIVE, job_id)

    def claim(self, job_id: str, index: int, lease_seconds: int) -> None:
        """A worker begins chunk `index` outside the queue (a message of an older version): claimed, leased."""
        with self.redis.pipeline(transaction=True) as pipe:  # MULTI, on a cluster too (one slot: {jobs})
            pipe.hset(f"{PREFIX}{job_id}:claimed", index, time.time()).expire(f"{PREFIX}{job_id}:claimed", self.ttl)
            pipe.set(f"{PREFIX}{job_id}:lease:{index}", 1, ex=lease_seconds).sadd(ACTIVE, job_id).execute()

    def renew(self, job_id: str, index: int, lease_seconds: int) -> None:
        self.redis.set(f"{PREFIX}{job_id}:lease:{index}", 1, ex=lease_seconds)

    def release(self, job_id: str, index: int) -> None:
        self.redis.delete(f"{PREFIX}{job_id}:lease:{index}")

    def hand_back(self, job_id: str, index: int, client: str) -> bool:
        """A stopping worker gives chunk `index` back: queued again at once, first of its job's, and counted
        in the job's `requeued` (False when the job ended or the chunk was done meanwhile)."""
        base = PREFIX + job_id
        keys = [base, f"{base}:lease:{index}", *(f"{base}:{name}" for name in ("claimed", "done", "retry")),
                f"{PREFIX}queue:{client}", RING, GATE]
        return bool(self._script(lua.HAND_BACK, len(keys), *keys, index, job_id, client, self.ttl))

    def requeue_lost(self, job_id: str, client: str) -> list[int]:
        """Queue again the chunks begun by a worker that stopped renewing its lease before finishing them."""
        keys = [f"{PREFIX}{job_id}:{name}" for name in ("claimed", "done", "retry")]
        keys += [f"{PREFIX}queue:{client}", RING, GATE, PREFIX + job_id]
        lost = self._script(lua.REQUEUE, 7, *keys, f"{PREFIX}{job_id}:lease:", job_id, client, self.ttl)
        return sorted(int(i) for i in lost)

    def is_done(self, job_id: str, index: int) -> bool:
        return bool(self.redis.hexists(f"{PREFIX}{job_id}:done", index))

    def chunks_done(self, job_id: str) -> int:
        return int(self.redis.hlen(f"{PREFIX}{job_id}:done"))

    def save(self, job_id: str, index: int, trials: int, tally: dict) -> tuple[int, int]:
        """Store chunk `index`'s tally and count its trials, once: (1 counted now, 0 already, -1 the job
        ended or is gone; chunks done)."""
        keys = [PREFIX + job_id, f"{PREFIX}{job_id}:part:{index}", f"{PREFIX}{job_id}:done"]
        new, done = self._script(lua.SAVE, 3, *keys, index, trials, json.dumps(tally), self.ttl)
        return int(new), int(done)

    def parts(self, job_id: str, chunks: int) -> list[dict | None]:
        raw = self.redis.mget([f"{PREFIX}{job_id}:part:{i}" for i in range(chunks)])
        return [json.loads(part) if part is not None else None for part in raw]

    def finish(self, job_id: str, state: str, result: dict | None = None, error: str | None = None) -> bool:
        """End a job (done with its result, or failed) unless it already ended: an ended job's state never
        changes. True when this call ended it."""
        fields: list[Any] = ["state", state, "finished", time.time()]
        if result is not None:
            fields += ["result", json.dumps(result)]
        if error:
            fields += ["error", error]
        return bool(self._script(lua.FINISH, 2, PREFIX + job_id, ACTIVE, job_id, *fields))

    def delete(self, job: dict[str, Any]) -> None:
        """Remove a job and everything of it (but the leases of chunks still running, which lapse): such a
        chunk sees the job gone within a poll and stops."""
        base, client = PREFIX + job["id"], job.get("client", "")
        keys = [f"{PREFIX}client:{client}", f"{PREFIX}queue:{client}", RING, ACTIVE, base]
        keys += [f"{base}:{name}" for name in ("done", "claimed", "retry")]
        keys += [f"{base}:part:{i}" for i in range(job["chunks"])]
        self._script(lua.DROP, len(keys), *keys, job["id"], client)


def progress(job: dict[str, Any], now: float | None = None) -> dict[str, Any]:
    """trials_done, trials, percent and a linear ETA from the rate since the first chunk started (the ETA is
    0 once done and null once failed: nothing more will run), and how many times a chunk went back to the queue."""
    done, total = job["trials_done"], job["trials"]
    eta = None
    if job["state"] == "done":
        eta = 0.0
    elif job["state"] not in TERMINAL and done and "started" in job:
        rate = done / max((now or time.time()) - job["started"], 1e-6)
        eta = (total - done) / rate
    return {"trials_done": done, "trials": total, "percent": 100.0 * done / total, "eta_seconds": eta,
            "chunks_requeued": job.get("requeued", 0)}
