"""Encounters kept between requests (Redis), changed by versioned, token-guarded writes: every operation,
written once over a `Shapes` (shapes.py) and registered on the deprecated shared /v1/encounters and on each
ruleset's own /v1/{ruleset}/encounters (typed.py).

Every call but the one creating an encounter needs `Authorization: Bearer <token>` (the token the encounter
was created with; the event stream also takes `?token=` because browsers' EventSource cannot send headers).
Writes take `If-Match: "<version>"` and answer the new `ETag`; GET takes `If-None-Match`.
"""
from __future__ import annotations

from typing import Any

from flask import Response, current_app, request

from service.api.encounters.answers import encounter_view, etag, links, step_dice
from service.api.encounters.blueprint import ENCOUNTER, combatant_parameters, blp, created_links, documented, operation
from service.api.encounters.requests import (
    bearer_token,
    check_combatant_id,
    encounter_store,
    expected_version,
    last_event_id,
)
from service.api.encounters.shapes import Shapes, shared
from service.api.encounters.stream_doc import stream_description
from service.api.http import byte_quota, quotas
from service.api.http.auth import current_tenant
from service.api.http.blueprint import Blueprint
from service.api.http.headers import headers, takes
from service.rules import registry
from service.streams.serving import open_stream

__all__ = ["blp", "register"]


def register(bp: Blueprint, sh: Shapes) -> None:
    """Every encounter operation of one resource (`sh`) on `bp`."""
    for add in (_create, _read, _end, _combatants, _add_combatant, _combatant, _replace_combatant,
                _remove_combatant, _declare, _resolve, _undo, _events, _stream):
        add(bp, sh)


def _create(bp: Blueprint, sh: Shapes) -> None:
    @bp.post(sh.root or "")
    @operation(bp, sh, "createEncounter")
    @bp.arguments(sh.EncounterCreateSchema, example=sh.examples["create"])
    @bp.doc(responses={201: {"links": created_links(sh)}})
    @bp.response(201, sh.EncounterCreatedSchema, headers=headers("Location", "ETag"))
    @documented(bp, 422, 503, secured=False)
    @bp.alt_response(429, response="DEFAULT_ERROR", description="The client already keeps "
                                                               "`max_encounters_per_client` encounters, or its "
                                                               "encounters hold `max_bytes_per_client` bytes.")
    def create(body: dict) -> tuple[dict, int, dict]:
        """Start an encounter; the answer carries its token (keep it: it is shown once). One client (API key, or
        IP when keys are off) may keep at most `max_encounters_per_client` encounters (429 past it). Combatant
        ids are 1-64 of `A-Z a-z 0-9 _ . ~ -`, starting with a letter or digit (they appear in URLs)."""
        for index, combatant in enumerate(body["combatants"]):
            check_combatant_id(combatant, ("combatants", index, "id"))
        quotas.check_encounter_room()
        byte_quota.check_room()
        encounter, token = encounter_store().create(sh.ruleset or body["ruleset"], body["options"],
                                                    body["combatants"], body.get("state", {}),
                                                    body["dice"].get("client_seed"))
        quotas.count_encounter(encounter.id)
        byte_quota.record(encounter)
        view = encounter_view(encounter, sh.base, sh.steps)
        return {**view, "token": token}, 201, {**etag(encounter), "Location": view["links"]["self"]}


def _read(bp: Blueprint, sh: Shapes) -> None:
    @bp.get(f"{sh.root}/<string:encounter_id>", parameters=ENCOUNTER)
    @operation(bp, sh, "getEncounter")
    @bp.doc(**takes("IfNoneMatch"))
    @bp.response(200, sh.EncounterSchema, headers=headers("ETag"))
    @bp.alt_response(304, description="Not modified (If-None-Match named the current version).",
                     headers=headers("ETag"))
    @documented(bp, 401, 404, 503)
    def read(encounter_id: str) -> Any:
        """An encounter: state, pending declarations, version (ETag)."""
        encounter = encounter_store().get(encounter_id, bearer_token())
        if request.if_none_match.contains(str(encounter.version)):
            return Response(status=304, headers=etag(encounter))
        return encounter_view(encounter, sh.base, sh.steps), 200, etag(encounter)


def _end(bp: Blueprint, sh: Shapes) -> None:
    @bp.delete(f"{sh.root}/<string:encounter_id>", parameters=ENCOUNTER)
    @operation(bp, sh, "endEncounter")
    @bp.response(200, sh.EncounterAuditSchema)
    @documented(bp, 401, 404, 409, 412, 503, write=True)
    def end(encounter_id: str) -> dict:
        """End an encounter: everything stored about it is deleted. The answer is its final audit with every
        server seed revealed: keep it to verify the dice (`python -m service verify FILE`)."""
        audit = encounter_store().end(encounter_id, bearer_token(), expected_version())
        byte_quota.forget(encounter_id)
        return audit


def _combatants(bp: Blueprint, sh: Shapes) -> None:
    @bp.get(f"{sh.root}/<string:encounter_id>/combatants", parameters=ENCOUNTER)
    @operation(bp, sh, "listCombatants")
    @bp.response(200, sh.EncounterCombatantListSchema, headers=headers("ETag"))
    @documented(bp, 401, 404, 503)
    def combatants(encounter_id: str) -> tuple[dict, int, dict]:
        """Every combatant of an encounter."""
        encounter = encounter_store().get(encounter_id, bearer_token())
        return {"version": encounter.version, "combatants": encounter.state["combatants"]}, 200, etag(encounter)


def _add_combatant(bp: Blueprint, sh: Shapes) -> None:
    @bp.post(f"{sh.root}/<string:encounter_id>/combatants", parameters=ENCOUNTER)
    @operation(bp, sh, "addCombatant")
    @bp.arguments(sh.EncounterCombatantSchema, example=sh.examples["added"])
    @bp.response(201, sh.EncounterCombatantOutSchema, headers=headers("Location", "ETag"))
    @documented(bp, 401, 404, 409, 412, 422, 503, write=True)
    def add_combatant(body: dict, encounter_id: str) -> tuple[dict, int, dict]:
        """Add a combatant (the whole encounter is checked again); its id is 1-64 of `A-Z a-z 0-9 _ . ~ -`,
        starting with a letter or digit."""
        body = request.get_json()  # as sent: the ruleset's loader takes it once the encounter is known
        check_combatant_id(body, ("id",))
        byte_quota.check_room()
        encounter, combatant = encounter_store().add_combatant(encounter_id, bearer_token(), body,
                                                               expected_version())
        byte_quota.record(encounter)
        where = f"{links(encounter_id, sh.base, sh.steps)['combatants']}/{combatant['id']}"
        return {"version": encounter.version, "combatant": combatant}, 201, {**etag(encounter), "Location": where}


def _combatant(bp: Blueprint, sh: Shapes) -> None:
    @bp.get(f"{sh.root}/<string:encounter_id>/combatants/<string:combatant_id>", parameters=combatant_parameters(sh))
    @operation(bp, sh, "getCombatant")
    @bp.response(200, sh.EncounterCombatantOutSchema, headers=headers("ETag"))
    @documented(bp, 401, 404, 503)
    def combatant(encounter_id: str, combatant_id: str) -> tuple[dict, int, dict]:
        """One combatant."""
        store, token = encounter_store(), bearer_token()
        encounter = store.get(encounter_id, token)
        return {"version": encounter.version, "combatant": store.combatant(encounter_id, token, combatant_id)}, \
            200, etag(encounter)


def _replace_combatant(bp: Blueprint, sh: Shapes) -> None:
    @bp.put(f"{sh.root}/<string:encounter_id>/combatants/<string:combatant_id>", parameters=combatant_parameters(sh))
    @operation(bp, sh, "replaceCombatant")
    @bp.arguments(sh.EncounterCombatantSchema, example=sh.examples["replaced"])
    @bp.response(200, sh.EncounterCombatantOutSchema, headers=headers("ETag"))
    @documented(bp, 401, 404, 409, 412, 422, 503, write=True)
    def replace_combatant(body: dict, encounter_id: str, combatant_id: str) -> tuple[dict, int, dict]:
        """Replace one combatant."""
        byte_quota.check_room()
        encounter, combatant = encounter_store().replace_combatant(encounter_id, bearer_token(), combatant_id,
                                                                   request.get_json(), expected_version())
        byte_quota.record(encounter)
        return {"version": encounter.version, "combatant": combatant}, 200, etag(encounter)


def _remove_combatant(bp: Blueprint, sh: Shapes) -> None:
    @bp.delete(f"{sh.root}/<string:encounter_id>/combatants/<string:combatant_id>", parameters=combatant_parameters(sh))
    @operation(bp, sh, "removeCombatant")
    @bp.response(204, headers=headers("ETag"))
    @documented(bp, 401, 404, 409, 412, 422, 503, write=True)
    def remove_combatant(encounter_id: str, combatant_id: str) -> Response:
        """Remove one combatant (an encounter keeps at least one)."""
        encounter = encounter_store().remove_combatant(encounter_id, bearer_token(), combatant_id,
                                                       expected_version())
        byte_quota.record(encounter)
        return Response(status=204, headers=etag(encounter))


def _declare(bp: Blueprint, sh: Shapes) -> None:
    @bp.put(f"{sh.root}/<string:encounter_id>/declarations", parameters=ENCOUNTER)
    @operation(bp, sh, "setDeclarations")
    @bp.arguments(sh.EncounterDeclarationsSchema, example=sh.examples["declarations"])
    @bp.response(200, sh.EncounterDeclarationsOutSchema, headers=headers("ETag"))
    @documented(bp, 401, 404, 409, 412, 422, 503, write=True)
    def declare(body: dict, encounter_id: str) -> tuple[dict, int, dict]:
        """Set the declarations for the next step (replacing any pending ones)."""
        byte_quota.check_room()
        encounter = encounter_store().declare(encounter_id, bearer_token(), body["declarations"],
                                              expected_version())
        byte_quota.record(encounter)
        return {"version": encounter.version, "declarations": encounter.declarations}, 200, etag(encounter)


def _resolve(bp: Blueprint, sh: Shapes) -> None:
    @bp.post(f"{sh.root}/<string:encounter_id>/{sh.steps}", parameters=ENCOUNTER)
    @operation(bp, sh, "resolveSegment" if sh.ruleset is None else "resolveEncounter" + sh.steps[:-1].title())
    @bp.arguments(sh.EncounterSegmentRequestSchema, example={"seed": 7})
    @bp.response(201, sh.EncounterSegmentSchema, headers=headers("Location", "ETag"))
    @documented(bp, 401, 404, 409, 412, 422, 503, write=True)
    def resolve(body: dict, encounter_id: str) -> tuple[dict, int, dict]:
        """Resolve the next step (pending declarations, or the ones sent); one atomic write.

        Its dice are the encounter's committed dice (`dice` in the answer; every die goes to the audit) unless
        `seed` is sent. The log keeps `max_log_bytes` of events (older ones give way to a `truncated` event).
        A client whose encounters hold `max_bytes_per_client` bytes gets 429 on this and every other write
        that adds data until it ends an encounter or one expires."""
        encounter, events, segment = encounter_store().resolve(encounter_id, bearer_token(), body["seed"],
                                                               body["declarations"], expected_version(),
                                                               body["rolls"], meter=byte_quota.meter())
        where = links(encounter_id, sh.base, sh.steps)
        answer = {"segment": segment.number, "seed": segment.seed, "dice": step_dice(segment), "events": events,
                  "state": encounter.state, "version": encounter.version, "links": where}
        if registry.get(encounter.ruleset).terms.get("step") == "round":
            answer.update(round=segment.number, summary=segment.summary)
        first = max(encounter.total - len(events), 0)  # the log's index of this step's first event (undo trims
        # the log; a step bigger than the log's cap keeps only its tail, after the `truncated` event)
        location = f"{where['events']}?offset={first}&limit={max(len(events), 1)}"
        return answer, 201, {**etag(encounter), "Location": location}


def _undo(bp: Blueprint, sh: Shapes) -> None:
    @bp.post(f"{sh.root}/<string:encounter_id>/undo", parameters=ENCOUNTER)
    @operation(bp, sh, "undoSegment" if sh.ruleset is None else "undoEncounter" + sh.steps[:-1].title())
    @bp.response(200, sh.EncounterSchema, headers=headers("ETag"))
    @documented(bp, 401, 404, 409, 412, 503, write=True)
    def undo(encounter_id: str) -> tuple[dict, int, dict]:
        """Undo the last resolved step (409 when there is none).

        Only the step is reverted: edits made after it (combatants added, replaced or removed, declarations
        set) are applied again to the encounter as it was before the step and survive; when one no longer
        applies the undo answers 409 naming it, and nothing changes. The log loses the step's events and
        gains an `undo` event listing them (`removed_seqs`), which open streams receive too. A step is a Combat
        Segment (`tactical`) or a round: the answer's `segment` is one less than before, and the `undo` event's
        `segment` names the step undone.
        """
        encounter = encounter_store().undo(encounter_id, bearer_token(), expected_version())
        byte_quota.record(encounter)
        return encounter_view(encounter, sh.base, sh.steps), 200, etag(encounter)


def _events(bp: Blueprint, sh: Shapes) -> None:
    @bp.get(f"{sh.root}/<string:encounter_id>/events", parameters=ENCOUNTER)
    @operation(bp, sh, "listEvents")
    @bp.arguments(sh.EncounterEventsQuerySchema, location="query")
    @bp.response(200, sh.EncounterEventPageSchema, headers=headers("Link"))
    @documented(bp, 401, 404, 422, 503)
    def events(query: dict, encounter_id: str) -> Any:
        """A page of the encounter's event log (each event has `segment` and `seq`)."""
        offset, limit = query["offset"], query["limit"]
        logged, total = encounter_store().repository.events(encounter_id, bearer_token(), offset, limit)
        following = f"{links(encounter_id, sh.base, sh.steps)['events']}?offset={offset + limit}&limit={limit}"
        more = offset + limit < total
        page = {"events": logged, "offset": offset, "limit": limit, "total": total,
                "next": following if more else None}
        return page, 200, {"Link": f'<{following}>; rel="next"'} if more else {}


def _stream(bp: Blueprint, sh: Shapes) -> None:
    @bp.get(f"{sh.root}/<string:encounter_id>/stream", parameters=ENCOUNTER)
    @operation(bp, sh, "streamEncounterEvents")
    @bp.doc(**takes("LastEventId"))
    @bp.arguments(sh.EncounterStreamQuerySchema, location="query")
    @bp.doc(responses={"200": stream_description(sh)})
    @bp.alt_response(429, response="TOO_MANY_REQUESTS",
                     description="This client or this encounter already has as many open streams as allowed.")
    @documented(bp, 401, 404, 422, 503)
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


register(blp, shared())
