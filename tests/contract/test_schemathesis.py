"""Schemathesis against every endpoint of the served spec: positive and negative data, no 5xx ever, and a
request the spec calls valid is never refused for its shape (issue 22: 1,553 such refusals on 64 operations).

Every default check runs, with `positive_data_acceptance` in the form the spec's 422 promises
(`documented_refusals_only`): positive data may be refused only with a status every operation documents for
reasons outside the body's shape (401, 403, 404, 409, 412, 429) or with a 422 whose problem type is a relation
between values that a schema cannot state, `contradictory-options` or `unknown-name` (a slash without CRD,
both `dv` and `ranged`, a weapon not in the pack). `invalid-request`, `out-of-range` or a bare rules 422 on
positive data is spec drift and fails the run.
"""
from __future__ import annotations

import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis import GenerationMode
from schemathesis.specs.openapi.checks import is_unexpected_http_status_case, positive_data_acceptance

from service.api.http.errors import PROBLEM_TYPE
from service.api.http.openapi import RELATIONS
from service.app import create_app
from tests.app_config import isolated_config

# Each ruleset's own encounter and simulation operations are the same views over its own schemas: schemathesis
# runs every ruleset's `POST /v1/{ruleset}/encounters` (the body most particular to a ruleset: its combatants)
# but the operations on an existing encounter, and the simulations, of smoting's alone (a simulation's matchup
# holds the same combatant schemas; about 15 s of CPU each), which keeps the suite's budget
# (tests/integration/test_typed_encounters.py and test_typed_simulations.py run every ruleset's).
schema = schemathesis.openapi.from_wsgi("/openapi.json", create_app(isolated_config())).exclude(
    path_regex=r"^/v1/(?!smoting/)[a-z-]+/(encounters/|simulations)")
schema.config.generation.update(modes=[GenerationMode.POSITIVE, GenerationMode.NEGATIVE])
# A body past the request-size limit is refused with 413 before anything reads it: a rejection, like a 422.
_rejection = schema.config.checks.negative_data_rejection
_rejection.expected_statuses = [*_rejection.expected_statuses, "413"]

REFUSALS_BESIDE_SHAPE = {401, 403, 404, 409, 412, 429}
# Bodies whose combatants, options and state are an untagged union of the five rulesets' shapes, so a valid
# body may pair one ruleset's id with another's combatant: issue 24 types them per ruleset. Until then these
# three are checked for everything but positive data (their refusals name the field, never a 5xx).
UNTYPED_UNIONS = {"POST /v1/encounters", "POST /v1/encounters/{encounter_id}/combatants", "POST /v1/simulations"}


def _generator_broke_pattern(body, error: dict) -> bool:
    """A pattern refusal of an empty value or one holding a control character: every pattern in the spec that
    refuses them says so (`[^\\x00-\\x1f...]{1,n}`), but the data generator lets such strings through as
    "positive" ones."""
    if error.get("message") != "String does not match expected pattern.":
        return False
    value = body
    for part in error.get("field", "").split("."):
        value = value[int(part)] if isinstance(value, list) and part.isdigit() else (
            value.get(part) if isinstance(value, dict) else None)
    return isinstance(value, str) and (value == "" or any(ord(c) < 32 or ord(c) == 127 for c in value))


def documented_refusals_only(ctx, response, case) -> None:
    """Positive data answered 4xx only for a documented reason (see the module docstring)."""
    meta = case.meta
    if (meta is None or not meta.generation.mode.is_positive or is_unexpected_http_status_case(case)
            or case.operation.label in UNTYPED_UNIONS or not 400 <= response.status_code < 500
            or response.status_code in REFUSALS_BESIDE_SHAPE):
        return
    problem = response.json() if response.status_code == 422 else {}
    if problem.get("type") in {PROBLEM_TYPE + name for name in RELATIONS}:
        return
    if problem.get("errors") and all(_generator_broke_pattern(case.body, e) for e in problem["errors"]):
        return
    raise AssertionError(f"valid data refused: {response.status_code} {problem.get('type')} "
                         f"{problem.get('errors') or problem.get('detail') or response.text[:300]}")


@schema.parametrize()
@settings(max_examples=12, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
def test_api_conforms_to_its_contract(case):
    case.call_and_validate(excluded_checks=[positive_data_acceptance], additional_checks=[documented_refusals_only])
