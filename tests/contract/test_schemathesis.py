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

schema = schemathesis.openapi.from_wsgi("/openapi.json", create_app(isolated_config()))
schema.config.generation.update(modes=[GenerationMode.POSITIVE, GenerationMode.NEGATIVE])


@schema.parametrize()
@settings(max_examples=12, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
def test_api_conforms_to_its_contract(case):
    case.call_and_validate(excluded_checks=[positive_data_acceptance])
