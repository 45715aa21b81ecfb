"""POST /v1/tactical/initiative, /surprise and /contest: contract names, numbers, 422s."""
from __future__ import annotations

import pytest

INIT, SURPRISE, CONTEST = "/v1/tactical/initiative", "/v1/tactical/surprise", "/v1/tactical/contest"


def fields_of(response):
    return {e["field"] for e in response.get_json()["errors"]}


def test_initiative_roster_passes_and_exact_odds(client):
    body = {"combatants": [{"id": "a", "roll": 4}, {"id": "b", "awa_mod": 2, "roll": 3, "actions": 2}],
            "seed": 5}
    data = client.post(INIT, json=body).get_json()
    assert [(r["id"], r["roll"], r["initiative"], r["actions"]) for r in data["roster"]] == [("b", 3, 5, 2),
                                                                                              ("a", 4, 4, 1)]
    assert data["roster"][0]["dice"] == {"expression": "d10", "dice": [3], "total": 3, "supplied": True}
    assert data["passes"] == [["b", "a"], ["b"]]
    assert data["first_probabilities"] == {"b": 1.0, "a": 0.0}
    assert data["first_probabilities_exact"] == {"b": "1/1", "a": "0/1"}
    assert data["seed"] == 5 and data["trace"][0]["rule"] == "Initiative"


def test_initiative_equal_pair_is_eleven_twentieths_for_the_first_id(client):
    data = client.post(INIT, json={"combatants": [{"id": "b"}, {"id": "a"}], "seed": 1}).get_json()
    assert data["first_probabilities_exact"] == {"a": "11/20", "b": "9/20"}
    assert data["first_probabilities"]["a"] == pytest.approx(0.55)


def test_initiative_same_seed_same_answer_and_simultaneous(client):
    body = {"combatants": [{"id": c, "roll": 6} for c in "dcba"], "tie_break": "coin", "seed": 77}
    first, again = client.post(INIT, json=body).get_json(), client.post(INIT, json=body).get_json()
    assert first == again
    assert all(r["simultaneous"] for r in first["roster"]) and first["first_probabilities"] is None
    alphabetical = client.post(INIT, json={**body, "tie_break": "alphabetical"}).get_json()
    assert [r["id"] for r in alphabetical["roster"]] == ["a", "b", "c", "d"]


def test_initiative_extra_first(client):
    body = {"combatants": [{"id": "a", "roll": 9}, {"id": "b", "roll": 1, "actions": 2}],
            "pass_order": "extra-first"}
    assert client.post(INIT, json=body).get_json()["passes"] == [["b"], ["b"], ["a"]]


@pytest.mark.parametrize(("body", "field"), [
    ({"combatants": [{"id": "x"}, {"id": "y"}, {"id": "x"}]}, "combatants.2.id"),
    ({"combatants": [{"id": "x", "roll": 11}]}, "combatants.0.roll"),
    ({"combatants": [{"id": ""}]}, "combatants.0.id"),
    ({"combatants": [{"id": "x", "actions": 11}]}, "combatants.0.actions"),
    ({"combatants": [{"id": "x", "awa_mod": 10**30}]}, "combatants.0.awa_mod"),
    ({"combatants": [{"id": "x", "agl": 1.5}]}, "combatants.0.agl"),
    ({"combatants": []}, "combatants"),
    ({"combatants": [{"id": "x"}], "tie_break": "dice"}, "tie_break"),
])
def test_initiative_refusals_name_the_field(client, body, field):
    response = client.post(INIT, json=body)
    assert response.status_code == 422
    assert response.content_type == "application/problem+json"
    assert field in fields_of(response)


def test_surprise_seed_example(client):
    body = {"aggressor": {"chance": 60}, "target": {"chance": 40, "dv": 30},
            "rolls": {"aggressor": 50, "target": 45}}
    data = client.post(SURPRISE, json=body).get_json()
    assert (data["outcome"], data["duration_cs"], data["penalty"]) == ("overwhelmed", 2, 15)
    assert data["margins"] == {"aggressor": 10, "target": -5}
    assert data["rolls"]["aggressor"]["supplied"] and data["rolls"]["target"]["total"] == 45
    assert data["recovery"] == {"hrt_check_dv": 15, "stunned_cs_if_failed": 3,
                                "penalty_schedule": [15, 14, 13]}
    assert data["probabilities_exact"] == {"none": "2/5", "not-surprised": "41/500", "stunned": "79/500",
                                           "overwhelmed": "9/25"}
    assert data["probabilities"]["overwhelmed"] == pytest.approx(0.36)
    assert data["expected_duration_cs_exact"] == "2337/1000"
    assert data["surprise_dv"] is None


def test_surprise_tie_of_margins_is_not_surprised(client):
    body = {"aggressor": {"chance": 50}, "target": {"chance": 30}, "rolls": {"aggressor": 40, "target": 20}}
    data = client.post(SURPRISE, json=body).get_json()
    assert data["outcome"] == "not-surprised" and data["recovery"] is None
    assert any(step["rule"] == "RULINGS 18" for step in data["trace"])


def test_surprise_trap_and_dv_from(client):
    body = {"target": {"chance": 40}, "trap": True, "rolls": {"target": 75},
            "dv_from": {"base_dv": 20, "springers": [{"chm_mod": 1, "hrt_mod": 2, "modified_sta": 24}]}}
    data = client.post(SURPRISE, json=body).get_json()
    assert (data["outcome"], data["duration_cs"], data["penalty"]) == ("overwhelmed", 4, 35)
    assert data["rolls"]["aggressor"] is None and data["margins"]["aggressor"] is None
    assert data["surprise_dv"] == 20 + 1 + 2 + 1 + 4
    assert data["recovery"]["hrt_check_dv"] == 14 and data["recovery"]["stunned_cs_if_failed"] == 3
    assert data["probabilities_exact"]["overwhelmed"] == "3/5"


def test_surprise_one_roll_supplied_other_rolled(client):
    body = {"aggressor": {"chance": 50}, "target": {"chance": 50}, "rolls": {"target": 1}, "seed": 3}
    data = client.post(SURPRISE, json=body).get_json()
    assert data["rolls"]["target"]["supplied"] and not data["rolls"]["aggressor"]["supplied"]
    assert client.post(SURPRISE, json=body).get_json() == data


@pytest.mark.parametrize(("body", "field"), [
    ({"target": {"chance": 40}}, "aggressor"),
    ({"aggressor": {"chance": 40}, "target": {"chance": 40}, "trap": True}, "aggressor"),
    ({"target": {"chance": 40}, "trap": True, "rolls": {"aggressor": 5}}, "rolls.aggressor"),
    ({"aggressor": {"chance": 40}, "target": {"chance": 40}, "rolls": {"target": 0}}, "rolls.target"),
    ({"aggressor": {"chance": 40}, "target": {"chance": 40, "dv": 9},
      "dv_from": {"base_dv": 1, "springers": [{}]}}, "target.dv"),
    ({"aggressor": {"chance": 40}, "target": {"chance": 10**12}}, "target.chance"),
    ({"aggressor": {"chance": 40}, "target": {"chance": 40}, "dv_from": {"base_dv": 1, "springers": []}},
     "dv_from.springers"),
])
def test_surprise_refusals_name_the_field(client, body, field):
    response = client.post(SURPRISE, json=body)
    assert response.status_code == 422
    assert field in fields_of(response)


def test_contest_odds_only_by_default(client):
    data = client.post(CONTEST, json={"a": {"chance": 50}, "b": {"chance": 50}}).get_json()
    assert data["probabilities_exact"] == {"a": "149/400", "b": "149/400", "tie": "1/200", "both_fail": "1/4"}
    assert data["probabilities"]["both_fail"] == 0.25
    assert data["result"] is None and data["seed"] is None


def test_contest_with_supplied_rolls(client):
    body = {"a": {"chance": 30, "label": "Brask"}, "b": {"chance": 60}, "rolls": {"a": 10, "b": 45}}
    result = client.post(CONTEST, json=body).get_json()["result"]
    assert result["margins"] == {"a": 20, "b": 15} and result["succeeded"] == {"a": True, "b": True}
    assert result["winner"] == "a" and result["winner_label"] == "Brask"
    assert result["rolls"]["a"]["supplied"] is True


def test_contest_rolled_is_reproducible(client):
    body = {"a": {"chance": 55}, "b": {"chance": 45}, "roll": True, "seed": 12}
    first = client.post(CONTEST, json=body).get_json()
    assert first == client.post(CONTEST, json=body).get_json()
    assert first["seed"] == 12 and first["result"]["winner"] in {"a", "b", "tie", "both-fail"}


@pytest.mark.parametrize(("body", "field"), [
    ({"a": {"chance": 50}}, "b"),
    ({"a": {"chance": 50}, "b": {"chance": 50.5}}, "b.chance"),
    ({"a": {"chance": 50}, "b": {"chance": 50}, "rolls": {"a": 101}}, "rolls.a"),
    ({"a": {"chance": 50, "label": ""}, "b": {"chance": 50}}, "a.label"),
])
def test_contest_refusals_name_the_field(client, body, field):
    response = client.post(CONTEST, json=body)
    assert response.status_code == 422
    assert field in fields_of(response)
