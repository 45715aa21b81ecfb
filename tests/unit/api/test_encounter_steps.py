"""Where an encounter stands, in every ruleset's own step (issue 21, item 8): `segment` in the encounter, the
undo answer and the `undo` event counts Combat Segments for tactical and rounds for the round-based rulesets,
as the resolve answers do."""
from __future__ import annotations

import pytest

from service.api.ars_magica.steps import EXAMPLE_REQUEST as ARS_MAGICA
from service.api.encounters.schemas import EXAMPLE_COMBATANT
from service.api.runequest_house.steps import EXAMPLE as RUNEQUEST_HOUSE
from service.api.smoting.steps import EXAMPLE as SMOTING
from service.api.war_and_combat.steps import EXAMPLE as WAR_AND_COMBAT

FOE = {**EXAMPLE_COMBATANT, "id": "foe", "position": {"x": 30, "y": 0}}
ENCOUNTERS = {
    "tactical": {"combatants": [EXAMPLE_COMBATANT, FOE]},
    "war-and-combat": {"combatants": WAR_AND_COMBAT["state"]["combatants"]},
    "runequest-house": {"combatants": RUNEQUEST_HOUSE["state"]["combatants"]},
    "ars-magica": {"combatants": ARS_MAGICA["state"]["combatants"]},
    "smoting": {"combatants": SMOTING["state"]["combatants"], "state": {"zones": SMOTING["state"]["zones"]}},
}


@pytest.mark.parametrize("ruleset", sorted(ENCOUNTERS))
def test_three_steps_stand_at_three_and_an_undo_at_two_naming_the_third(client, ruleset):
    created = client.post("/v1/encounters", json={"ruleset": ruleset, **ENCOUNTERS[ruleset]})
    assert created.status_code == 201, created.get_json()
    assert created.get_json()["segment"] == 0
    url, auth = created.get_json()["links"]["self"], {"Authorization": f"Bearer {created.get_json()['token']}"}
    for seed in (1, 2, 3):
        step = client.post(f"{url}/segments", json={"seed": seed, "declarations": []}, headers=auth)
        assert step.status_code == 201, step.get_json()
        assert step.get_json()["segment"] == seed
    assert client.get(url, headers=auth).get_json()["segment"] == 3
    undone = client.post(f"{url}/undo", headers=auth)
    assert undone.status_code == 200, undone.get_json()
    assert undone.get_json()["segment"] == 2
    assert client.get(url, headers=auth).get_json()["segment"] == 2
    log = client.get(f"{url}/events?limit=500", headers=auth).get_json()["events"]
    assert log[-1]["type"] == "undo" and log[-1]["segment"] == 3
