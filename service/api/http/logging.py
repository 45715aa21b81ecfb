"""One JSON log line per request, and the request id that ties a response, its logs and its problem body.

The id comes from an incoming `X-Request-ID` when it is 1-64 characters of [A-Za-z0-9._-] (a proxy's
or client's id is kept), else a fresh one is made; it is echoed in the `X-Request-ID` response header
and as `request_id` in every problem+json body. Log lines go to stderr as one JSON object each:
time, level, logger, message, method, path, status, duration_ms, request_id, remote, tenant. (A small
formatter of our own: python-json-logger cost a fifth of a calculator request's time.)
"""
from __future__ import annotations

import json
import logging
import os
import re
import sys
import time

import orjson
from flask import Flask, Response, has_request_context, request

from service.api.http.current import current_request, request_globals

ACCESS_LOGGER = "referee.access"
HEADER = "X-Request-ID"
_VALID = re.compile(r"[A-Za-z0-9._-]{1,64}")


ID_KEY, STARTED_KEY = "referee.request_id", "referee.started"  # kept in the WSGI environ of the request


def request_id() -> str | None:
    """The current request's id (made on first use), or None outside a request."""
    if not has_request_context():
        return None
    return _id_of(request.environ)


def _id_of(environ: dict) -> str:
    rid = environ.get(ID_KEY)
    if rid is None:
        offered = environ.get("HTTP_X_REQUEST_ID", "")
        rid = environ[ID_KEY] = offered if offered and _VALID.fullmatch(offered) else os.urandom(16).hex()
    return rid


class JsonLines(logging.Formatter):
    """One compact JSON object per record; `extra={"fields": {...}}` adds keys to it."""

    def format(self, record: logging.LogRecord) -> str:
        line = {"asctime": self.formatTime(record), "levelname": record.levelname, "name": record.name,
                "message": record.getMessage(), **getattr(record, "fields", {})}
        if record.exc_info:
            line["exc_info"] = self.formatException(record.exc_info)
        return _dumps(line)


class StderrHandler(logging.StreamHandler):
    """Writes to whatever `sys.stderr` is at the time (test runners swap it), never a stale stream."""

    @property  # type: ignore[override]
    def stream(self):  # type: ignore[no-untyped-def]
        return sys.stderr

    @stream.setter
    def stream(self, value) -> None:  # type: ignore[no-untyped-def]
        pass


def access_logger(level: str = "INFO") -> logging.Logger:
    """The access logger, given its JSON handler once per process (apps built later share it)."""
    logger = logging.getLogger(ACCESS_LOGGER)
    logger.setLevel(level.upper())
    if not any(getattr(h, "referee_json", False) for h in logger.handlers):
        handler = StderrHandler()
        handler.setFormatter(JsonLines())
        handler.referee_json = True  # type: ignore[attr-defined]
        logger.addHandler(handler)
    logger.propagate = False
    return logger


def write_access_line(logger: logging.Logger, fields: dict) -> None:
    """Log one request. While the logger has only its own JSON handler the line is written straight to
    stderr (the same JSON a LogRecord would give, at a fraction of the cost: this runs on every request)."""
    if not logger.isEnabledFor(logging.INFO):
        return
    handlers = logger.handlers
    if len(handlers) != 1 or not getattr(handlers[0], "referee_json", False) or logger.filters or handlers[0].filters \
            or handlers[0].level > logging.INFO:
        logger.info("request", extra={"fields": fields})
        return
    line = _dumps({"asctime": _asctime(time.time()), "levelname": "INFO", "name": logger.name,
                   "message": "request", **fields})
    with handlers[0].lock:  # type: ignore[union-attr]
        sys.stderr.write(line + "\n")


def _dumps(line: dict) -> str:
    """One compact JSON line, values JSON cannot hold written as their str()."""
    try:
        return orjson.dumps(line, default=str, option=orjson.OPT_NON_STR_KEYS).decode()
    except (orjson.JSONEncodeError, TypeError):  # an integer beyond 64 bits, say
        return json.dumps(line, default=str, separators=(",", ":"))


_second: tuple[int, str] = (-1, "")  # one tuple, replaced whole, so threads never see half an update


def _asctime(now: float) -> str:
    """`logging.Formatter.formatTime`'s default text ("2026-11-23 11:05:03,123"), the second part cached."""
    global _second
    second, cached = int(now), _second
    if cached[0] != second:
        cached = _second = (second, time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(second)))
    return f"{cached[1]},{int((now - second) * 1000):03d}"


def init_app(app: Flask, level: str = "INFO") -> None:
    """Start the clock and fix the request id before anything else runs; log and echo it after."""
    logger = access_logger(level)

    @app.before_request
    def start() -> None:
        environ = current_request().environ
        environ[STARTED_KEY] = time.perf_counter()
        _id_of(environ)

    @app.after_request
    def finish(response: Response) -> Response:
        req = current_request()  # one context lookup, not six
        environ = req.environ
        rid = environ.get(ID_KEY) or _id_of(environ)
        response.headers[HEADER] = rid
        write_access_line(logger, {"method": req.method, "path": req.path, "status": response.status_code,
                                   "duration_ms": round(elapsed_in(environ) * 1000, 3), "request_id": rid,
                                   "remote": req.remote_addr, "tenant": request_globals().get("tenant")})
        return response


def elapsed_in(environ: dict) -> float:
    """Seconds since the request of this WSGI environ started (0 when the start hook did not run)."""
    started = environ.get(STARTED_KEY)
    return 0.0 if started is None else time.perf_counter() - started
