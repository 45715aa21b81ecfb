"""RULINGS 25: a crossbow kept cocked loses 1 from the damage of its shot (its fixed POT) per full day, never
below 0; `days_cocked` (default 0) is an input wherever a crossbow's damage is computed: the rules, /damage,
/task's cock-crossbow answer and a `fire` declaration in the Combat Segment resolver."""
from __future__ import annotations

import random

import pytest

from service.rules.errors import RulesError
from service.rules.tactical import potence
from service.rules.tactical.combat_state import EncounterState
from service.rules.tactical.segment import check_declarations, resolve_segment
from tests.unit.tactical.test_segment_maneuvers import person

XBOW = {"name": "xbow", "av": 60, "parry": 0, "size": 4, "ranged": "light-crossbow", "fixed_pot": 20}
MARK = {"modified_sta": 12, "condition": 12, "pain_resistance": 30}


@pytest.mark.parametrize(("days", "pot"), [(0, 20), (1, 19), (3, 17), (20, 0), (40, 0)])
def test_a_full_day_costs_one_pot_never_below_zero(days, pot):
    weapon = potence.Weapon("crossbow", fixed_pot=20, days_cocked=days)
    assert potence.blow_potence(potence.Attacker(13, 12), weapon).pot == pot


def damage(client, weapon):
    return client.post("/v1/tactical/damage", json={"attacker": {"strength": 13, "modified_sta": 12},
                                                    "weapon": weapon, "target": MARK})


def test_the_damage_calculator_takes_days_cocked(client):
    fresh = damage(client, {"grip": "crossbow", "fixed_pot": 20}).get_json()
    kept = damage(client, {"grip": "crossbow", "fixed_pot": 20, "days_cocked": 3}).get_json()
    assert (fresh["pot"], kept["pot"]) == (20, 17)
    assert any("RULINGS 25" in step["rule"] for step in kept["trace"])
    for weapon, status in (({"grip": "bow", "size": 4, "days_cocked": 1}, 422),
                           ({"grip": "crossbow", "fixed_pot": 20, "days_cocked": 366}, 422)):
        refused = damage(client, weapon)
        assert refused.status_code == status and refused.get_json()["errors"][0]["field"] == "weapon.days_cocked"


def test_the_task_answers_the_pot_lost_when_cocking(client):
    cocked = client.post("/v1/tactical/task", json={"kind": "cock-crossbow", "tool": "goatsfoot",
                                                    "days_cocked": 2}).get_json()
    assert (cocked["actions"], cocked["dv"], cocked["pot_penalty"]) == (2, 13, -2)
    plain = client.post("/v1/tactical/task", json={"kind": "cock-crossbow", "tool": "windlass"}).get_json()
    assert plain["pot_penalty"] == 0
    other = client.post("/v1/tactical/task", json={"kind": "rummage", "items": 3}).get_json()
    assert other["pot_penalty"] is None


def shot(days_cocked=None, weapons=(XBOW,)):
    shooter = person("xb", "red", facing=90, weapons=list(weapons))
    mark = person("mark", "blue", x=60, facing=270)
    fire = {"combatant": "xb", "action": "fire", "target": "mark", "dice": {"initiative": 9, "d100": [20]}}
    if days_cocked is not None:
        fire["days_cocked"] = days_cocked
    s = EncounterState.from_dict({"combatants": [shooter, mark], "options": {"reprisals": False}})
    return s, [fire, {"combatant": "mark", "action": "defend", "target": "xb", "dice": {"initiative": 1}}]


def landed_pot(days_cocked=None) -> int:
    result = resolve_segment(*shot(days_cocked), random.Random(5))
    attack = next(e for e in result.events if e["type"] == "attack")
    assert attack["outcome"] == "success", attack  # not Heroic: the POT is not doubled
    return next(e for e in result.events if e["type"] == "blow")["pot"]


def test_the_resolver_takes_days_cocked_from_the_fire_declaration(client):
    assert (landed_pot(), landed_pot(0), landed_pot(3), landed_pot(25)) == (20, 20, 17, 0)
    calculated = damage(client, {"grip": "crossbow", "fixed_pot": 20, "days_cocked": 3}).get_json()
    assert calculated["pot"] == landed_pot(3)


@pytest.mark.parametrize(("declared", "weapons"), [
    ({"days_cocked": -1}, (XBOW,)), ({"days_cocked": 366}, (XBOW,)), ({"days_cocked": True}, (XBOW,)),
    ({"days_cocked": 1}, ({"name": "bow", "av": 50, "parry": 0, "size": 4, "ranged": "bow"},)),
    ({"days_cocked": 1, "action": "attack"}, (XBOW,))])
def test_days_cocked_goes_with_a_crossbow_shot_only(declared, weapons):
    s, declarations = shot(weapons=weapons)
    declarations[0].update(declared)
    with pytest.raises(RulesError) as refused:
        check_declarations(s, declarations)
    assert refused.value.field == ("declarations", 0, "days_cocked")


def test_segments_resolve_takes_it_over_http(client):
    _, declarations = shot(3)
    state = {"combatants": [person("xb", "red", facing=90, weapons=[XBOW]), person("mark", "blue", x=60, facing=270)],
             "options": {"reprisals": False}}
    answer = client.post("/v1/tactical/segments/resolve", json={"state": state, "declarations": declarations,
                                                                "seed": 5})
    assert answer.status_code == 200, answer.get_json()
    assert next(e for e in answer.get_json()["events"] if e["type"] == "blow")["pot"] == 17
    declarations[0]["days_cocked"] = 400
    refused = client.post("/v1/tactical/segments/resolve", json={"state": state, "declarations": declarations})
    assert refused.status_code == 422
    assert refused.get_json()["errors"][0]["field"] == "declarations.0.days_cocked"
