"""/v1/encounters: encounters kept between requests (Redis), changed by versioned, token-guarded writes.

Every call but POST /v1/encounters needs `Authorization: Bearer <token>` (the token the encounter was
created with; the event stream also takes `?token=` because browsers' EventSource cannot send headers).
Writes take `If-Match: "<version>"` and answer the new `ETag`; GET takes `If-None-Match`.
"""
from __future__ import annotations

from typing import Any

from flask import Response, current_app, request

from service.api.encounters import schemas as s
from service.api.http import byte_quota, quotas
from service.api.http.auth import current_tenant
from service.api.encounters.answers import encounter_view, etag, links, step_dice
from service.api.encounters.blueprint import COMBATANT, CREATED_LINKS, ENCOUNTER, blp, documented
from service.api.encounters.dice_schemas import EncounterAuditSchema
from service.api.encounters.requests import (
    bearer_token,
    check_combatant_id,
    encounter_store,
    expected_version,
    last_event_id,
)
from service.api.kit.events import EVENT_NAMES
from service.api.http.headers import headers, takes
from service.rules import registry
from service.streams.serving import open_stream

__all__ = ["blp"]


@blp.post("")
@blp.doc(operationId="createEncounter")
@blp.arguments(s.EncounterCreateSchema, example=s.EXAMPLE_CREATE)
@blp.doc(responses={201: {"links": CREATED_LINKS}})
@blp.response(201, s.EncounterCreatedSchema, headers=headers("Location", "ETag"))
@documented(422, 503, secured=False)
@blp.alt_response(429, response="DEFAULT_ERROR", description="The client already keeps "
                                                            "`max_encounters_per_client` encounters, or its "
                                                            "encounters hold `max_bytes_per_client` bytes.")
def create(body: dict) -> tuple[dict, int, dict]:
    """Start an encounter; the answer carries its token (keep it: it is shown once). One client (API key, or
    IP when keys are off) may keep at most `max_encounters_per_client` encounters (429 past it). Combatant ids
    are 1-64 of `A-Z a-z 0-9 _ . ~ -`, starting with a letter or digit (they appear in URLs)."""
    for index, combatant in enumerate(body["combatants"]):
        check_combatant_id(combatant, ("combatants", index, "id"))
    quotas.check_encounter_room()
    byte_quota.check_room()
    encounter, token = encounter_store().create(body["ruleset"], body["options"], body["combatants"],
                                                body["state"], body["dice"].get("client_seed"))
    quotas.count_encounter(encounter.id)
    byte_quota.record(encounter)
    return {**encounter_view(encounter), "token": token}, 201, {**etag(encounter), "Location": links(encounter.id)["self"]}


@blp.get("/<string:encounter_id>", parameters=ENCOUNTER)
@blp.doc(operationId="getEncounter")
@blp.doc(**takes("IfNoneMatch"))
@blp.response(200, s.EncounterSchema, headers=headers("ETag"))
@blp.alt_response(304, description="Not modified (If-None-Match named the current version).", headers=headers("ETag"))
@documented(401, 404, 503)
def read(encounter_id: str) -> Any:
    """An encounter: state, pending declarations, version (ETag)."""
    encounter = encounter_store().get(encounter_id, bearer_token())
    if request.if_none_match.contains(str(encounter.version)):
        return Response(status=304, headers=etag(encounter))
    return encounter_view(encounter), 200, etag(encounter)


@blp.delete("/<string:encounter_id>", parameters=ENCOUNTER)
@blp.doc(operationId="endEncounter")
@blp.response(200, EncounterAuditSchema)
@documented(401, 404, 409, 412, 503, write=True)
def end(encounter_id: str) -> dict:
    """End an encounter: everything stored about it is deleted. The answer is its final audit with every
    server seed revealed: keep it to verify the dice (`python -m service verify FILE`)."""
    audit = encounter_store().end(encounter_id, bearer_token(), expected_version())
    byte_quota.forget(encounter_id)
    return audit


@blp.get("/<string:encounter_id>/combatants", parameters=ENCOUNTER)
@blp.doc(operationId="listCombatants")
@blp.response(200, s.EncounterCombatantListSchema, headers=headers("ETag"))
@documented(401, 404, 503)
def combatants(encounter_id: str) -> tuple[dict, int, dict]:
    """Every combatant of an encounter."""
    encounter = encounter_store().get(encounter_id, bearer_token())
    return {"version": encounter.version, "combatants": encounter.state["combatants"]}, 200, etag(encounter)


@blp.post("/<string:encounter_id>/combatants", parameters=ENCOUNTER)
@blp.doc(operationId="addCombatant")
@blp.arguments(s.EncounterCombatantSchema, example=s.EXAMPLE_ADDED)
@blp.response(201, s.EncounterCombatantOutSchema, headers=headers("Location", "ETag"))
@documented(401, 404, 409, 412, 422, 503, write=True)
def add_combatant(body: dict, encounter_id: str) -> tuple[dict, int, dict]:
    """Add a combatant (the whole encounter is checked again); its id is 1-64 of `A-Z a-z 0-9 _ . ~ -`,
    starting with a letter or digit."""
    check_combatant_id(body, ("id",))
    byte_quota.check_room()
    encounter, combatant = encounter_store().add_combatant(encounter_id, bearer_token(), body, expected_version())
    byte_quota.record(encounter)
    headers = {**etag(encounter), "Location": f"{links(encounter_id)['combatants']}/{combatant['id']}"}
    return {"version": encounter.version, "combatant": combatant}, 201, headers


@blp.get("/<string:encounter_id>/combatants/<string:combatant_id>", parameters=COMBATANT)
@blp.doc(operationId="getCombatant")
@blp.response(200, s.EncounterCombatantOutSchema, headers=headers("ETag"))
@documented(401, 404, 503)
def combatant(encounter_id: str, combatant_id: str) -> tuple[dict, int, dict]:
    """One combatant."""
    store, token = encounter_store(), bearer_token()
    encounter = store.get(encounter_id, token)
    return {"version": encounter.version, "combatant": store.combatant(encounter_id, token, combatant_id)}, \
        200, etag(encounter)


@blp.put("/<string:encounter_id>/combatants/<string:combatant_id>", parameters=COMBATANT)
@blp.doc(operationId="replaceCombatant")
@blp.arguments(s.EncounterCombatantSchema, example=s.EXAMPLE_REPLACED)
@blp.response(200, s.EncounterCombatantOutSchema, headers=headers("ETag"))
@documented(401, 404, 409, 412, 422, 503, write=True)
def replace_combatant(body: dict, encounter_id: str, combatant_id: str) -> tuple[dict, int, dict]:
    """Replace one combatant."""
    byte_quota.check_room()
    encounter, combatant = encounter_store().replace_combatant(encounter_id, bearer_token(), combatant_id, body,
                                                           expected_version())
    byte_quota.record(encounter)
    return {"version": encounter.version, "combatant": combatant}, 200, etag(encounter)


@blp.delete("/<string:encounter_id>/combatants/<string:combatant_id>", parameters=COMBATANT)
@blp.doc(operationId="removeCombatant")
@blp.response(204, headers=headers("ETag"))
@documented(401, 404, 409, 412, 422, 503, write=True)
def remove_combatant(encounter_id: str, combatant_id: str) -> Response:
    """Remove one combatant (an encounter keeps at least one)."""
    encounter = encounter_store().remove_combatant(encounter_id, bearer_token(), combatant_id, expected_version())
    byte_quota.record(encounter)
    return Response(status=204, headers=etag(encounter))


@blp.put("/<string:encounter_id>/declarations", parameters=ENCOUNTER)
@blp.doc(operationId="setDeclarations")
@blp.arguments(s.EncounterDeclarationsSchema, example=s.EXAMPLE_DECLARATIONS)
@blp.response(200, s.EncounterDeclarationsOutSchema, headers=headers("ETag"))
@documented(401, 404, 409, 412, 422, 503, write=True)
def declare(body: dict, encounter_id: str) -> tuple[dict, int, dict]:
    """Set the declarations for the next segment."""
    byte_quota.check_room()
    encounter = encounter_store().declare(encounter_id, bearer_token(), body["declarations"], expected_version())
    byte_quota.record(encounter)
    return {"version": encounter.version, "declarations": encounter.declarations}, 200, etag(encounter)


@blp.post("/<string:encounter_id>/segments", parameters=ENCOUNTER)
@blp.doc(operationId="resolveSegment")
@blp.arguments(s.EncounterSegmentRequestSchema, example=s.EXAMPLE_SEGMENT)
@blp.response(201, s.EncounterSegmentSchema, headers=headers("Location", "ETag"))
@documented(401, 404, 409, 412, 422, 503, write=True)
def resolve(body: dict, encounter_id: str) -> tuple[dict, int, dict]:
    """Resolve the next segment (pending declarations, or the ones sent); one atomic write.

    Its dice are the encounter's committed dice (`dice` in the answer; every die goes to the audit) unless
    `seed` is sent. The log keeps `max_log_bytes` of events (older ones give way to a `truncated` event). A client whose
    encounters hold `max_bytes_per_client` bytes gets 429 on this and every other write that adds data
    until it ends an encounter or one expires."""
    byte_quota.check_room()
    encounter, events, segment = encounter_store().resolve(encounter_id, bearer_token(), body["seed"],
                                                       body["declarations"], expected_version(), body["rolls"])
    byte_quota.record(encounter)
    answer = {"segment": segment.number, "seed": segment.seed, "dice": step_dice(segment), "events": events,
              "state": encounter.state, "version": encounter.version, "links": links(encounter_id)}
    if registry.get(encounter.ruleset).terms.get("step") == "round":
        answer.update(round=segment.number, summary=segment.summary)
    first = max(encounter.total - len(events), 0)  # the log's index of this step's first event (undo trims the
    # log; a step bigger than the log's cap keeps only its tail, after the `truncated` event)
    location = f"{links(encounter_id)['events']}?offset={first}&limit={max(len(events), 1)}"
    return answer, 201, {**etag(encounter), "Location": location}


@blp.post("/<string:encounter_id>/undo", parameters=ENCOUNTER)
@blp.doc(operationId="undoSegment")
@blp.response(200, s.EncounterSchema, headers=headers("ETag"))
@documented(401, 404, 409, 412, 503, write=True)
def undo(encounter_id: str) -> tuple[dict, int, dict]:
    """Undo the last resolved segment (409 when there is none).

    Only the segment is reverted: edits made after it (combatants added, replaced or removed, declarations
    set) are applied again to the encounter as it was before the segment and survive; when one no longer
    applies the undo answers 409 naming it, and nothing changes. The log loses the segment's events and
    gains an `undo` event listing them (`removed_seqs`), which open streams receive too. A step is a Combat
    Segment (`tactical`) or a round: the answer's `segment` is one less than before, and the `undo` event's
    `segment` names the step undone.
    """
    encounter = encounter_store().undo(encounter_id, bearer_token(), expected_version())
    byte_quota.record(encounter)
    return encounter_view(encounter), 200, etag(encounter)


@blp.get("/<string:encounter_id>/events", parameters=ENCOUNTER)
@blp.doc(operationId="listEvents")
@blp.arguments(s.EncounterEventsQuerySchema, location="query")
@blp.response(200, s.EncounterEventPageSchema, headers=headers("Link"))
@documented(401, 404, 422, 503)
def events(query: dict, encounter_id: str) -> dict:
    """A page of the encounter's event log (each event has `segment` and `seq`)."""
    offset, limit = query["offset"], query["limit"]
    logged, total = encounter_store().repository.events(encounter_id, bearer_token(), offset, limit)
    following = f"{links(encounter_id)['events']}?offset={offset + limit}&limit={limit}"
    more = offset + limit < total
    page = {"events": logged, "offset": offset, "limit": limit, "total": total,
            "next": following if more else None}
    return page, 200, {"Link": f'<{following}>; rel="next"'} if more else {}


@blp.get("/<string:encounter_id>/stream", parameters=ENCOUNTER)
@blp.doc(operationId="streamEncounterEvents", **takes("LastEventId"))
@blp.arguments(s.EncounterStreamQuerySchema, location="query")
@blp.doc(responses={"200": {"description": "Server-sent events: `id: <seq>`, `event: <type>`, `data: <json>` for "
                                           "every logged event, the log from its start (or after `Last-Event-ID` "
                                           "/ `since`) and then each new one live (the JSON is an `Event`; an undo is an `undo` event "
                                           "naming the events it removed); a comment heartbeat; `event: end` when "
                                           "the encounter ends. The stream closes after `sse_max_seconds` "
                                           "(reconnect with Last-Event-ID). A step of any size is sent whole, read "
                                           "from the log a page at a time as the client takes it; a client that "
                                           "takes nothing for `sse_stall_seconds` gets `event: closed` (the "
                                           "reason and the `seq` to resume after) and is closed; events the "
                                           "log's byte cap dropped before a resuming client read them arrive "
                                           "as one `truncated` event. Event names: " + EVENT_NAMES + ".",
                            "content": {"text/event-stream": {"schema": {"type": "string"}}}}})
@blp.alt_response(429, response="TOO_MANY_REQUESTS",
                  description="This client or this encounter already has as many open streams as allowed.")
@documented(401, 404, 422, 503)
def stream(query: dict, encounter_id: str) -> Response:
    """The encounter's events: the whole log first, then live (`Last-Event-ID` or `?since=` skip what a
    client already has).

    By default the stream replays the log from its first event, then sends each new one as it is logged,
    so a stream opened just before a step always delivers that step's events, whichever request the
    server handles first. A client that has read up to some `seq` (from the log, or an earlier stream)
    starts after it with `Last-Event-ID: <seq>` or `?since=<seq>`; `Last-Event-ID` wins when both are sent.

    Open streams are capped per client (the API key's tenant, else the client address) and per encounter
    (429 problem+json past either cap); an idle stream costs the server a socket, not a thread.
    """
    store, token = encounter_store(), bearer_token(query.get("token"))
    store.get(encounter_id, token)  # 401 / 404 before the stream opens
    since = last_event_id(query.get("since"))
    return open_stream(current_app._get_current_object(), store.repository, encounter_id, token, since,
                       current_tenant())
