"""/v1/simulations refuses, with 422 naming the field, what the tactical engine leaves out (README
"Simulations"): positions, ranged fire, surprise, slash and thrust, street clothes."""
from __future__ import annotations

import pytest

from tests.unit.api.test_simulations_api import api, sim_app  # noqa: F401 (fixtures)
from tests.unit.sim.differential import fighter, matchup

BOW = {"name": "bow", "av": 50, "parry": 0, "size": 4, "weight_class": 0, "grip": "bow", "ranged": "bow"}


@pytest.mark.parametrize("change, field", [
    ({"position": {"x": 30, "y": 0}}, "position"),
    ({"weapons": [BOW]}, "weapons.0.ranged"),
    ({"surprise": {"state": "overwhelmed", "cs_left": 1, "penalty": 10}}, "surprise"),
    ({"weapons": [{"name": "spear", "av": 50, "parry": 30, "size": 8, "weight_class": 2, "edge": "pointed",
                   "attack": "thrust"}]}, "weapons.0.attack"),
])
def test_left_out_rules_are_422_naming_the_field(api, change, field):  # noqa: F811
    body = {"matchup": matchup([fighter("a")], [{**fighter("b"), **change}]), "trials": 100}
    response = api.post("/v1/simulations", json=body)
    assert response.status_code == 422 and response.mimetype == "application/problem+json"
    fields = [error["field"] for error in response.get_json()["errors"]]
    assert f"matchup.sides.1.combatants.0.{field}" in fields, fields


@pytest.mark.parametrize("policy", ["body-check", "side-swipe", "tackle"])
def test_a_policy_of_body_checks_is_422_naming_the_field(api, policy):  # noqa: F811
    body = {"matchup": {**matchup([fighter("a")], [fighter("b")]), "options": {"policy": policy}}, "trials": 100}
    response = api.post("/v1/simulations", json=body)
    assert response.status_code == 422 and response.mimetype == "application/problem+json"
    errors = {error["field"]: error["message"] for error in response.get_json()["errors"]}
    assert "body-check" in errors["matchup.options.policy"], errors


def test_the_attack_policy_is_the_one_simulations_play(api):  # noqa: F811
    body = {"matchup": {**matchup([fighter("a")], [fighter("b")]), "options": {"policy": "attack"}}, "trials": 100}
    assert api.post("/v1/simulations", json=body).status_code == 202
