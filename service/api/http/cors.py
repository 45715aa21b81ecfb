"""Cross-origin access for browser clients, on every response including errors, 429s and 503s.

Origins come from `cors_origins` (default "*": any origin, answered with "*" since Referee uses no
cookies). Browsers may send the headers the API reads (Authorization, If-Match, If-None-Match,
Content-Type, X-API-Key, Last-Event-ID, X-Request-ID) and read the ones it answers with (ETag,
Location, X-Request-ID, RateLimit-*, Retry-After). A preflight (OPTIONS with
Access-Control-Request-Method) is answered by Flask's automatic OPTIONS response plus the allowed
methods and headers, cached by the browser for ten minutes. Responses carry `Vary: Origin`, so shared
caches keep one copy per origin of the cacheable GET answers.

This is a few lines of our own rather than flask-cors: that extension's per-response work (regex
matching every resource and origin) was a tenth of a calculator request's time, and Referee needs
only this one policy for every path.
"""
from __future__ import annotations

from flask import Flask, Response

from service.api.http.current import current_request

ALLOWED = ["Authorization", "If-Match", "If-None-Match", "Content-Type", "X-API-Key", "Last-Event-ID",
           "X-Request-ID"]
EXPOSED = ["ETag", "Location", "X-Request-ID", "RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset",
           "Retry-After", "WWW-Authenticate"]
METHODS = "GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS"
MAX_AGE = "600"


def init_app(app: Flask, origins: tuple[str, ...]) -> None:
    """Answer preflights and add CORS headers to every response of `app`."""
    any_origin = "*" in origins
    listed = frozenset(origins)
    allow_headers, expose_headers = ", ".join(ALLOWED), ", ".join(EXPOSED)

    @app.after_request
    def cors(response: Response) -> Response:
        _vary_on_origin(response)  # also when this request had no Origin: a cache must not reuse it
        req = current_request()
        origin = req.environ.get("HTTP_ORIGIN")
        if origin is None or not (any_origin or origin in listed):
            return response
        headers = response.headers
        headers["Access-Control-Allow-Origin"] = "*" if any_origin else origin
        headers["Access-Control-Expose-Headers"] = expose_headers
        if req.method == "OPTIONS" and "HTTP_ACCESS_CONTROL_REQUEST_METHOD" in req.environ:
            headers["Access-Control-Allow-Methods"] = headers.get("Allow") or METHODS
            headers["Access-Control-Allow-Headers"] = allow_headers
            headers["Access-Control-Max-Age"] = MAX_AGE
        return response


def _vary_on_origin(response: Response) -> None:
    """Add Origin to `Vary` (werkzeug's `response.vary` parses and rebuilds the header: 4 us a response)."""
    vary = None
    for name, value in response.headers:  # `get` raises and catches a KeyError when there is none
        if name.lower() == "vary":
            vary = value
            break
    if not vary:
        response.headers.add("Vary", "Origin")  # none yet (looked for above): no second search
    elif "origin" not in {part.strip().lower() for part in vary.split(",")} and vary.strip() != "*":
        response.headers["Vary"] = f"{vary}, Origin"
