"""Schemathesis against every endpoint of the served spec: positive and negative data, no 5xx ever.

`positive_data_acceptance` is left out on purpose: the rules refuse some schema-valid bodies with a
422 naming the field (a crossbow shot past its maximum, a slash without CRD, both `dv` and `ranged`),
checks that belong in the domain, not in the schema. Every other default check runs.
"""
from __future__ import annotations

import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis import GenerationMode
from schemathesis.specs.openapi.checks import positive_data_acceptance

from service.app import create_app
from tests.app_config import isolated_config

# Each ruleset's own encounter operations are the same views over its own schemas: schemathesis runs every
# ruleset's `POST /v1/{ruleset}/encounters` (the body most particular to a ruleset) but the operations on an
# existing encounter of smoting's alone, which keeps the suite's budget (tests/integration/
# test_typed_encounters.py walks every ruleset's through the lifecycle).
schema = schemathesis.openapi.from_wsgi("/openapi.json", create_app(isolated_config())).exclude(
    path_regex=r"^/v1/(?!smoting/)[a-z-]+/encounters/")
schema.config.generation.update(modes=[GenerationMode.POSITIVE, GenerationMode.NEGATIVE])


@schema.parametrize()
@settings(max_examples=12, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
def test_api_conforms_to_its_contract(case):
    case.call_and_validate(excluded_checks=[positive_data_acceptance])
