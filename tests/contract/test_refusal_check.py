"""The positive-data check of tests/contract/test_schemathesis.py fails on spec drift and passes relations."""
from __future__ import annotations

import warnings

import pytest
from hypothesis.errors import NonInteractiveExampleWarning

from tests.contract.test_schemathesis import documented_refusals_only, schema


class Answer:
    """The part of a response the check reads."""

    def __init__(self, status: int, problem_type: str):
        self.status_code, self.text = status, ""
        self.body = {"type": "urn:referee:problem:" + problem_type, "errors": [{"field": "rates.0"}]}

    def json(self) -> dict:
        return self.body


@pytest.fixture(scope="module")
def positive_case():
    operation = schema.find_operation_by_label("POST /v1/tactical/pulse-ramp")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NonInteractiveExampleWarning)
        return operation.as_strategy().example()


@pytest.mark.parametrize("status, kind", [(422, "invalid-request"), (422, "out-of-range"),
                                          (422, "unprocessable-by-the-rules"), (400, "bad-request")])
def test_a_shape_refusal_of_valid_data_fails(positive_case, status, kind):
    with pytest.raises(AssertionError, match="valid data refused"):
        documented_refusals_only(None, Answer(status, kind), positive_case)


@pytest.mark.parametrize("status, kind", [(422, "contradictory-options"), (422, "unknown-name"), (404, "x"),
                                          (429, "x"), (200, "x")])
def test_relations_and_documented_statuses_pass(positive_case, status, kind):
    documented_refusals_only(None, Answer(status, kind), positive_case)
