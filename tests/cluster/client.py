"""Flask's test-client calls over HTTP, each request to the next API node in turn, so the encounter and
simulation tests written against one in-process app run unchanged against the cluster stack (every other
request of theirs is served by the other node)."""
from __future__ import annotations

import itertools
from typing import Any
from urllib.parse import urlsplit

import requests


class Answer:
    """What a Flask test client's response offers the tests: status_code, headers, data, get_json()/json."""

    def __init__(self, response: requests.Response):
        self.status_code, self.headers, self.data = response.status_code, response.headers, response.content

    def get_json(self) -> Any:
        return requests.models.complexjson.loads(self.data) if self.data else None

    @property
    def json(self) -> Any:
        return self.get_json()

    def get_data(self, as_text: bool = False) -> Any:
        return self.data.decode() if as_text else self.data


class RoundRobin:
    """`get/post/put/patch/delete/head(path, json=, headers=, query_string=)` on the API nodes in turn."""

    def __init__(self, urls: list[str]):
        self.urls, self._turn = urls, itertools.count()
        self.session = requests.Session()

    def open(self, method: str, path: str, json: Any = None, headers: dict | None = None,
             query_string: Any = None, data: Any = None) -> Answer:
        parts = urlsplit(path)
        path = parts.path + (f"?{parts.query}" if parts.query else "")  # a Location header is absolute
        base = self.urls[next(self._turn) % len(self.urls)]
        return Answer(self.session.request(method, base + path, json=json, headers=headers, params=query_string,
                                           data=data, timeout=60))

    def get(self, path: str, **kwargs: Any) -> Answer:
        return self.open("GET", path, **kwargs)

    def post(self, path: str, **kwargs: Any) -> Answer:
        return self.open("POST", path, **kwargs)

    def put(self, path: str, **kwargs: Any) -> Answer:
        return self.open("PUT", path, **kwargs)

    def patch(self, path: str, **kwargs: Any) -> Answer:
        return self.open("PATCH", path, **kwargs)

    def delete(self, path: str, **kwargs: Any) -> Answer:
        return self.open("DELETE", path, **kwargs)

    def head(self, path: str, **kwargs: Any) -> Answer:
        return self.open("HEAD", path, **kwargs)


class Nodes:
    """Stands in for a Flask app in tests that take one: `test_client()` is a RoundRobin on the API nodes."""

    def __init__(self, urls: list[str]):
        self.urls = urls

    def test_client(self) -> RoundRobin:
        return RoundRobin(self.urls)
