"""What a request to /v1/encounters carries besides its body: the encounter token, the version `If-Match`
names, where an event stream resumes, and combatant ids safe in a URL; and the encounter service that
answers it (the calling tenant's repository)."""
from __future__ import annotations

import re
from typing import Any

from flask import current_app, request

from service.api.http.auth import current_tenant
from service.api.kit.payloads import load_payload
from service.rules.errors import OutOfRange
from service.sessions.encounters import Encounters
from service.sessions.errors import EncounterNotFound, Unauthenticated


def encounter_store() -> Encounters:
    """The encounter service over the calling tenant's repository."""
    config = current_app.extensions["referee.config"]
    repository = current_app.extensions["referee.encounters"].for_tenant(current_tenant())
    return Encounters(repository, config.max_combatants, load_payload)


def bearer_token(fallback: str | None = None) -> str:
    """The encounter token from `Authorization: Bearer` (or `fallback`, the stream's `?token=`)."""
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


def expected_version() -> int | None:
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
        current = encounter_store().get(request.view_args["encounter_id"], bearer_token()).version
    except (EncounterNotFound, KeyError, TypeError):
        return versions[0]  # the write itself answers 404
    return current if current in versions else versions[0]


def last_event_id(since: int | None) -> int:
    """Where a stream starts: after `Last-Event-ID`, else after `?since=`, else at the start of the log (0).

    Replaying the whole log by default means a stream opened just before a step can never miss that step's
    events, however the two requests race; a client that already holds the log skips it with either."""
    header = request.headers.get("Last-Event-ID", "").strip()
    if header.isdigit() and len(header) < 16:
        return int(header)
    return 0 if since is None else since
