"""Simulation jobs in Redis: the job record, one partial tally per chunk, progress and the cancel flag.

Keys (all expire with the job's TTL):
  referee:sim:{id}            hash: state, ruleset, trials, seed, chunk_size, chunks, times, matchup, result,
                              tenant
  referee:sim:{id}:part:{i}   the tally of chunk i, written once (SET NX)
  referee:sim:{id}:done       hash chunk index -> trials, written once per chunk (HSETNX)
  referee:sim:{id}:cancel     present when the job was cancelled
Every write a chunk makes is idempotent, so a chunk run twice (a worker killed mid-chunk, a
redelivered message) counts once.
"""
from __future__ import annotations

import json
import time
from typing import Any

from redis import Redis

PREFIX = "referee:sim:"
TERMINAL = ("done", "cancelled", "failed")

# Mark chunk ARGV[1] (ARGV[2] trials) done exactly once, and move a queued job to running.
_DONE = """
if redis.call('HSETNX', KEYS[2], ARGV[1], ARGV[2]) == 1 then
  redis.call('HINCRBY', KEYS[1], 'trials_done', ARGV[2])
  if redis.call('HGET', KEYS[1], 'state') == 'queued' then redis.call('HSET', KEYS[1], 'state', 'running') end
  redis.call('EXPIRE', KEYS[2], ARGV[3])
  return 1
end
return 0
"""


class JobStore:
    """Reads and writes one Redis database's simulation jobs."""

    def __init__(self, redis: Redis, ttl: int = 24 * 3600):
        self.redis = redis
        self.ttl = ttl

    def create(self, job_id: str, matchup: dict, trials: int, seed: int, chunk_size: int,
               chunks: int, tenant: str | None = None, ruleset: str = "tactical") -> None:
        """A new queued job (owned by `tenant` when API keys are on)."""
        record = {"id": job_id, "state": "queued", "ruleset": ruleset, "trials": trials, "seed": seed, "chunk_size": chunk_size,
                  "chunks": chunks, "trials_done": 0, "created": time.time(), "matchup": json.dumps(matchup),
                  "tenant": tenant or ""}
        key = PREFIX + job_id
        self.redis.hset(key, mapping=record)
        self.redis.expire(key, self.ttl)

    def get(self, job_id: str) -> dict[str, Any] | None:
        """The job record with numbers and JSON decoded, or None for an unknown (or expired) id."""
        raw = self.redis.hgetall(PREFIX + job_id)
        if not raw:
            return None
        job = {k.decode(): v.decode() for k, v in raw.items()}
        job.setdefault("ruleset", "tactical")
        for name in ("trials", "seed", "chunk_size", "chunks", "trials_done"):
            job[name] = int(job[name])
        for name in ("created", "started", "finished"):
            if name in job:
                job[name] = float(job[name])
        for name in ("matchup", "result"):
            if name in job:
                job[name] = json.loads(job[name])
        return job

    def start_chunk(self, job_id: str) -> None:
        """Note when the first chunk began (for the ETA)."""
        self.redis.hsetnx(PREFIX + job_id, "started", time.time())

    def save_part(self, job_id: str, index: int, tally: dict) -> bool:
        """Store chunk `index`'s tally once; a second run writes nothing. True when it was new."""
        return bool(self.redis.set(f"{PREFIX}{job_id}:part:{index}", json.dumps(tally), nx=True, ex=self.ttl))

    def has_part(self, job_id: str, index: int) -> bool:
        return bool(self.redis.exists(f"{PREFIX}{job_id}:part:{index}"))

    def parts(self, job_id: str, chunks: int) -> list[dict | None]:
        """Every chunk's tally, None where a chunk has not finished."""
        raw = self.redis.mget([f"{PREFIX}{job_id}:part:{i}" for i in range(chunks)])
        return [json.loads(r) if r is not None else None for r in raw]

    def chunk_done(self, job_id: str, index: int, trials: int) -> bool:
        """Add a finished chunk's trials to the progress, once per chunk."""
        keys = [PREFIX + job_id, f"{PREFIX}{job_id}:done"]
        return bool(self.redis.eval(_DONE, 2, *keys, index, trials, self.ttl))

    def finish(self, job_id: str, state: str, result: dict | None = None, error: str | None = None) -> None:
        """Record the end of a job: done with its result, cancelled or failed."""
        fields: dict[str, Any] = {"state": state, "finished": time.time()}
        if result is not None:
            fields["result"] = json.dumps(result)
        if error:
            fields["error"] = error
        self.redis.hset(PREFIX + job_id, mapping=fields)

    def cancel(self, job_id: str) -> None:
        """Raise the flag chunks check before they start, and mark the job cancelled."""
        self.redis.set(f"{PREFIX}{job_id}:cancel", 1, ex=self.ttl)
        self.finish(job_id, "cancelled")

    def cancelled(self, job_id: str) -> bool:
        return bool(self.redis.exists(f"{PREFIX}{job_id}:cancel"))


def progress(job: dict[str, Any], now: float | None = None) -> dict[str, Any]:
    """trials_done, trials, percent and a linear ETA from the rate since the first chunk started."""
    done, total = job["trials_done"], job["trials"]
    eta = None
    if job["state"] == "done":
        eta = 0.0
    elif done and "started" in job:
        rate = done / max((now or time.time()) - job["started"], 1e-6)
        eta = (total - done) / rate
    return {"trials_done": done, "trials": total, "percent": 100.0 * done / total, "eta_seconds": eta}
