"""Start and delete simulation jobs: plan within the limits, record and queue in one step, send one turn."""
from __future__ import annotations

import json
import random
import time
import uuid
from typing import Any

from celery import Celery

from service.jobs.store import NO_CAPS, Caps, JobStore, OverCap
from service.jobs.tasks import send_turn
from service.sim.budget import JobPlan, Limits, plan_job
from service.sim.cost import Cost
from service.sim.simulator import simulator_for

__all__ = ["Caps", "OverCap", "delete", "submit"]
UNLIMITED = Limits(float("inf"), float("inf"))


def submit(celery: Celery, store: JobStore, matchup: dict[str, Any], trials: int, seed: int | None = None,
           chunk_size: int | None = None, tenant: str | None = None, ruleset: str = "tactical", client: str = "",
           caps: Caps = NO_CAPS, cost: Cost | None = None, job_plan: JobPlan | None = None,
           limits: Limits = UNLIMITED) -> dict[str, Any]:
    """Queue a job of `trials` fights of `matchup` under `ruleset`; returns its record. The matchup's `cost`
    and the job's plan are worked out here unless given (RulesError for a bad matchup or one over `limits`);
    a `client` already holding what `caps` allow gets OverCap. If the turn cannot be queued (the broker is
    down) the job is removed again and the error raised: no job is left that nothing will run."""
    cost = cost or simulator_for(ruleset).cost(matchup)
    job_plan = job_plan or plan_job(cost, trials, chunk_size, limits)
    seed = random.SystemRandom().randrange(2**63) if seed is None else seed
    record = {"id": uuid.uuid4().hex, "state": "queued", "ruleset": ruleset, "trials": trials, "seed": seed,
              "chunk_size": job_plan.chunk_size, "chunks": len(job_plan.sizes), "next": 0, "trials_done": 0,
              "created": time.time(), "matchup": json.dumps(matchup), "tenant": tenant or "", "client": client,
              "engine": cost.engine, "combatants": cost.combatants, "steps": cost.steps,
              "cpu_seconds": round(job_plan.cpu_seconds, 3)}
    store.submit(record, caps)
    try:
        send_turn(celery)
    except Exception:
        try:
            store.delete(record)
        except Exception:  # noqa: BLE001 - Redis is down too: a sweeper sends a turn for the queued job later
            pass
        raise
    return store.get(record["id"]) or {}


def delete(store: JobStore, job: dict[str, Any]) -> None:
    """Remove a job whatever its state: a chunk running it stops within a step and a fraction of a second,
    chunks not yet handed out never run, and its client's caps count it no more."""
    store.delete(job)
