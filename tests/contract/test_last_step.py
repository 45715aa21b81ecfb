"""Answers stay inside their own schema at the spec's maxima (issue 22, item 9): every stateless step
resolver answers a valid round (segment) 1,000,000 from its documented example moved to the step before
the last, and refuses the last one (a state there has no next step) with 422 naming the counter."""
from __future__ import annotations

import copy

import pytest
import schemathesis

from service.app import create_app
from service.rules.interface import LAST_STEP
from service.spec import spec_dict
from tests.app_config import isolated_config

APP = create_app(isolated_config())
SCHEMA = schemathesis.openapi.from_wsgi("/openapi.json", APP)
PATHS = sorted(path for path in spec_dict(APP)["paths"] if path.endswith("/resolve"))


def _example(path: str) -> dict:
    body = spec_dict(APP)["paths"][path]["post"]["requestBody"]["content"]["application/json"]["example"]
    return copy.deepcopy(body)


def _counter(path: str) -> str:
    return "segment" if "/segments/" in path else "round"


@pytest.mark.parametrize("path", PATHS)
def test_the_step_before_the_last_answers_a_valid_last_step(path):
    body = _example(path)
    body["state"][_counter(path)] = LAST_STEP - 1
    operation = SCHEMA[path]["POST"]
    response = operation.Case(body=body).call()
    assert response.status_code == 200, response.text
    answer = response.json()
    assert answer["state"][_counter(path)] == LAST_STEP
    assert answer.get("round", LAST_STEP) == LAST_STEP
    operation.validate_response(response)


@pytest.mark.parametrize("path", PATHS)
def test_a_state_at_the_last_step_has_no_next_one(path):
    body = _example(path)
    body["state"][_counter(path)] = LAST_STEP
    response = APP.test_client().post(path, json=body)
    assert response.status_code == 422
    assert response.json["type"] == "urn:referee:problem:contradictory-options"
    assert response.json["errors"][0]["field"] == f"state.{_counter(path)}"
