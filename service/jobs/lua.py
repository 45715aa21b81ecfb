"""The Lua scripts of the job store (`service.jobs.store`): each is one atomic step of a job's life.

A job that has ended (done, failed) or been deleted is never written again: every script that writes to a
job first reads its state. A Redis at its maxmemory refuses a script's first write that needs memory, but
keeps what the script did before it: a script that removes something before it adds something (TAKE pops
the ring, REQUEUE unclaims chunks) first writes a small key of its own (GATE), so a full Redis refuses it
before it has changed anything.
"""
from __future__ import annotations

ENDED = "not state or state == 'done' or state == 'cancelled' or state == 'failed'"

# Admit and queue a job. KEYS: record, the client's jobs (zset id -> estimated CPU s), the client's queue,
# the ring of clients with queued chunks, the CPU s the client's jobs were admitted with. ARGV: prefix, id,
# client, max jobs, max CPU s, this job's CPU s, ttl, then the record's field/value pairs. Answers {1 admitted
# | 0 at the jobs cap | -1 at the CPU cap, the client's live jobs, their CPU s as text}. Only a client that
# looks at a cap has its jobs read: ended ones are pruned then, and its CPU s counted afresh.
SUBMIT = f"""
local count, work = 0, 0
local max_jobs, max_work, cpu = tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])
if max_jobs > 0 or max_work > 0 then
  count = redis.call('ZCARD', KEYS[2])
  work = tonumber(redis.call('GET', KEYS[5]) or '0')
  if (max_jobs > 0 and count >= max_jobs) or (max_work > 0 and work + cpu > max_work) then
    count, work = 0, 0
    local members = redis.call('ZRANGE', KEYS[2], 0, -1, 'WITHSCORES')
    for i = 1, #members, 2 do
      local state = redis.call('HGET', ARGV[1] .. members[i], 'state')
      if {ENDED} then
        redis.call('ZREM', KEYS[2], members[i])
      else
        count = count + 1
        work = work + tonumber(members[i + 1])
      end
    end
    redis.call('SET', KEYS[5], tostring(work), 'EX', ARGV[7])
    if max_jobs > 0 and count >= max_jobs then return {{0, count, tostring(work)}} end
    if max_work > 0 and work + cpu > max_work then return {{-1, count, tostring(work)}} end
  end
  redis.call('ZADD', KEYS[2], ARGV[6], ARGV[2])
  redis.call('EXPIRE', KEYS[2], ARGV[7])
  redis.call('SET', KEYS[5], tostring(work + cpu), 'EX', ARGV[7])  -- not INCRBYFLOAT: Redis 6.2 can hang on it in a script
end
redis.call('HSET', KEYS[1], unpack(ARGV, 8))
redis.call('EXPIRE', KEYS[1], ARGV[7])
redis.call('RPUSH', KEYS[3], ARGV[2])
redis.call('EXPIRE', KEYS[3], ARGV[7])
if not redis.call('LPOS', KEYS[4], ARGV[3]) then redis.call('RPUSH', KEYS[4], ARGV[3]) end
return {{1, count, tostring(work)}}
"""

# The next chunk that is fairly due: the client at the head of the ring gives its oldest queued job's next
# chunk (one handed back by the sweeper first), and goes to the back of the ring while it has more. The
# chunk is claimed with a lease in the same step, so a worker that dies right after still loses nothing.
# KEYS: ring, gate. ARGV: prefix, now, lease seconds, ttl. Answers nil (nothing queued) or {id, chunk, 1 if
# any chunk is still queued after this one}.
TAKE = f"""
local prefix = ARGV[1]
redis.call('SET', KEYS[2], ARGV[2])  -- the gate: refused here by a full Redis, nothing taken yet
for _ = 1, 1000 do
  local client = redis.call('LPOP', KEYS[1])
  if not client then return nil end
  local queue = prefix .. 'queue:' .. client
  local job = redis.call('LINDEX', queue, 0)
  while job do
    local key = prefix .. job
    local state = redis.call('HGET', key, 'state')
    local index, next, chunks = nil, 0, 0
    if not ({ENDED}) then
      index = redis.call('LPOP', key .. ':retry')
      chunks = tonumber(redis.call('HGET', key, 'chunks'))
      next = tonumber(redis.call('HGET', key, 'next') or '0')
      if not index and next < chunks then
        index = tostring(next)
        next = next + 1
        redis.call('HSET', key, 'next', next)
      end
    end
    if not index or (next >= chunks and redis.call('LLEN', key .. ':retry') == 0) then
      redis.call('LPOP', queue)
    end
    if index then
      if redis.call('LLEN', queue) > 0 then redis.call('RPUSH', KEYS[1], client) end
      if state == 'queued' then redis.call('HSET', key, 'state', 'running', 'started', ARGV[2]) end
      redis.call('HSET', key .. ':claimed', index, ARGV[2])
      redis.call('EXPIRE', key .. ':claimed', ARGV[4])
      redis.call('SET', key .. ':lease:' .. index, 1, 'EX', ARGV[3])
      redis.call('SADD', prefix .. 'active', job)
      return {{job, tonumber(index), redis.call('LLEN', KEYS[1]) > 0 and 1 or 0}}
    end
    job = redis.call('LINDEX', queue, 0)
  end
end
return nil
"""

# Store chunk ARGV[1]'s tally (ARGV[3], ARGV[2] trials) once and count it done, unless the job has ended.
# KEYS: record, part, done hash. ARGV[4]: ttl. Answers {1 if counted now, 0 if already, -1 ended; chunks done}.
SAVE = f"""
local state = redis.call('HGET', KEYS[1], 'state')
if {ENDED} then return {{-1, 0}} end
redis.call('SET', KEYS[2], ARGV[3], 'NX', 'EX', ARGV[4])
local new = 0
if redis.call('HSETNX', KEYS[3], ARGV[1], ARGV[2]) == 1 then
  new = 1
  redis.call('HINCRBY', KEYS[1], 'trials_done', ARGV[2])
  redis.call('EXPIRE', KEYS[3], ARGV[4])
end
return {{new, redis.call('HLEN', KEYS[3])}}
"""

# End a job (id ARGV[1]) that has not ended yet: ARGV[2..] are field, value pairs. 1 when it ended it now.
FINISH = f"""
local state = redis.call('HGET', KEYS[1], 'state')
if {ENDED} then return 0 end
redis.call('HSET', KEYS[1], unpack(ARGV, 2))
redis.call('SREM', KEYS[2], ARGV[1])
return 1
"""

# Chunks a worker claimed, that are not done, and whose lease expired (the worker died): unclaim them and
# queue them again (before the job's other chunks), counting them in the record's `requeued`. KEYS: claimed,
# done, retry list, the client's queue, ring, gate, record. ARGV: lease key prefix, id, client, ttl. Answers
# the chunks queued again.
REQUEUE = """
redis.call('SET', KEYS[6], ARGV[2])  -- the gate: refused here by a full Redis, nothing unclaimed yet
local lost = {}
for _, index in ipairs(redis.call('HKEYS', KEYS[1])) do
  if redis.call('HEXISTS', KEYS[2], index) == 0 and redis.call('EXISTS', ARGV[1] .. index) == 0 then
    redis.call('HDEL', KEYS[1], index)
    redis.call('RPUSH', KEYS[3], index)
    table.insert(lost, index)
  end
end
if #lost > 0 then
  if redis.call('EXISTS', KEYS[7]) == 1 then redis.call('HINCRBY', KEYS[7], 'requeued', #lost) end
  redis.call('EXPIRE', KEYS[3], ARGV[4])
  if not redis.call('LPOS', KEYS[4], ARGV[2]) then redis.call('LPUSH', KEYS[4], ARGV[2]) end
  redis.call('EXPIRE', KEYS[4], ARGV[4])
  if not redis.call('LPOS', KEYS[5], ARGV[3]) then redis.call('RPUSH', KEYS[5], ARGV[3]) end
end
return lost
"""

# A worker that is stopping gives chunk ARGV[1] back at once: its lease goes, and unless the job has ended or
# the chunk is done it is unclaimed, queued again before the job's other chunks and counted in `requeued`.
# KEYS: record, lease, claimed, done, retry list, the client's queue, ring, gate. ARGV: chunk, id, client, ttl.
# Answers 1 when the chunk was queued again.
HAND_BACK = f"""
redis.call('SET', KEYS[8], ARGV[2])  -- the gate: refused here by a full Redis, nothing unclaimed yet
redis.call('DEL', KEYS[2])
local state = redis.call('HGET', KEYS[1], 'state')
if {ENDED} or redis.call('HEXISTS', KEYS[4], ARGV[1]) == 1 then return 0 end
redis.call('HDEL', KEYS[3], ARGV[1])
redis.call('LPUSH', KEYS[5], ARGV[1])
redis.call('EXPIRE', KEYS[5], ARGV[4])
if not redis.call('LPOS', KEYS[6], ARGV[2]) then redis.call('LPUSH', KEYS[6], ARGV[2]) end
redis.call('EXPIRE', KEYS[6], ARGV[4])
if not redis.call('LPOS', KEYS[7], ARGV[3]) then redis.call('RPUSH', KEYS[7], ARGV[3]) end
redis.call('HINCRBY', KEYS[1], 'requeued', 1)
return 1
"""

# Remove a job and everything of it. KEYS: the client's jobs, the client's queue, ring, active set, then the
# job's own keys. ARGV: id, client. The client leaves the ring when it has nothing else queued.
DROP = """
redis.call('DEL', unpack(KEYS, 5))
redis.call('SREM', KEYS[4], ARGV[1])
redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('LREM', KEYS[2], 0, ARGV[1])
if redis.call('LLEN', KEYS[2]) == 0 then redis.call('LREM', KEYS[3], 0, ARGV[2]) end
return 1
"""
