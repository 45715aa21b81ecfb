"""A `body-check` declaration through POST /v1/tactical/segments/resolve gives what the /body-check
calculator gives for the same two bodies (F39, F40), and a bad `body_check` is a 422 naming its field."""
from __future__ import annotations

from tests.unit.tactical.test_segment_body_check import ann, bob

CALCULATOR = {"attacker": {"agl_mod": 2, "modified_sta": 16, "str_mod": 2, "strength": 15, "speed_mph": 8,
                           "armor_layers": 2},
              "defender": {"agl_mod": 1, "modified_sta": 13, "str_mod": 0, "strength": 12}}


def resolve(client, body_check, ann_d100, bob_d100):
    declarations = [{"combatant": "ann", "action": "body-check", "target": "bob", "body_check": body_check,
                     "dice": {"initiative": 9, "d100": ann_d100}},
                    {"combatant": "bob", "action": "defend", "target": "ann",
                     "dice": {"initiative": 1, "d100": bob_d100}}]
    state = {"combatants": [ann(), bob()], "options": {"reprisals": False}}
    return client.post("/v1/tactical/segments/resolve", json={"state": state, "declarations": declarations,
                                                              "seed": 3})


def test_the_declaration_matches_the_calculator(client):
    calculated = client.post("/v1/tactical/body-check", json=CALCULATOR).get_json()
    response = resolve(client, {"kind": "body-check", "str_mod": 2}, [1], [100, 100])
    assert response.status_code == 200, response.get_json()
    events = response.get_json()["events"]
    checked = next(e for e in events if e["type"] == "body_check")
    assert (checked["av"], checked["dv"], checked["attacker_chance"], checked["defender_chance"]) == (
        calculated["attacker_av"], calculated["defender_dv"], calculated["attacker_chance"],
        calculated["defender_chance"])
    assert checked["bounce_feet"] == calculated["defender_bounce_feet"] == 11
    footing = [e for e in events if e["type"] == "check"]
    assert [e["combatant"] for e in footing] == ["bob"] and calculated["footing_checks"] == ["defender"]
    assert footing[0]["dv"] == calculated["footing_dv"] == 29
    assert any(e["type"] == "status" and e["combatant"] == "bob" and e["status"] == "fell" for e in events)


def test_a_bad_kind_is_422_naming_the_field(client):
    response = resolve(client, {"kind": "shove"}, [1], [100])
    assert response.status_code == 422
    assert "declarations.0.body_check.kind" in [e["field"] for e in response.get_json()["errors"]]
