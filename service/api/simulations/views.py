"""/v1/simulations and /v1/{ruleset}/simulations: Monte Carlo batches of fights as background jobs (Celery on
Redis). Every operation is written once over a `SimShapes` (shapes.py) and registered on the deprecated shared
/v1/simulations (any ruleset, named by `ruleset`) and on each ruleset's own /v1/{ruleset}/simulations
(typed.py), where a job of another ruleset is not found (404).
"""
from __future__ import annotations

import functools
import json
import time
from collections.abc import Callable, Iterator
from typing import Any

from flask import Response, current_app, request
from kombu.exceptions import OperationalError
from werkzeug.exceptions import Conflict, ServiceUnavailable, TooManyRequests

from service.api.http.auth import current_tenant
from service.api.http.blueprint import Blueprint
from service.api.http.headers import headers
from service.api.http.quotas import client_id
from service.api.kit.payloads import load_payload, ruleset_schema
from service.api.simulations.schemas import EXAMPLE
from service.api.simulations.shapes import SimShapes, shared
from service.jobs import submit as jobs_submit
from service.jobs.store import TERMINAL, Caps, progress
from service.jobs.wiring import jobs_of
from service.rules import registry
from service.rules.errors import Contradiction, NotFound, OutOfRange, RulesError
from service.sessions.cluster import UNAVAILABLE
from service.sim.budget import Limits, check_chunk_count, plan_job
from service.sim.policy import INTRO, fight_policy
from service.sim.simulator import simulator_for
from service.streams.serving import open_polled_stream

__all__ = ["EXAMPLE", "blp", "register"]

JOB = [{"in": "path", "name": "job_id", "description": "The simulation's id (`id` in the answer that started it)."}]
PLOT = JOB + [{"in": "path", "name": "name", "example": "wins",
               "description": "A chart the finished job lists under `links.plots`: wins, segments or wounds."}]

blp = Blueprint("simulations", __name__, description="Deprecated: simulations of every ruleset on one set of paths, "
                "their combatants and options untyped. Use `/v1/{ruleset}/simulations`, typed for one ruleset.")
STREAM_SECONDS = 60.0
STREAM_EVERY = 0.5
START = """Start a simulation of `trials` fights; poll the Location for progress and the result.

A job's cost is bounded by the engine that will play it (the answer's `cost`): every fight counted to
its step cap (`max_segments` or `max_rounds`), its worker CPU must stay within the server's
`max_job_cpu_seconds` and each chunk's within `max_chunk_cpu_seconds`, in at most 50 chunks (422
naming the field to change otherwise). One client (API key, or IP when keys are off) may have at most
`max_jobs_per_client` jobs queued or running, costing at most `max_client_cpu_seconds` together (429
otherwise). Clients take turns on the workers, a chunk each.

### How simulated fighters fight

"""


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


def register(bp: Blueprint, sh: SimShapes) -> None:
    """Every simulation operation of one resource (`sh`) on `bp`."""
    for add in (_start, _status, _delete, _stream, _plot):
        add(bp, sh)


def operation(bp: Blueprint, sh: SimShapes, name: str) -> Callable[[Any], Any]:
    """The operationId (prefixed with the ruleset's name on its own paths); `deprecated` on the shared ones."""
    extra = {"deprecated": True} if sh.ruleset is None else {}
    return bp.doc(operationId=sh.operation(name), **extra)


def start_description(sh: SimShapes) -> str:
    """What starting a job says: its budget and caps, then how simulated fighters fight (every ruleset's policy
    on the shared path, filled in by the contract; the ruleset's own, service/sim/policies, on its path)."""
    if sh.ruleset is None:
        return START + "{fight_policies}"
    return START + INTRO + "\n\n" + (fight_policy(sh.ruleset) or "No fight policy published.")


def _start(bp: Blueprint, sh: SimShapes) -> None:
    @bp.post(sh.root or "")
    @operation(bp, sh, "createSimulation")
    @bp.doc(description=start_description(sh).split("\n\n", 1)[1])
    @bp.arguments(sh.request, example=sh.example)
    @bp.response(202, sh.simulation, headers=headers("Location"))
    @bp.alt_response(422, response="UNPROCESSABLE_ENTITY")
    @bp.alt_response(429, response="DEFAULT_ERROR", description="The client already has `max_jobs_per_client` "
                                                               "simulations queued or running, or simulations "
                                                               "estimated to cost `max_client_cpu_seconds` of "
                                                               "worker CPU with this one.")
    @bp.alt_response(503, response="DEFAULT_ERROR")
    @redis_required
    def start(body: dict) -> tuple[dict, int, dict]:
        """Start a simulation of `trials` fights; poll the Location for progress and the result."""
        ruleset, matchup = _matchup(body, sh)
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
                                     tenant=current_tenant(), ruleset=ruleset, client=client_id(),
                                     caps=_caps(config), cost=cost, job_plan=job_plan)
        except jobs_submit.OverCap as error:
            raise TooManyRequests(str(error), retry_after=10) from None
        return _view(job, sh), 202, {"Location": _links(job, sh)["self"]}


def _caps(config: Any) -> Caps:
    """The per-client caps (none); like rate limits, off in testing unless `limits_in_testing`."""
    if config.testing and not config.limits_in_testing:
        return Caps()
    return Caps(config.max_jobs_per_client, config.max_client_cpu_seconds)


def _status(bp: Blueprint, sh: SimShapes) -> None:
    @bp.get(f"{sh.root}/<string:job_id>", parameters=JOB)
    @operation(bp, sh, "getSimulation")
    @bp.response(200, sh.simulation)
    @bp.alt_response(404, response="NOT_FOUND")
    @redis_required
    def status(job_id: str) -> dict:
        """A simulation's state, progress and (once done) its result."""
        return _view(_job(job_id, sh), sh)


def _delete(bp: Blueprint, sh: SimShapes) -> None:
    @bp.delete(f"{sh.root}/<string:job_id>", parameters=JOB)
    @operation(bp, sh, "deleteSimulation")
    @bp.response(204, description="The simulation is gone: a chunk that was running stops within a second, "
                                  "chunks not yet started never run, and reading it answers 404.")
    @bp.alt_response(404, response="NOT_FOUND")
    @redis_required
    def delete(job_id: str) -> Response:
        """Delete a simulation, whatever its state (a running one is stopped first)."""
        jobs_submit.delete(jobs_of().store(), _job(job_id, sh))
        return Response(status=204)


def _stream(bp: Blueprint, sh: SimShapes) -> None:
    @bp.get(f"{sh.root}/<string:job_id>/stream", parameters=JOB)
    @operation(bp, sh, "streamSimulationProgress")
    @bp.doc(responses={"200": {"description": "Server-sent `progress` events until the job ends (at most "
                                              "60 s; reconnect for more).",
                               "content": {"text/event-stream": {"schema": {"type": "string"}}}}})
    @bp.alt_response(404, response="NOT_FOUND")
    @bp.alt_response(429, response="TOO_MANY_REQUESTS",
                     description="This client or this job already has as many open streams as allowed.")
    @redis_required
    def stream(job_id: str) -> Response:
        """Progress of a simulation as server-sent events."""
        _job(job_id, sh)
        store = jobs_of().store()
        return open_polled_stream(current_app._get_current_object(), f"job-{job_id}",
                                  lambda: _progress_event(store, job_id), STREAM_EVERY, STREAM_SECONDS,
                                  _events(store, job_id), current_tenant())


def _plot(bp: Blueprint, sh: SimShapes) -> None:
    @bp.get(f"{sh.root}/<string:job_id>/plots/<string:name>.svg", parameters=PLOT)
    @operation(bp, sh, "getSimulationPlot")
    @bp.doc(responses={"200": {"description": "The chart as SVG.",
                               "content": {"image/svg+xml": {"schema": {"type": "string"}}}}})
    @bp.alt_response(404, response="NOT_FOUND")
    @bp.alt_response(409, response="DEFAULT_ERROR")
    @redis_required
    def plot(job_id: str, name: str) -> Response:
        """A chart of a finished simulation, one of those its `links.plots` name."""
        job = _job(job_id, sh)
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


def _matchup(body: dict, sh: SimShapes) -> tuple[str, dict]:
    """The ruleset and the matchup to play: the body's (its combatants and options loaded by the ruleset), or a
    stored encounter's (whose ruleset a different `ruleset`, or another ruleset's path, contradicts)."""
    if ("matchup" in body) == ("encounter_id" in body):
        raise Contradiction("send exactly one of matchup and encounter_id", ("matchup",))
    wanted = sh.ruleset or body.get("ruleset")
    if "matchup" in body:
        ruleset = wanted or "tactical"
        return ruleset, _loaded(ruleset, body["matchup"], typed=sh.ruleset is not None)
    from service.jobs.encounters import matchup_of

    ruleset, matchup = matchup_of(body["encounter_id"], request.headers.get("Authorization", ""))
    if wanted not in (None, ruleset):
        raise Contradiction(f"encounter {body['encounter_id']!r} plays {ruleset!r}",
                            ("ruleset",) if sh.ruleset is None else ("encounter_id",))
    return ruleset, matchup


def _loaded(ruleset: str, matchup: dict, typed: bool) -> dict:
    """The matchup with its options loaded by the ruleset (`sim_options`, or on a ruleset's own path its
    encounter `options` when it has no others); there, its combatants are checked by the ruleset's combatant
    schema too (every bad field named at once) and sent on as they came."""
    package = registry.get(ruleset).package
    kind = "options" if typed and ruleset_schema(package, "sim_options") is None else "sim_options"
    options = load_payload(ruleset, kind, matchup.get("options") or {}, ("matchup", "options"))
    if typed:
        for index, side in enumerate(matchup.get("sides") or ()):
            load_payload(ruleset, "combatant", side["combatants"], ("matchup", "sides", index, "combatants"))
        if matchup.get("combatants"):
            load_payload(ruleset, "combatant", matchup["combatants"], ("matchup", "combatants"))
    return {**matchup, "options": options}


def _with_prefix(call: Callable[[], Any]) -> Any:
    """Domain errors about the matchup name their field from the request body's root."""
    try:
        return call()
    except RulesError as error:
        if error.field and error.field[0] != "matchup":
            error.field = ("matchup", *error.field)
        raise


def _job(job_id: str, sh: SimShapes) -> dict:
    """The job, if it is this tenant's and (on a ruleset's own path) this ruleset's; 404 otherwise."""
    job = jobs_of().store().get(job_id)
    tenant = current_tenant()
    if job is None or (tenant is not None and job.get("tenant") != tenant):
        raise NotFound(f"no simulation {job_id!r} (unknown or expired)")
    if sh.ruleset is not None and job["ruleset"] != sh.ruleset:
        raise NotFound(f"simulation {job_id!r} plays {job['ruleset']!r}: address it under "
                       f"/v1/{job['ruleset']}/simulations")
    return job


def _links(job: dict, sh: SimShapes) -> dict:
    base = f"{sh.base}/{job['id']}"
    names = simulator_for(job["ruleset"]).plots
    return {"self": base, "stream": f"{base}/stream", "plots": {n: f"{base}/plots/{n}.svg" for n in names}}


def _view(job: dict, sh: SimShapes) -> dict:
    cost = {"engine": job["engine"], "cpu_seconds": job["cpu_seconds"]} if "engine" in job else None
    return {**{k: job[k] for k in ("id", "ruleset", "state", "trials", "seed", "chunk_size", "chunks")},
            "cost": cost, "progress": progress(job), "result": job.get("result"), "error": job.get("error"),
            "links": _links(job, sh)}


register(blp, shared())
