"""/v1/simulations: Monte Carlo batches of fights under any ruleset, as background jobs (Celery on Redis)."""
from __future__ import annotations

import functools
import json
import time
from typing import Any, Callable, Iterator

from flask import Response, current_app, request
from service.api.http.blueprint import Blueprint
from service.api.http.headers import headers
from kombu.exceptions import OperationalError
from werkzeug.exceptions import Conflict, ServiceUnavailable, TooManyRequests

from service.api.http.auth import current_tenant
from service.api.http.quotas import client_id
from service.api.kit.payloads import load_payload
from service.api.simulations.schemas import SimulationRequestSchema, SimulationSchema
from service.jobs import submit as jobs_submit
from service.jobs.store import TERMINAL, Caps, progress
from service.jobs.wiring import jobs_of
from service.sessions.cluster import UNAVAILABLE
from service.rules.errors import Contradiction, NotFound, OutOfRange, RulesError
from service.sim.budget import Limits, check_chunk_count, plan_job
from service.sim.simulator import simulator_for
from service.streams.serving import open_polled_stream

JOB = [{"in": "path", "name": "job_id", "description": "The simulation's id (`id` in the answer that started it)."}]
PLOT = JOB + [{"in": "path", "name": "name", "example": "wins",
               "description": "A chart the finished job lists under `links.plots`: wins, segments or wounds."}]
EXAMPLE = {"ruleset": "tactical", "trials": 10000, "seed": 7, "matchup": {"sides": [
    {"name": "knight", "combatants": [
        {"id": "knight", "attributes": {"STR": 16, "mSTA": 14, "CND": 15, "AGL": 12, "HRT": 14, "P-RES": 13},
         "mods": {"AWA": 1, "HRT": 1}, "dodge_dv": 20,
         "weapons": [{"name": "arming sword", "av": 70, "parry": 45, "size": 6, "weight_class": 2}],
         "armor": [{"type": "doublemail", "dr": 20, "durability": 40}, {"type": "padded", "dr": 10}]}]},
    {"name": "bandits", "combatants": [
        {"id": f"b{n}", "dodge_dv": 15, "weapons": [{"name": "axe", "av": 45, "parry": 25, "size": 5, "weight_class": 3}],
         "armor": [{"type": "padded", "dr": 10}]} for n in (1, 2)]}]}}

blp = Blueprint("simulations", __name__, description="Monte Carlo simulation of whole fights, as jobs.")
STREAM_SECONDS = 60.0
STREAM_EVERY = 0.5


def redis_required(view: Callable) -> Callable:
    """Answer 503 when Redis (job store or broker) cannot be reached."""
    @functools.wraps(view)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return view(*args, **kwargs)
        except (*UNAVAILABLE, OperationalError) as error:
            raise ServiceUnavailable("The job store (Redis) is unreachable; try again later.",
                                     retry_after=2) from error
    return wrapper


@blp.post("")
@blp.doc(operationId="createSimulation")
@blp.arguments(SimulationRequestSchema, example=EXAMPLE)
@blp.response(202, SimulationSchema, headers=headers("Location"))
@blp.alt_response(422, response="UNPROCESSABLE_ENTITY")
@blp.alt_response(429, response="DEFAULT_ERROR", description="The client already has `max_jobs_per_client` "
                                                            "simulations queued or running, or simulations "
                                                            "estimated to cost `max_client_cpu_seconds` of "
                                                            "worker CPU with this one.")
@blp.alt_response(503, response="DEFAULT_ERROR")
@redis_required
def start(body: dict) -> tuple[dict, int, dict]:
    """Start a simulation of `trials` fights; poll the Location for progress and the result.

    A job's cost is bounded by the engine that will play it (the answer's `cost`): every fight counted to
    its step cap (`max_segments` or `max_rounds`), its worker CPU must stay within the server's
    `max_job_cpu_seconds` and each chunk's within `max_chunk_cpu_seconds`, in at most 50 chunks (422
    naming the field to change otherwise). One client (API key, or IP when keys are off) may have at most
    `max_jobs_per_client` jobs queued or running, costing at most `max_client_cpu_seconds` together (429
    otherwise). Clients take turns on the workers, a chunk each.

    ### How simulated fighters fight

    {fight_policies}
    """
    ruleset, matchup = _matchup(body)
    config = current_app.extensions["referee.config"]
    if body["trials"] > config.max_trials:
        raise OutOfRange(f"trials must be at most {config.max_trials}", ("trials",))
    check_chunk_count(body["trials"], body.get("chunk_size"))
    cost = _with_prefix(lambda: simulator_for(ruleset).cost(matchup))
    job_plan = plan_job(cost, body["trials"], body.get("chunk_size"),
                        Limits(config.max_job_cpu_seconds, config.max_chunk_cpu_seconds))
    jobs = jobs_of()
    try:
        job = jobs_submit.submit(jobs.celery, jobs.store(), matchup, body["trials"], body.get("seed"),
                                 tenant=current_tenant(), ruleset=ruleset, client=client_id(), caps=_caps(config),
                                 cost=cost, job_plan=job_plan)
    except jobs_submit.OverCap as error:
        raise TooManyRequests(str(error), retry_after=10) from None
    return _view(job), 202, {"Location": _links(job)["self"]}


def _caps(config: Any) -> Caps:
    """The per-client caps (none); like rate limits, off in testing unless `limits_in_testing`."""
    if config.testing and not config.limits_in_testing:
        return Caps()
    return Caps(config.max_jobs_per_client, config.max_client_cpu_seconds)


@blp.get("/<string:job_id>", parameters=JOB)
@blp.doc(operationId="getSimulation")
@blp.response(200, SimulationSchema)
@blp.alt_response(404, response="NOT_FOUND")
@redis_required
def status(job_id: str) -> dict:
    """A simulation's state, progress and (once done) its result."""
    return _view(_job(job_id))


@blp.delete("/<string:job_id>", parameters=JOB)
@blp.doc(operationId="deleteSimulation")
@blp.response(204, description="The simulation is gone: a chunk that was running stops within a second, "
                               "chunks not yet started never run, and reading it answers 404.")
@blp.alt_response(404, response="NOT_FOUND")
@redis_required
def delete(job_id: str) -> Response:
    """Delete a simulation, whatever its state (a running one is stopped first)."""
    jobs_submit.delete(jobs_of().store(), _job(job_id))
    return Response(status=204)


@blp.get("/<string:job_id>/stream", parameters=JOB)
@blp.doc(operationId="streamSimulationProgress")
@blp.doc(responses={"200": {"description": "Server-sent `progress` events until the job ends (at most "
                                           "60 s; reconnect for more).",
                            "content": {"text/event-stream": {"schema": {"type": "string"}}}}})
@blp.alt_response(404, response="NOT_FOUND")
@blp.alt_response(429, response="TOO_MANY_REQUESTS",
                  description="This client or this job already has as many open streams as allowed.")
@redis_required
def stream(job_id: str) -> Response:
    """Progress of a simulation as server-sent events."""
    _job(job_id)
    store = jobs_of().store()
    return open_polled_stream(current_app._get_current_object(), f"job-{job_id}",
                              lambda: _progress_event(store, job_id), STREAM_EVERY, STREAM_SECONDS,
                              _events(store, job_id), current_tenant())


@blp.get("/<string:job_id>/plots/<string:name>.svg", parameters=PLOT)
@blp.doc(operationId="getSimulationPlot")
@blp.doc(responses={"200": {"description": "The chart as SVG.",
                            "content": {"image/svg+xml": {"schema": {"type": "string"}}}}})
@blp.alt_response(404, response="NOT_FOUND")
@blp.alt_response(409, response="DEFAULT_ERROR")
@redis_required
def plot(job_id: str, name: str) -> Response:
    """A chart of a finished simulation, one of those its `links.plots` name."""
    job = _job(job_id)
    simulator = simulator_for(job["ruleset"])
    if name not in simulator.plots:
        raise NotFound(f"no plot named {name!r}; try one of {sorted(simulator.plots)}")
    if job["state"] != "done":
        raise Conflict(f"the simulation is {job['state']}; plots exist once it is done")
    return Response(simulator.plot(name, job["result"]), mimetype="image/svg+xml")


def _progress_event(store: Any, job_id: str) -> tuple[str, bool]:
    """One `progress` event of the job (empty when it is gone) and whether the stream is done."""
    job = store.get(job_id)
    if job is None:
        return "", True
    text = f"event: progress\ndata: {json.dumps({'state': job['state'], **progress(job)})}\n\n"
    return text, job["state"] in TERMINAL


def _events(store: Any, job_id: str) -> Iterator[str]:
    """The stream from the request's own thread (where the server cannot hand it to the stream hub)."""
    deadline = time.monotonic() + STREAM_SECONDS
    while True:
        text, done = _progress_event(store, job_id)
        if text:
            yield text
        if done or time.monotonic() > deadline:
            return
        time.sleep(STREAM_EVERY)


def _matchup(body: dict) -> tuple[str, dict]:
    """The ruleset and the matchup to play: the body's (its options loaded by the ruleset), or a stored
    encounter's (whose ruleset a different `ruleset` contradicts)."""
    if ("matchup" in body) == ("encounter_id" in body):
        raise Contradiction("send exactly one of matchup and encounter_id", ("matchup",))
    if "matchup" in body:
        ruleset = body.get("ruleset") or "tactical"
        options = load_payload(ruleset, "sim_options", body["matchup"].get("options") or {}, ("matchup", "options"))
        return ruleset, {**body["matchup"], "options": options}
    from service.jobs.encounters import matchup_of

    ruleset, matchup = matchup_of(body["encounter_id"], request.headers.get("Authorization", ""))
    if body.get("ruleset") not in (None, ruleset):
        raise Contradiction(f"encounter {body['encounter_id']!r} plays {ruleset!r}", ("ruleset",))
    return ruleset, matchup


def _with_prefix(call: Callable[[], Any]) -> Any:
    """Domain errors about the matchup name their field from the request body's root."""
    try:
        return call()
    except RulesError as error:
        if error.field and error.field[0] != "matchup":
            error.field = ("matchup", *error.field)
        raise


def _job(job_id: str) -> dict:
    job = jobs_of().store().get(job_id)
    tenant = current_tenant()
    if job is None or (tenant is not None and job.get("tenant") != tenant):
        raise NotFound(f"no simulation {job_id!r} (unknown or expired)")
    return job


def _links(job: dict) -> dict:
    base = f"/v1/simulations/{job['id']}"
    names = simulator_for(job["ruleset"]).plots
    return {"self": base, "stream": f"{base}/stream", "plots": {n: f"{base}/plots/{n}.svg" for n in names}}


def _view(job: dict) -> dict:
    cost = {"engine": job["engine"], "cpu_seconds": job["cpu_seconds"]} if "engine" in job else None
    return {**{k: job[k] for k in ("id", "ruleset", "state", "trials", "seed", "chunk_size", "chunks")},
            "cost": cost, "progress": progress(job), "result": job.get("result"), "error": job.get("error"),
            "links": _links(job)}
