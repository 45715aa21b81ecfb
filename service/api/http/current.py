"""The current request, app and `g`, read straight from Flask's context variables.

`flask.request` and `current_app` are proxies: each `request._get_current_object()` walks a descriptor, a
bound method and a getter (some twenty bytecodes), and the hooks and views around a calculator ask about
ten times a request. Flask 3.1 keeps the contexts in `flask.globals._cv_request` / `_cv_app`; where those
are missing (another Flask), the proxies are used as before. Only call these inside a request.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Flask, Request, current_app, g, request

try:
    from flask.globals import _cv_app, _cv_request
except ImportError:  # pragma: no cover - a Flask without them
    _cv_app = _cv_request = None


def _via_proxies() -> tuple[Callable[[], Request], Callable[[], Flask], Callable[[], Any]]:
    return (lambda: request._get_current_object(), lambda: current_app._get_current_object(),  # type: ignore
            lambda: g._get_current_object())  # type: ignore[attr-defined]


if _cv_request is not None and _cv_app is not None:
    _request_ctx, _app_ctx = _cv_request.get, _cv_app.get

    def current_request() -> Request:
        """The request being answered (as `request._get_current_object()`)."""
        return _request_ctx().request

    def app_of_request() -> Flask:
        """The app answering (as `current_app._get_current_object()`)."""
        return _app_ctx().app  # type: ignore[return-value]

    def request_globals() -> Any:
        """The app context's `g`."""
        return _app_ctx().g
else:  # pragma: no cover
    current_request, app_of_request, request_globals = _via_proxies()
