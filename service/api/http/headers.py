"""The HTTP headers the contract documents: request header parameters (`If-Match`, `If-None-Match`,
`Last-Event-ID`) and response headers (`ETag`, `Location`, `RateLimit-*`, `Retry-After`, `X-Request-ID`),
each defined once under `components` and referenced where an operation reads or sends it."""
from __future__ import annotations

from typing import Any

PARAMETERS: dict[str, dict[str, Any]] = {
    "IfMatch": {"name": "If-Match", "in": "header", "required": False, "schema": {"type": "string"},
                "example": '"3"',
                "description": "Only write when the resource's current version is this strong ETag (e.g. "
                               "`\"3\"`); otherwise 412. Weak tags (`W/\"3\"`) never match a write."},
    "IfNoneMatch": {"name": "If-None-Match", "in": "header", "required": False, "schema": {"type": "string"},
                    "description": "The ETag you hold; the answer is 304 with no body while it is current."},
    "LastEventId": {"name": "Last-Event-ID", "in": "header", "required": False,
                    "schema": {"type": "string", "pattern": "^[0-9]{1,15}$"},
                    "description": "Resume after this event `seq` (EventSource sends it when it reconnects)."},
}

HEADERS: dict[str, dict[str, Any]] = {
    "ETag": {"description": "The version of the resource as a strong entity tag (send it back in If-Match or "
                            "If-None-Match).", "schema": {"type": "string"}},
    "Location": {"description": "URL of the resource this request created (or of its answer).",
                 "schema": {"type": "string"}},
    "RateLimit-Limit": {"description": "Requests allowed in the current window (only when a rate limit is "
                                       "configured).", "schema": {"type": "integer"}},
    "RateLimit-Remaining": {"description": "Requests left in the current window.", "schema": {"type": "integer"}},
    "RateLimit-Reset": {"description": "Seconds until the window resets.", "schema": {"type": "integer"}},
    "Retry-After": {"description": "Seconds to wait before trying again.", "schema": {"type": "integer"}},
    "X-Request-ID": {"description": "This request's id (echoed from the request when it sent one); it also "
                                    "appears in problem bodies and the access log.", "schema": {"type": "string"}},
    "Link": {"description": "`<url>; rel=\"next\"` when a further page exists.", "schema": {"type": "string"}},
}

RATE_LIMIT = ("RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset")


EXTRA = "x-referee-header-parameters"  # read (and removed) by service.api.http.contract


def parameter(name: str) -> str:
    """A reference to one of PARAMETERS (apispec turns a component name into its `$ref`)."""
    return name


def takes(*names: str) -> dict[str, list[str]]:
    """`blp.doc(**takes("IfMatch"))`: header parameters an operation reads, added to whatever else it
    documents (a `parameters` doc entry would replace the query parameters of `blp.arguments`)."""
    return {EXTRA: [parameter(name) for name in names]}


def header(name: str) -> dict[str, str]:
    """A reference to one of HEADERS."""
    return {"$ref": f"#/components/headers/{name}"}


def headers(*names: str) -> dict[str, dict[str, str]]:
    """Response headers for `blp.response(..., headers=...)`."""
    return {name: header(name) for name in names}


def register(spec: Any) -> None:
    """Define every parameter and header under `components`."""
    for name, value in PARAMETERS.items():
        spec.components.parameter(name, value["in"], {k: v for k, v in value.items() if k != "in"})
    for name, value in HEADERS.items():
        spec.components.header(name, value)
