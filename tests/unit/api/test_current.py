"""The context shortcuts give the very objects Flask's proxies give."""
from __future__ import annotations

from flask import Flask, current_app, g, request

from service.api.http.current import app_of_request, current_request, request_globals


def test_the_shortcuts_are_the_proxies_objects():
    app = Flask("current-test")
    with app.test_request_context("/v1/x", method="POST", json={"a": 1}):
        assert current_request() is request._get_current_object()
        assert app_of_request() is current_app._get_current_object() is app
        g.tenant = "t1"
        assert request_globals() is g._get_current_object()
        assert request_globals().get("tenant") == "t1"


def test_a_wrapper_copying_a_plain_functions_attributes_is_still_made_sync():
    import asyncio
    import functools

    from service.app import create_app

    app = create_app()

    def plain():
        return "plain"

    assert app.ensure_sync(plain) is plain
    assert app.ensure_sync(plain) is plain  # remembered

    @functools.wraps(plain)
    async def wrapper():
        return "async"

    assert asyncio.iscoroutinefunction(wrapper) and wrapper._referee_plain == id(plain)  # the copied mark
    try:
        made = app.ensure_sync(wrapper)
    except RuntimeError:  # Flask without its async extra refuses async views: not taken for plain either
        return
    assert made is not wrapper
