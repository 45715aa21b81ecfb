"""Refusals of the encounter store; the API's one error module turns them into problem+json."""
from __future__ import annotations

from service.rules.errors import RulesError


class SessionError(RulesError):
    """A request the encounter store refuses; `headers` are added to the error response."""

    status = 400
    title = "Bad request"
    headers: dict[str, str] = {}


class Unauthenticated(SessionError):
    """No `Authorization: Bearer <token>` (or `?token=` on the event stream) was sent."""

    status = 401
    title = "Unauthorized"
    headers = {"WWW-Authenticate": 'Bearer realm="encounters"'}


class EncounterNotFound(SessionError):
    """No encounter with this id for this token (unknown, expired, deleted, or someone else's)."""

    status = 404
    title = "Not found"


class Conflict(SessionError):
    """The encounter changed between our read and our write; read it again and retry."""

    status = 409
    title = "Conflict"


class NothingToUndo(Conflict):
    """No resolved segment is left on the undo stack."""


class VersionMismatch(Conflict):
    """`If-Match` named a version that is not the encounter's current one."""

    status = 412
    title = "Precondition failed"


def not_found(encounter_id: str) -> EncounterNotFound:
    """The one answer for unknown ids and wrong tokens alike, so a token never reveals other encounters."""
    return EncounterNotFound(f"no encounter {encounter_id!r} for this token (unknown, expired or ended)")
