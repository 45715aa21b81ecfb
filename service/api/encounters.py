"""/v1/encounters: encounters kept between requests (Redis), changed by versioned, token-guarded writes.

Every call but POST /v1/encounters needs `Authorization: Bearer <token>` (the token the encounter was
created with; the event stream also takes `?token=` because browsers' EventSource cannot send headers).
Writes take `If-Match: "<version>"` and answer the new `ETag`; GET takes `If-None-Match`.
"""
from __future__ import annotations

import json
import time
from typing import Any, Iterator

from flask import Response, current_app, request, stream_with_context
from service.api.blueprint import Blueprint
from redis.exceptions import RedisError

from service.api import encounters_schemas as s
from service.api.auth import current_tenant
from service.api.ruleset_http import load_payload
from service.rules import registry
from service.sessions.encounters import Encounters
from service.sessions.errors import EncounterNotFound, Unauthenticated
from service.sessions.records import Encounter

blp = Blueprint("encounters", __name__, description="Encounters kept between requests: combatants, "
                "declarations, segments, events, undo and a live event stream.")
AUTH = [{"bearerAuth": []}]
ERRORS = (401, "UNAUTHORIZED"), (404, "NOT_FOUND"), (409, "CONFLICT"), (412, "PRECONDITION_FAILED"), \
    (422, "UNPROCESSABLE_ENTITY"), (503, "SERVICE_UNAVAILABLE")


def documented(*codes: int, secured: bool = True):
    """The error responses (and the bearer token) an encounter operation documents."""
    def decorate(view):
        for code, name in ERRORS:
            if code in codes:
                view = blp.alt_response(code, response=name)(view)
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
@blp.arguments(s.EncounterCreateSchema)
@blp.doc(responses={201: {"links": CREATED_LINKS}})
@blp.response(201, s.EncounterCreatedSchema, headers={"Location": {"schema": {"type": "string"}},
                                                      "ETag": {"schema": {"type": "string"}}})
@documented(422, 503, secured=False)
def create(body: dict) -> tuple[dict, int, dict]:
    """Start an encounter; the answer carries its token (keep it: it is shown once)."""
    encounter, token = _encounters().create(body["ruleset"], body["options"], body["combatants"], body["state"])
    return {**_view(encounter), "token": token}, 201, {**_etag(encounter), "Location": _links(encounter.id)["self"]}


@blp.get("/<string:encounter_id>")
@blp.response(200, s.EncounterSchema)
@blp.alt_response(304, description="Not modified (If-None-Match named the current version).")
@documented(401, 404, 503)
def read(encounter_id: str) -> Any:
    """An encounter: state, pending declarations, version (ETag)."""
    encounter = _encounters().get(encounter_id, _token())
    if request.if_none_match.contains(str(encounter.version)):
        return Response(status=304, headers=_etag(encounter))
    return _view(encounter), 200, _etag(encounter)


@blp.delete("/<string:encounter_id>")
@blp.response(204)
@documented(401, 404, 409, 412, 503)
def end(encounter_id: str) -> Any:
    """End an encounter: everything stored about it is deleted."""
    _encounters().repository.delete(encounter_id, _token(), _expected())
    return Response(status=204)


@blp.get("/<string:encounter_id>/combatants")
@blp.response(200, s.EncounterCombatantListSchema)
@documented(401, 404, 503)
def combatants(encounter_id: str) -> tuple[dict, int, dict]:
    """Every combatant of an encounter."""
    encounter = _encounters().get(encounter_id, _token())
    return {"version": encounter.version, "combatants": encounter.state["combatants"]}, 200, _etag(encounter)


@blp.post("/<string:encounter_id>/combatants")
@blp.arguments(s.EncounterCombatantSchema)
@blp.response(201, s.EncounterCombatantOutSchema)
@documented(401, 404, 409, 412, 422, 503)
def add_combatant(body: dict, encounter_id: str) -> tuple[dict, int, dict]:
    """Add a combatant (the whole encounter is checked again)."""
    encounter, combatant = _encounters().add_combatant(encounter_id, _token(), body, _expected())
    headers = {**_etag(encounter), "Location": f"{_links(encounter_id)['combatants']}/{combatant['id']}"}
    return {"version": encounter.version, "combatant": combatant}, 201, headers


@blp.get("/<string:encounter_id>/combatants/<string:combatant_id>")
@blp.response(200, s.EncounterCombatantOutSchema)
@documented(401, 404, 503)
def combatant(encounter_id: str, combatant_id: str) -> tuple[dict, int, dict]:
    """One combatant."""
    store, token = _encounters(), _token()
    encounter = store.get(encounter_id, token)
    return {"version": encounter.version, "combatant": store.combatant(encounter_id, token, combatant_id)}, \
        200, _etag(encounter)


@blp.put("/<string:encounter_id>/combatants/<string:combatant_id>")
@blp.arguments(s.EncounterCombatantSchema)
@blp.response(200, s.EncounterCombatantOutSchema)
@documented(401, 404, 409, 412, 422, 503)
def replace_combatant(body: dict, encounter_id: str, combatant_id: str) -> tuple[dict, int, dict]:
    """Replace one combatant."""
    encounter, combatant = _encounters().replace_combatant(encounter_id, _token(), combatant_id, body,
                                                           _expected())
    return {"version": encounter.version, "combatant": combatant}, 200, _etag(encounter)


@blp.delete("/<string:encounter_id>/combatants/<string:combatant_id>")
@blp.response(204)
@documented(401, 404, 409, 412, 422, 503)
def remove_combatant(encounter_id: str, combatant_id: str) -> Response:
    """Remove one combatant (an encounter keeps at least one)."""
    encounter = _encounters().remove_combatant(encounter_id, _token(), combatant_id, _expected())
    return Response(status=204, headers=_etag(encounter))


@blp.put("/<string:encounter_id>/declarations")
@blp.arguments(s.EncounterDeclarationsSchema)
@blp.response(200, s.EncounterDeclarationsOutSchema)
@documented(401, 404, 409, 412, 422, 503)
def declare(body: dict, encounter_id: str) -> tuple[dict, int, dict]:
    """Set the declarations for the next segment."""
    encounter = _encounters().declare(encounter_id, _token(), body["declarations"], _expected())
    return {"version": encounter.version, "declarations": encounter.declarations}, 200, _etag(encounter)


@blp.post("/<string:encounter_id>/segments")
@blp.arguments(s.EncounterSegmentRequestSchema)
@blp.response(201, s.EncounterSegmentSchema)
@documented(401, 404, 409, 412, 422, 503)
def resolve(body: dict, encounter_id: str) -> tuple[dict, int, dict]:
    """Resolve the next segment (pending declarations, or the ones sent); one atomic write."""
    encounter, events, segment = _encounters().resolve(encounter_id, _token(), body["seed"],
                                                       body["declarations"], _expected(), body["rolls"])
    answer = {"segment": segment.number, "seed": segment.seed, "events": events, "state": encounter.state,
              "version": encounter.version, "links": _links(encounter_id)}
    if registry.get(encounter.ruleset).terms.get("step") == "round":
        answer.update(round=segment.number, summary=segment.summary)
    return answer, 201, _etag(encounter)


@blp.post("/<string:encounter_id>/undo")
@blp.response(200, s.EncounterSchema)
@documented(401, 404, 409, 412, 503)
def undo(encounter_id: str) -> tuple[dict, int, dict]:
    """Undo the last resolved segment only: edits made after it (combatants, declarations) are applied again
    and survive; 409 when there is no segment to undo or when an edit no longer applies (the problem names
    it). The log loses the segment's events and gains an `undo` event naming them."""
    encounter = _encounters().undo(encounter_id, _token(), _expected())
    return _view(encounter), 200, _etag(encounter)


@blp.get("/<string:encounter_id>/events")
@blp.arguments(s.EncounterEventsQuerySchema, location="query")
@blp.response(200, s.EncounterEventPageSchema)
@documented(401, 404, 422, 503)
def events(query: dict, encounter_id: str) -> dict:
    """A page of the encounter's event log (each event has `segment` and `seq`)."""
    offset, limit = query["offset"], query["limit"]
    items, total = _encounters().repository.events(encounter_id, _token(), offset, limit)
    following = f"{_links(encounter_id)['events']}?offset={offset + limit}&limit={limit}"
    return {"items": items, "offset": offset, "limit": limit, "total": total,
            "next": following if offset + limit < total else None}


@blp.get("/<string:encounter_id>/stream")
@blp.arguments(s.EncounterStreamQuerySchema, location="query")
@blp.doc(responses={"200": {"description": "Server-sent events: `id: <seq>`, `event: <type>`, `data: <json>`; "
                                           "a comment heartbeat; ends after `sse_max_seconds` (reconnect with "
                                           "Last-Event-ID).",
                            "content": {"text/event-stream": {"schema": {"type": "string"}}}}})
@documented(401, 404, 422, 503)
def stream(query: dict, encounter_id: str) -> Response:
    """The encounter's events, live (catch up from `Last-Event-ID` or `?since=` first)."""
    store, token = _encounters(), _token(query.get("token"))
    current = store.get(encounter_id, token)
    since = _last_event_id(query.get("since"), current.seq)
    config = current_app.extensions["referee.config"]
    body = _sse(store.repository, encounter_id, token, since, config.sse_max_seconds,
                config.sse_heartbeat_seconds)
    return Response(stream_with_context(body), mimetype="text/event-stream",
                    headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})


END_EVENT = 'event: end\ndata: {"type": "end"}\n\n'


def _sse(repository: Any, encounter_id: str, token: str, since: int, seconds: float,
         heartbeat: float) -> Iterator[str]:
    deadline = time.monotonic() + seconds
    try:
        with repository.listen(encounter_id) as wait:
            yield ": stream open\n\n"
            while True:
                for event in repository.events_after(encounter_id, token, since):
                    since = event["seq"]
                    yield f"id: {since}\nevent: {event.get('type', 'event')}\ndata: {json.dumps(event)}\n\n"
                left = deadline - time.monotonic()
                if left <= 0:
                    return
                if not wait(min(heartbeat, left)):
                    yield ": heartbeat\n\n"
    except EncounterNotFound:
        yield END_EVENT  # the encounter ended (deleted or expired): say so, then close
    except RedisError:
        return  # the store went away: close the stream (the client reconnects with Last-Event-ID)


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


def _expected() -> int | None:
    """The version named by If-Match (None when absent or `*`; a version no encounter has when garbled)."""
    raw = request.headers.get("If-Match", "").strip()
    if not raw or raw == "*":
        return None
    tag = raw.split(",")[0].strip().removeprefix("W/").strip('"')
    return int(tag) if tag.isdigit() and len(tag) < 16 else -1


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
