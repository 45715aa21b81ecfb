"""The /v1/encounters blueprint and what its operations document alike: the errors each answers, the
bearer token, `If-Match` on writes, path parameters and the links from a new encounter to its operations."""
from __future__ import annotations

from service.api.http.blueprint import Blueprint
from service.api.http.headers import takes

blp = Blueprint("encounters", __name__, description="Encounters kept between requests: combatants, "
                "declarations, segments, events, undo and a live event stream.")
AUTH = [{"bearerAuth": []}]
ERRORS = (401, "UNAUTHORIZED"), (404, "NOT_FOUND"), (409, "CONFLICT"), (412, "PRECONDITION_FAILED"), \
    (422, "UNPROCESSABLE_ENTITY"), (503, "SERVICE_UNAVAILABLE")


ENCOUNTER = [{"in": "path", "name": "encounter_id", "description": "The encounter's id (`id` in the answer "
                                                                    "that created it)."}]
COMBATANT = ENCOUNTER + [{"in": "path", "name": "combatant_id", "example": "bandit-1",
                          "description": "A combatant's `id` within the encounter."}]


def documented(*codes: int, secured: bool = True, write: bool = False):
    """The error responses (and the bearer token) an encounter operation documents; a write also
    takes `If-Match`."""
    def decorate(view):
        for code, name in ERRORS:
            if code in codes:
                view = blp.alt_response(code, response=name)(view)
        if write:
            view = blp.doc(**takes("IfMatch"))(view)
        return blp.doc(security=AUTH)(view) if secured else view
    return decorate


def _follow(path: str, method: str) -> dict:
    """An OpenAPI link from a new encounter to one of its operations (schemathesis' stateful mode uses them)."""
    ref = "#/paths/" + ("/v1/encounters" + path).replace("~", "~0").replace("/", "~1") + "/" + method
    return {"operationRef": ref, "parameters": {"path.encounter_id": "$response.body#/id",
                                                "header.Authorization": "Bearer {$response.body#/token}"}}


CREATED_LINKS = {"GetEncounter": _follow("/{encounter_id}", "get"),
                 "ListCombatants": _follow("/{encounter_id}/combatants", "get"),
                 "Declare": _follow("/{encounter_id}/declarations", "put"),
                 "ResolveSegment": _follow("/{encounter_id}/segments", "post"),
                 "Events": _follow("/{encounter_id}/events", "get"),
                 "Undo": _follow("/{encounter_id}/undo", "post"),
                 "EndEncounter": _follow("/{encounter_id}", "delete")}
