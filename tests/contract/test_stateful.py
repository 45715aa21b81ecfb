"""Schemathesis' stateful mode over the encounter lifecycle: create, then follow the OpenAPI links
(read, declare, resolve, page events, undo, end) with the new encounter's id and token.

`ignored_auth` expects 401/403 for a wrong token; Referee answers a wrong token with 404 on purpose, so
nobody can tell an encounter exists without its token (a missing token is still 401, tested elsewhere).
"""
from __future__ import annotations

from hypothesis import HealthCheck, settings

import schemathesis
from schemathesis.specs.openapi.checks import ignored_auth, positive_data_acceptance

from service.app import create_app
from tests.app_config import isolated_config

schema = schemathesis.openapi.from_wsgi("/openapi.json", create_app(isolated_config())).include(
    path_regex="^/v1/encounters")


class EncounterLifecycle(schema.as_state_machine()):  # type: ignore[misc]
    def validate_response(self, response, case, **kwargs):  # type: ignore[no-untyped-def]
        case.validate_response(response, excluded_checks=[positive_data_acceptance, ignored_auth])


TestEncounterLifecycle = EncounterLifecycle.TestCase
TestEncounterLifecycle.settings = settings(max_examples=25, stateful_step_count=6, deadline=None,
                                           derandomize=True,
                                           suppress_health_check=list(HealthCheck))
