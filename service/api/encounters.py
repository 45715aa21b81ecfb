"""/v1/encounters: encounters kept between requests (Redis), changed by versioned, token-guarded writes.

Every call but POST /v1/encounters needs `Authorization: Bearer <token>` (the token the encounter was
created with; the event stream also takes `?token=` because browsers' EventSource cannot send headers).
Writes take `If-Match: "<version>"` and answer the new `ETag`; GET takes `If-None-Match`.
"""
from __future__ import annotations

import re
from typing import Any

from flask import Response, current_app, request

from service.api import encounters_schemas as s, quotas
from service.api.auth import current_tenant
from service.api.blueprint import Blueprint
from service.api.events import EVENT_NAMES
from service.api.headers import headers, takes
from service.api.ruleset_http import load_payload
from service.rules import registry
from service.rules.errors import OutOfRange
from service.sessions.encounters import Encounters
from service.sessions.errors import EncounterNotFound, Unauthenticated
from service.sessions.records import Encounter
from service.streams.serving import open_stream

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


@blp.post("")
@blp.doc(operationId="createEncounter")
@blp.arguments(s.EncounterCreateSchema, example=s.EXAMPLE_CREATE)
@blp.doc(responses={201: {"links": CREATED_LINKS}})
@blp.response(201, s.EncounterCreatedSchema, headers=headers("Location", "ETag"))
@documented(422, 503, secured=False)
@blp.alt_response(429, response="DEFAULT_ERROR", description="The client already keeps "
                                                            "`max_encounters_per_client` encounters.")
def create(body: dict) -> tuple[dict, int, dict]:
    """Start an encounter; the answer carries its token (keep it: it is shown once). One client (API key, or
    IP when keys are off) may keep at most `max_encounters_per_client` encounters (429 past it). Combatant ids
    are 1-64 of `A-Z a-z 0-9 _ . ~ -`, starting with a letter or digit (they appear in URLs)."""
    for index, combatant in enumerate(body["combatants"]):
        check_combatant_id(combatant, ("combatants", index, "id"))
    quotas.check_encounter_room()
    encounter, token = _encounters().create(body["ruleset"], body["options"], body["combatants"],
                                          body["state"])
    quotas.count_encounter(encounter.id)
    return {**_view(encounter), "token": token}, 201, {**_etag(encounter), "Location": _links(encounter.id)["self"]}


@blp.get("/<string:encounter_id>", parameters=ENCOUNTER)
@blp.doc(operationId="getEncounter")
@blp.doc(**takes("IfNoneMatch"))
@blp.response(200, s.EncounterSchema, headers=headers("ETag"))
@blp.alt_response(304, description="Not modified (If-None-Match named the current version).", headers=headers("ETag"))
@documented(401, 404, 503)
def read(encounter_id: str) -> Any:
    """An encounter: state, pending declarations, version (ETag)."""
    encounter = _encounters().get(encounter_id, _token())
    if request.if_none_match.contains(str(encounter.version)):
        return Response(status=304, headers=_etag(encounter))
    return _view(encounter), 200, _etag(encounter)


@blp.delete("/<string:encounter_id>", parameters=ENCOUNTER)
@blp.doc(operationId="endEncounter")
@blp.response(204)
@documented(401, 404, 409, 412, 503, write=True)
def end(encounter_id: str) -> Any:
    """End an encounter: everything stored about it is deleted."""
    _encounters().repository.delete(encounter_id, _token(), _expected())
    return Response(status=204)


@blp.get("/<string:encounter_id>/combatants", parameters=ENCOUNTER)
@blp.doc(operationId="listCombatants")
@blp.response(200, s.EncounterCombatantListSchema, headers=headers("ETag"))
@documented(401, 404, 503)
def combatants(encounter_id: str) -> tuple[dict, int, dict]:
    """Every combatant of an encounter."""
    encounter = _encounters().get(encounter_id, _token())
    return {"version": encounter.version, "combatants": encounter.state["combatants"]}, 200, _etag(encounter)


@blp.post("/<string:encounter_id>/combatants", parameters=ENCOUNTER)
@blp.doc(operationId="addCombatant")
@blp.arguments(s.EncounterCombatantSchema, example=s.EXAMPLE_ADDED)
@blp.response(201, s.EncounterCombatantOutSchema, headers=headers("Location", "ETag"))
@documented(401, 404, 409, 412, 422, 503, write=True)
def add_combatant(body: dict, encounter_id: str) -> tuple[dict, int, dict]:
    """Add a combatant (the whole encounter is checked again); its id is 1-64 of `A-Z a-z 0-9 _ . ~ -`,
    starting with a letter or digit."""
    check_combatant_id(body, ("id",))
    encounter, combatant = _encounters().add_combatant(encounter_id, _token(), body, _expected())
    headers = {**_etag(encounter), "Location": f"{_links(encounter_id)['combatants']}/{combatant['id']}"}
    return {"version": encounter.version, "combatant": combatant}, 201, headers


@blp.get("/<string:encounter_id>/combatants/<string:combatant_id>", parameters=COMBATANT)
@blp.doc(operationId="getCombatant")
@blp.response(200, s.EncounterCombatantOutSchema, headers=headers("ETag"))
@documented(401, 404, 503)
def combatant(encounter_id: str, combatant_id: str) -> tuple[dict, int, dict]:
    """One combatant."""
    store, token = _encounters(), _token()
    encounter = store.get(encounter_id, token)
    return {"version": encounter.version, "combatant": store.combatant(encounter_id, token, combatant_id)}, \
        200, _etag(encounter)


@blp.put("/<string:encounter_id>/combatants/<string:combatant_id>", parameters=COMBATANT)
@blp.doc(operationId="replaceCombatant")
@blp.arguments(s.EncounterCombatantSchema, example=s.EXAMPLE_REPLACED)
@blp.response(200, s.EncounterCombatantOutSchema, headers=headers("ETag"))
@documented(401, 404, 409, 412, 422, 503, write=True)
def replace_combatant(body: dict, encounter_id: str, combatant_id: str) -> tuple[dict, int, dict]:
    """Replace one combatant."""
    encounter, combatant = _encounters().replace_combatant(encounter_id, _token(), combatant_id, body,
                                                           _expected())
    return {"version": encounter.version, "combatant": combatant}, 200, _etag(encounter)


@blp.delete("/<string:encounter_id>/combatants/<string:combatant_id>", parameters=COMBATANT)
@blp.doc(operationId="removeCombatant")
@blp.response(204, headers=headers("ETag"))
@documented(401, 404, 409, 412, 422, 503, write=True)
def remove_combatant(encounter_id: str, combatant_id: str) -> Response:
    """Remove one combatant (an encounter keeps at least one)."""
    encounter = _encounters().remove_combatant(encounter_id, _token(), combatant_id, _expected())
    return Response(status=204, headers=_etag(encounter))


@blp.put("/<string:encounter_id>/declarations", parameters=ENCOUNTER)
@blp.doc(operationId="setDeclarations")
@blp.arguments(s.EncounterDeclarationsSchema, example=s.EXAMPLE_DECLARATIONS)
@blp.response(200, s.EncounterDeclarationsOutSchema, headers=headers("ETag"))
@documented(401, 404, 409, 412, 422, 503, write=True)
def declare(body: dict, encounter_id: str) -> tuple[dict, int, dict]:
    """Set the declarations for the next segment."""
    encounter = _encounters().declare(encounter_id, _token(), body["declarations"], _expected())
    return {"version": encounter.version, "declarations": encounter.declarations}, 200, _etag(encounter)


@blp.post("/<string:encounter_id>/segments", parameters=ENCOUNTER)
@blp.doc(operationId="resolveSegment")
@blp.arguments(s.EncounterSegmentRequestSchema, example=s.EXAMPLE_SEGMENT)
@blp.response(201, s.EncounterSegmentSchema, headers=headers("Location", "ETag"))
@documented(401, 404, 409, 412, 422, 503, write=True)
def resolve(body: dict, encounter_id: str) -> tuple[dict, int, dict]:
    """Resolve the next segment (pending declarations, or the ones sent); one atomic write."""
    encounter, events, segment = _encounters().resolve(encounter_id, _token(), body["seed"],
                                                       body["declarations"], _expected(), body["rolls"])
    answer = {"segment": segment.number, "seed": segment.seed, "events": events, "state": encounter.state,
              "version": encounter.version, "links": _links(encounter_id)}
    if registry.get(encounter.ruleset).terms.get("step") == "round":
        answer.update(round=segment.number, summary=segment.summary)
    first = encounter.total - len(events)  # the log's index of this segment's first event (undo trims the log)
    location = f"{_links(encounter_id)['events']}?offset={first}&limit={max(len(events), 1)}"
    return answer, 201, {**_etag(encounter), "Location": location}


@blp.post("/<string:encounter_id>/undo", parameters=ENCOUNTER)
@blp.doc(operationId="undoSegment")
@blp.response(200, s.EncounterSchema, headers=headers("ETag"))
@documented(401, 404, 409, 412, 503, write=True)
def undo(encounter_id: str) -> tuple[dict, int, dict]:
    """Undo the last resolved segment (409 when there is none).

    Only the segment is reverted: edits made after it (combatants added, replaced or removed, declarations
    set) are applied again to the encounter as it was before the segment and survive; when one no longer
    applies the undo answers 409 naming it, and nothing changes. The log loses the segment's events and
    gains an `undo` event listing them (`removed_seqs`), which open streams receive too.
    """
    encounter = _encounters().undo(encounter_id, _token(), _expected())
    return _view(encounter), 200, _etag(encounter)


@blp.get("/<string:encounter_id>/events", parameters=ENCOUNTER)
@blp.doc(operationId="listEvents")
@blp.arguments(s.EncounterEventsQuerySchema, location="query")
@blp.response(200, s.EncounterEventPageSchema, headers=headers("Link"))
@documented(401, 404, 422, 503)
def events(query: dict, encounter_id: str) -> dict:
    """A page of the encounter's event log (each event has `segment` and `seq`)."""
    offset, limit = query["offset"], query["limit"]
    items, total = _encounters().repository.events(encounter_id, _token(), offset, limit)
    following = f"{_links(encounter_id)['events']}?offset={offset + limit}&limit={limit}"
    more = offset + limit < total
    page = {"items": items, "offset": offset, "limit": limit, "total": total, "next": following if more else None}
    return page, 200, {"Link": f'<{following}>; rel="next"'} if more else {}


@blp.get("/<string:encounter_id>/stream", parameters=ENCOUNTER)
@blp.doc(operationId="streamEncounterEvents", **takes("LastEventId"))
@blp.arguments(s.EncounterStreamQuerySchema, location="query")
@blp.doc(responses={"200": {"description": "Server-sent events: `id: <seq>`, `event: <type>`, `data: <json>` for "
                                           "every logged event (the JSON is an `Event`; an undo is an `undo` event "
                                           "naming the events it removed); a comment heartbeat; `event: end` when "
                                           "the encounter ends. The stream closes after `sse_max_seconds` "
                                           "(reconnect with Last-Event-ID). Event names: " + EVENT_NAMES + ".",
                            "content": {"text/event-stream": {"schema": {"type": "string"}}}}})
@blp.alt_response(429, response="TOO_MANY_REQUESTS",
                  description="This client or this encounter already has as many open streams as allowed.")
@documented(401, 404, 422, 503)
def stream(query: dict, encounter_id: str) -> Response:
    """The encounter's events, live (catch up from `Last-Event-ID` or `?since=` first).

    Open streams are capped per client (the API key's tenant, else the client address) and per encounter
    (429 problem+json past either cap); an idle stream costs the server a socket, not a thread.
    """
    store, token = _encounters(), _token(query.get("token"))
    current = store.get(encounter_id, token)
    since = _last_event_id(query.get("since"), current.seq)
    return open_stream(current_app._get_current_object(), store.repository, encounter_id, token, since)


def _encounters() -> Encounters:
    config = current_app.extensions["referee.config"]
    repository = current_app.extensions["referee.encounters"].for_tenant(current_tenant())
    return Encounters(repository, config.max_combatants, load_payload)


def _token(fallback: str | None = None) -> str:
    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    token = token.strip() if scheme.lower() == "bearer" else (fallback or "")
    if not token or len(token) > 200 or any(c.isspace() for c in token):
        raise Unauthenticated("send the encounter's token as `Authorization: Bearer <token>`")
    return token


COMBATANT_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.~-]{0,63}", re.ASCII)


def check_combatant_id(combatant: Any, field: tuple) -> None:
    """A combatant id must be safe in a URL path (`/combatants/{id}`): 1-64 of A-Z, a-z, 0-9, `_ . ~ -`,
    starting with a letter or digit. Anything else (a slash, a blank, NUL) would make it unreachable."""
    ident = combatant.get("id") if isinstance(combatant, dict) else None
    if isinstance(ident, str) and not COMBATANT_ID.fullmatch(ident):
        raise OutOfRange("a combatant id is 1-64 of A-Z a-z 0-9 _ . ~ - and starts with a letter or digit",
                         field)


def _expected() -> int | None:
    """The version If-Match names (None when absent or `*`; -1, a version no encounter has, when garbled
    or weak).

    If-Match may list several tags (`"1", "2"`): the write goes ahead when any of them is the current
    version. It compares strongly (RFC 9110 13.1.1): a weak tag (`W/"2"`) never matches.
    """
    raw = request.headers.get("If-Match", "").strip()
    if not raw or raw == "*":
        return None
    versions = []
    for part in raw.split(","):
        tag = part.strip()
        strong = len(tag) > 2 and tag[0] == tag[-1] == '"'
        tag = tag[1:-1] if strong else ""
        versions.append(int(tag) if tag.isdigit() and len(tag) < 16 else -1)
    if len(set(versions)) == 1:
        return versions[0]
    try:
        current = _encounters().get(request.view_args["encounter_id"], _token()).version
    except (EncounterNotFound, KeyError, TypeError):
        return versions[0]  # the write itself answers 404
    return current if current in versions else versions[0]


def _last_event_id(since: int | None, current: int) -> int:
    header = request.headers.get("Last-Event-ID", "").strip()
    if header.isdigit() and len(header) < 16:
        return int(header)
    return current if since is None else since


def _etag(encounter: Encounter) -> dict[str, str]:
    return {"ETag": f'"{encounter.version}"'}


def _links(encounter_id: str) -> dict[str, str]:
    base = f"/v1/encounters/{encounter_id}"
    return {"self": base, **{name: f"{base}/{name}" for name in
                             ("combatants", "declarations", "segments", "events", "undo", "stream")}}


def _view(encounter: Encounter) -> dict[str, Any]:
    return {"id": encounter.id, "ruleset": encounter.ruleset, "version": encounter.version,
            "segment": encounter.segment, "state": encounter.state, "declarations": encounter.declarations,
            "links": _links(encounter.id)}
