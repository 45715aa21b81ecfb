"""The /v1/encounters blueprint and what every encounter operation documents alike: the errors each answers,
the bearer token, `If-Match` on writes, path parameters, deprecation on the shared paths, and the links from a
new encounter to its operations."""
from __future__ import annotations

from typing import Any, Callable

from service.api.encounters.shapes import Shapes
from service.api.http.blueprint import Blueprint
from service.api.http.headers import takes

blp = Blueprint("encounters", __name__, description="Deprecated: every ruleset's encounters on one set of paths, "
                "their payloads an untagged union of every ruleset's shapes. Use `/v1/{ruleset}/encounters`, "
                "typed for one ruleset.")
AUTH = [{"bearerAuth": []}]
ERRORS = (401, "UNAUTHORIZED"), (404, "NOT_FOUND"), (409, "CONFLICT"), (412, "PRECONDITION_FAILED"), \
    (422, "UNPROCESSABLE_ENTITY"), (503, "SERVICE_UNAVAILABLE")


ENCOUNTER = [{"in": "path", "name": "encounter_id", "description": "The encounter's id (`id` in the answer "
                                                                    "that created it)."}]


def combatant_parameters(sh: Shapes) -> list[dict]:
    """The path parameters of one combatant (its example: one of the resource's example combatants)."""
    return ENCOUNTER + [{"in": "path", "name": "combatant_id", "example": sh.examples.get("combatant_id", "bandit-1"),
                         "description": "A combatant's `id` within the encounter."}]


def documented(bp: Blueprint, *codes: int, secured: bool = True, write: bool = False) -> Callable[[Any], Any]:
    """The error responses (and the bearer token) an encounter operation documents; a write also
    takes `If-Match`."""
    def decorate(view: Any) -> Any:
        for code, name in ERRORS:
            if code in codes:
                view = bp.alt_response(code, response=name)(view)
        if write:
            view = bp.doc(**takes("IfMatch"))(view)
        return bp.doc(security=AUTH)(view) if secured else view
    return decorate


def operation(bp: Blueprint, sh: Shapes, name: str) -> Callable[[Any], Any]:
    """The operationId (prefixed with the ruleset's name on its own paths); `deprecated` on the shared ones."""
    extra = {"deprecated": True} if sh.ruleset is None else {}
    return bp.doc(operationId=sh.operation(name), **extra)


def _follow(sh: Shapes, path: str, method: str) -> dict:
    """An OpenAPI link from a new encounter to one of its operations (schemathesis' stateful mode uses them)."""
    ref = "#/paths/" + (sh.base + path).replace("~", "~0").replace("/", "~1") + "/" + method
    return {"operationRef": ref, "parameters": {"path.encounter_id": "$response.body#/id",
                                                "header.Authorization": "Bearer {$response.body#/token}"}}


def created_links(sh: Shapes) -> dict:
    """The links from a new encounter to its operations."""
    return {"GetEncounter": _follow(sh, "/{encounter_id}", "get"),
            "ListCombatants": _follow(sh, "/{encounter_id}/combatants", "get"),
            "Declare": _follow(sh, "/{encounter_id}/declarations", "put"),
            "ResolveSegment" if sh.ruleset is None else "ResolveStep": _follow(sh, "/{encounter_id}/" + sh.steps,
                                                                              "post"),
            "Events": _follow(sh, "/{encounter_id}/events", "get"),
            "Undo": _follow(sh, "/{encounter_id}/undo", "post"),
            "EndEncounter": _follow(sh, "/{encounter_id}", "delete")}
