"""A simulation job's plan within the server's limits: its chunks and its estimated worker CPU.

A job is at most MAX_CHUNKS chunks (each one message on the queue and one stored tally); a chunk is
estimated to cost at most `chunk_seconds` of CPU (so a worker is never held long by one client, and
another client's job starts soon); the whole job at most `job_seconds` (`service.sim.cost` estimates both).
Without a `chunk_size` a job's chunks are DEFAULT_CHUNK fights, fewer when such a chunk would cost more than
`chunk_seconds`, more when the job would otherwise have more than MAX_CHUNKS chunks.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from service.rules.errors import OutOfRange
from service.sim.chunks import DEFAULT_CHUNK, plan
from service.sim.cost import Cost

MAX_CHUNKS = 50


@dataclass(frozen=True)
class Limits:
    """The server's bounds on one job's estimated CPU seconds and on one chunk's."""

    job_seconds: float
    chunk_seconds: float


@dataclass(frozen=True)
class JobPlan:
    """The chunk size a job runs with, its chunks' sizes and its estimated CPU seconds."""

    chunk_size: int
    sizes: list[int]
    cpu_seconds: float


def default_chunk(cost: Cost, trials: int, chunk_seconds: float) -> int:
    """DEFAULT_CHUNK fights, or as many as cost `chunk_seconds` if fewer, but never more than MAX_CHUNKS chunks."""
    fitting = min(DEFAULT_CHUNK, max(1, cost.largest_chunk(chunk_seconds)))
    return max(fitting, math.ceil(trials / MAX_CHUNKS))


def check_chunk_count(trials: int, chunk_size: int | None) -> None:
    """OutOfRange on `chunk_size` when it would split the job into more than MAX_CHUNKS chunks (no need to read
    the matchup to know)."""
    if chunk_size is not None and math.ceil(trials / chunk_size) > MAX_CHUNKS:
        raise OutOfRange(f"a job has at most {MAX_CHUNKS} chunks: with {trials:,} trials chunk_size must be at "
                         f"least {math.ceil(trials / MAX_CHUNKS):,}", ("chunk_size",))


def plan_job(cost: Cost, trials: int, chunk_size: int | None, limits: Limits) -> JobPlan:
    """The job's plan, or OutOfRange naming the field to change (the step cap, `chunk_size` or `trials`)."""
    most = cost.largest_chunk(limits.chunk_seconds)
    if most < 1:
        raise OutOfRange(f"one fight of this matchup may cost {cost.chunk_seconds(1):,.1f} s of worker CPU "
                         f"({cost.engine} engine, {cost.combatants} combatants, {cost.steps} steps), more than a "
                         f"chunk may ({limits.chunk_seconds:g} s); lower the step cap or use fewer combatants",
                         ("matchup", "options"))
    if chunk_size is not None:
        _check_chunk_size(trials, chunk_size, most, limits)
    else:
        chunk_size = default_chunk(cost, trials, limits.chunk_seconds)
    sizes = plan(trials, chunk_size)
    seconds = cost.seconds(sizes)
    if seconds > limits.job_seconds:
        raise _over_budget(cost, trials, limits, f"the server's budget of {limits.job_seconds:g} s", seconds)
    if sizes[0] > most:  # only a default chunk: an explicit one was checked above
        raise _over_budget(cost, trials, limits, f"{MAX_CHUNKS} chunks of at most {limits.chunk_seconds:g} s")
    return JobPlan(chunk_size, sizes, seconds)


def _fits(cost: Cost, trials: int, limits: Limits) -> bool:
    """Whether `trials` fights with the default chunks stay within the limits."""
    chunk_size = default_chunk(cost, trials, limits.chunk_seconds)
    if min(chunk_size, trials) > cost.largest_chunk(limits.chunk_seconds):
        return False
    return cost.seconds(plan(trials, chunk_size)) <= limits.job_seconds


def _check_chunk_size(trials: int, chunk_size: int, most: int, limits: Limits) -> None:
    check_chunk_count(trials, chunk_size)
    if min(chunk_size, trials) > most:
        raise OutOfRange(f"a chunk may cost at most {limits.chunk_seconds:g} s of worker CPU; with this matchup "
                         f"chunk_size may be at most {most:,}", ("chunk_size",))


def _over_budget(cost: Cost, trials: int, limits: Limits, bound: str, seconds: float | None = None) -> OutOfRange:
    """422 on `trials`: what the job may cost, the bound it passes, and the most trials that fit."""
    fits = _most_trials(cost, trials, limits)
    estimate = f"may cost {seconds:,.0f} s of worker CPU" if seconds is not None else "is too large"
    return OutOfRange(f"this simulation {estimate} ({cost.engine} engine, every fight to its cap of {cost.steps} "
                      f"steps), over {bound}; use at most {fits:,} trials, or a lower step cap", ("trials",))


def _most_trials(cost: Cost, trials: int, limits: Limits) -> int:
    """The most trials (below `trials`) whose default plan fits the limits (0 when none does)."""
    low, high = 0, trials - 1
    while low < high:
        middle = (low + high + 1) // 2
        low, high = (middle, high) if _fits(cost, middle, limits) else (low, middle - 1)
    return low
