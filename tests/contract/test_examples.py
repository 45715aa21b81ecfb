"""Every request example in the spec is what "Try it out" sends: each must be answered 2xx by a real
app (embedded Redis, a Celery worker), in the walk order of tests/contract/examples_walk.py."""
from __future__ import annotations

import pytest

from tests.contract.examples_walk import running_app, walk

pytestmark = pytest.mark.slow


def test_every_documented_example_is_accepted(tmp_path):
    with running_app(tmp_path) as app:
        answers = walk(app)
    refused = [f"{a['method'].upper()} {a['path']} -> {a['status']}: {a['body']}" for a in answers
               if not 200 <= a["status"] < 300]
    assert not refused, refused
    assert {a["operationId"] for a in answers} >= {"tacticalToHit", "createEncounter", "resolveSegment"}
