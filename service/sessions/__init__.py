"""Encounters kept between requests: a versioned JSON snapshot per encounter in Redis (or in memory).

`repository.RedisEncounters` and `memory.MemoryEncounters` offer the same interface; `service.Encounters`
puts a ruleset's engine in front of either one.
"""
