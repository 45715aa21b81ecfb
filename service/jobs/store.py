"""Simulation jobs in Redis: the job record, one partial tally per chunk, progress, leases and the cancel flag.

Keys (all expire with the job's TTL):
  referee:sim:{id}              hash: state, ruleset, trials, seed, chunk_size, chunks, times, matchup, result,
                                tenant, client
  referee:sim:{id}:part:{i}     the tally of chunk i, written once (SET NX)
  referee:sim:{id}:done         hash chunk index -> trials, written once per chunk (HSETNX)
  referee:sim:{id}:claimed      hash chunk index -> time a worker began it
  referee:sim:{id}:lease:{i}    present while a live worker runs chunk i (it renews it every few seconds)
  referee:sim:{id}:cancel       present when the job was cancelled
  referee:sim:active            set of the ids of jobs a worker has begun and that have not ended (what the
                                sweeper looks at: jobs still waiting in the queue cost it nothing)
  referee:sim:client:{client}   sorted set of a client's job ids by creation time (the queued-jobs cap)
Every write a chunk makes is idempotent, so a chunk run twice (a worker killed mid-chunk, a
redelivered or re-sent message) counts once. A job's state only ever leaves `queued`/`running` once:
`done`, `cancelled` and `failed` are final.
"""
from __future__ import annotations

import json
import time
from typing import Any

from redis import Redis

PREFIX = "referee:sim:"
ACTIVE = PREFIX + "active"
TERMINAL = ("done", "cancelled", "failed")
PENDING_TTL = 60  # seconds a record lives until its chunks are queued (a failed submit leaves nothing)

# Mark chunk ARGV[1] (ARGV[2] trials) done once, move a queued job to running; answers
# {1 if this call counted it, chunks done so far}.
_DONE = """
local new = 0
if redis.call('HSETNX', KEYS[2], ARGV[1], ARGV[2]) == 1 then
  new = 1
  redis.call('HINCRBY', KEYS[1], 'trials_done', ARGV[2])
  if redis.call('HGET', KEYS[1], 'state') == 'queued' then redis.call('HSET', KEYS[1], 'state', 'running') end
  redis.call('EXPIRE', KEYS[2], ARGV[3])
end
return {new, redis.call('HLEN', KEYS[2])}
"""

# End a job (id ARGV[1]) that has not ended yet: ARGV[2..] are field, value pairs. 1 when it ended it now.
_FINISH = """
local state = redis.call('HGET', KEYS[1], 'state')
if not state or state == 'done' or state == 'cancelled' or state == 'failed' then return 0 end
redis.call('HSET', KEYS[1], unpack(ARGV, 2))
redis.call('SREM', KEYS[2], ARGV[1])
return 1
"""

# Chunks a worker claimed, that are not done, and whose lease expired (the worker died): unclaim and list them.
_LOST = """
local lost = {}
local claimed = redis.call('HKEYS', KEYS[1])
for _, index in ipairs(claimed) do
  if redis.call('HEXISTS', KEYS[2], index) == 0 and redis.call('EXISTS', ARGV[1] .. index) == 0 then
    redis.call('HDEL', KEYS[1], index)
    table.insert(lost, index)
  end
end
return lost
"""

# Admit a new job of a client holding fewer than ARGV[3] jobs not yet ended: 1 admitted, 0 refused. The
# client's jobs are only looked at (and ended ones pruned) once there are as many as the cap.
_ADMIT = """
local live = 0
if redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[3]) then
  redis.call('ZADD', KEYS[1], ARGV[4], ARGV[2])
  redis.call('EXPIRE', KEYS[1], ARGV[5])
  return 1
end
for _, id in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
  local state = redis.call('HGET', ARGV[1] .. id, 'state')
  if not state or state == 'done' or state == 'cancelled' or state == 'failed' then
    redis.call('ZREM', KEYS[1], id)
  else
    live = live + 1
  end
end
if live >= tonumber(ARGV[3]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[4], ARGV[2])
redis.call('EXPIRE', KEYS[1], ARGV[5])
return 1
"""


class JobStore:
    """Reads and writes one Redis database's simulation jobs."""

    def __init__(self, redis: Redis, ttl: int = 24 * 3600):
        self.redis = redis
        self.ttl = ttl

    def create(self, job_id: str, matchup: dict, trials: int, seed: int, chunk_size: int,
               chunks: int, tenant: str | None = None, ruleset: str = "tactical", client: str = "") -> None:
        """A new queued job (owned by `tenant` when API keys are on). It lives PENDING_TTL seconds until
        `confirm` says its chunks are queued, so a submit that fails half way leaves nothing for long."""
        record = {"id": job_id, "state": "queued", "ruleset": ruleset, "trials": trials, "seed": seed,
                  "chunk_size": chunk_size, "chunks": chunks, "trials_done": 0, "created": time.time(),
                  "matchup": json.dumps(matchup), "tenant": tenant or "", "client": client}
        key = PREFIX + job_id
        with self.redis.pipeline() as pipe:
            pipe.hset(key, mapping=record).expire(key, PENDING_TTL).execute()

    def admit(self, client: str, job_id: str, cap: int) -> bool:
        """Count `job_id` against `client`'s jobs not yet ended; False (nothing counted) at `cap`."""
        return bool(self.redis.eval(_ADMIT, 1, f"{PREFIX}client:{client}", PREFIX, job_id, cap, time.time(),
                                    self.ttl))

    def confirm(self, job_id: str) -> None:
        """The job's chunks are queued: keep its record for the job TTL."""
        self.redis.expire(PREFIX + job_id, self.ttl)

    def discard(self, job_id: str, client: str = "") -> None:
        """Forget a job whose chunks could not be queued (chunks already sent find no record and skip)."""
        with self.redis.pipeline() as pipe:
            pipe.delete(PREFIX + job_id).srem(ACTIVE, job_id)
            if client:
                pipe.zrem(f"{PREFIX}client:{client}", job_id)
            pipe.execute()

    def exists(self, job_id: str) -> bool:
        return bool(self.redis.exists(PREFIX + job_id))

    def get(self, job_id: str) -> dict[str, Any] | None:
        """The job record with numbers and JSON decoded, or None for an unknown (or expired) id."""
        raw = self.redis.hgetall(PREFIX + job_id)
        if not raw or b"trials" not in raw:
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

    def active(self) -> list[str]:
        """Ids of the jobs a worker has begun that are not known to have ended."""
        return [member.decode() for member in self.redis.smembers(ACTIVE)]

    def forget_active(self, job_id: str) -> None:
        self.redis.srem(ACTIVE, job_id)

    def start_chunk(self, job_id: str) -> None:
        """Note when the first chunk began (for the ETA)."""
        self.redis.hsetnx(PREFIX + job_id, "started", time.time())

    def claim(self, job_id: str, index: int, lease_seconds: int) -> None:
        """A worker begins chunk `index`: claimed, with a lease it must renew while it runs."""
        with self.redis.pipeline() as pipe:
            pipe.hset(f"{PREFIX}{job_id}:claimed", index, time.time()).expire(f"{PREFIX}{job_id}:claimed", self.ttl)
            pipe.set(f"{PREFIX}{job_id}:lease:{index}", 1, ex=lease_seconds).sadd(ACTIVE, job_id).execute()

    def renew(self, job_id: str, index: int, lease_seconds: int) -> None:
        self.redis.set(f"{PREFIX}{job_id}:lease:{index}", 1, ex=lease_seconds)

    def release(self, job_id: str, index: int) -> None:
        self.redis.delete(f"{PREFIX}{job_id}:lease:{index}")

    def lost_chunks(self, job_id: str) -> list[int]:
        """Chunks begun by a worker that stopped renewing its lease before finishing them (now unclaimed)."""
        keys = [f"{PREFIX}{job_id}:claimed", f"{PREFIX}{job_id}:done"]
        return sorted(int(i) for i in self.redis.eval(_LOST, 2, *keys, f"{PREFIX}{job_id}:lease:"))

    def save_part(self, job_id: str, index: int, tally: dict) -> bool:
        """Store chunk `index`'s tally once; a second run writes nothing. True when it was new."""
        return bool(self.redis.set(f"{PREFIX}{job_id}:part:{index}", json.dumps(tally), nx=True, ex=self.ttl))

    def has_part(self, job_id: str, index: int) -> bool:
        return bool(self.redis.exists(f"{PREFIX}{job_id}:part:{index}"))

    def parts(self, job_id: str, chunks: int) -> list[dict | None]:
        """Every chunk's tally, None where a chunk has not finished."""
        raw = self.redis.mget([f"{PREFIX}{job_id}:part:{i}" for i in range(chunks)])
        return [json.loads(r) if r is not None else None for r in raw]

    def chunk_done(self, job_id: str, index: int, trials: int) -> tuple[bool, int]:
        """Add a finished chunk's trials to the progress, once per chunk: (counted now, chunks done)."""
        keys = [PREFIX + job_id, f"{PREFIX}{job_id}:done"]
        new, done = self.redis.eval(_DONE, 2, *keys, index, trials, self.ttl)
        return bool(new), int(done)

    def finish(self, job_id: str, state: str, result: dict | None = None, error: str | None = None) -> bool:
        """End a job (done with its result, cancelled or failed) unless it already ended: an ended job's
        state never changes. True when this call ended it."""
        fields: list[Any] = ["state", state, "finished", time.time()]
        if result is not None:
            fields += ["result", json.dumps(result)]
        if error:
            fields += ["error", error]
        return bool(self.redis.eval(_FINISH, 2, PREFIX + job_id, ACTIVE, job_id, *fields))

    def cancel(self, job_id: str) -> None:
        """Raise the flag chunks check before they start, and mark the job cancelled."""
        self.redis.set(f"{PREFIX}{job_id}:cancel", 1, ex=self.ttl)
        self.finish(job_id, "cancelled")

    def cancelled(self, job_id: str) -> bool:
        return bool(self.redis.exists(f"{PREFIX}{job_id}:cancel"))


def progress(job: dict[str, Any], now: float | None = None) -> dict[str, Any]:
    """trials_done, trials, percent and a linear ETA from the rate since the first chunk started; the ETA is
    0 once done and null once cancelled or failed (nothing more will run)."""
    done, total = job["trials_done"], job["trials"]
    eta = None
    if job["state"] == "done":
        eta = 0.0
    elif job["state"] not in TERMINAL and done and "started" in job:
        rate = done / max((now or time.time()) - job["started"], 1e-6)
        eta = (total - done) / rate
    return {"trials_done": done, "trials": total, "percent": 100.0 * done / total, "eta_seconds": eta}
