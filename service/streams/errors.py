"""The refusal of a stream past its cap (429 problem+json with Retry-After)."""
from __future__ import annotations

from service.sessions.errors import SessionError


class TooManyStreams(SessionError):
    """This client, or this encounter, already has as many open event streams as allowed."""

    status = 429
    title = "Too Many Requests"
    headers = {"Retry-After": "10"}
