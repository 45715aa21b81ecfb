"""The tactical duel rules: one reading of a matchup for both simulators, refusals, policy, verdict."""
from __future__ import annotations

import random

import pytest

from service.rules.errors import RulesError
from service.rules.tactical import RULESET
from service.rules.tactical.duel import declarations, read_matchup, read_options, verdict
from service.rules.tactical.segment import resolve_segment
from tests.unit.sim.differential import MATCHUPS, fighter, matchup

DUEL = matchup([fighter("a")], [fighter("b")])
SWORD = {"name": "sword", "av": 55, "parry": 35, "size": 6, "weight_class": 2}


@pytest.mark.parametrize("change, field", [
    ({"position": {"x": 5, "y": 0}}, "position"),
    ({"weapons": [{**SWORD, "ranged": "bow", "grip": "bow"}]}, "weapons.0.ranged"),
    ({"weapons": [{**SWORD, "grip": "brawling"}]}, "weapons.0.grip"),
    ({"weapons": [{**SWORD, "attack": "slash"}]}, "weapons.0.attack"),
    ({"surprise": {"state": "stunned", "cs_left": 2}}, "surprise"),
    ({"clothing_layers": 2}, "clothing_layers"),
])
def test_what_the_engine_leaves_out_is_refused_with_its_field(change, field):
    body = matchup([fighter("a")], [{**fighter("b"), **change}])
    with pytest.raises(RulesError) as caught:
        read_matchup(body)
    assert ".".join(map(str, caught.value.field)) == f"sides.1.combatants.0.{field}"


def test_options_are_checked_and_defaulted():
    assert read_options({"targeting": "random"})["max_segments"] == 100
    for bad, key in (({"targeting": "nearest"}, "targeting"), ({"max_segments": 0}, "max_segments"),
                     ({"heroic": "yes"}, "heroic"), ({"pulse_move": True}, "pulse_move")):
        with pytest.raises(RulesError) as caught:
            read_options(bad)
        assert caught.value.field == ("options", key)


def test_the_policy_is_plain_declarations_the_resolver_accepts():
    m = read_matchup(MATCHUPS["one-vs-three-random"])
    decl = declarations(m, m.state)
    assert {d["target_policy"] for d in decl} == {"random-standing"} and len(decl) == 4
    result = resolve_segment(m.state, decl, random.Random(3))
    assert any(e["type"] == "attack" for e in result.events)


def test_everyone_on_one_spot_is_accepted_and_knock_back_moves_nobody():
    same = matchup([{**fighter("a"), "position": {"x": 3, "y": 4}}], [{**fighter("b"), "position": {"x": 3, "y": 4}}])
    assert read_matchup(same).state.options.knockback_moves is False


def test_verdict_names_the_last_side_standing():
    m = read_matchup(DUEL)
    down = m.state.with_combatant(m.state.get("b").__class__(**{**vars(m.state.get("b")), "status": "dead"}))
    assert verdict(m, m.state).over is False
    assert (verdict(m, down).over, verdict(m, down).winner) == (True, "side-a")


def test_the_ruleset_offers_the_duel_to_the_resolver_loop():
    from service.sim import rounds

    tally = rounds.play(RULESET, RULESET.duel.read_matchup(DUEL), 20, random.Random(1))
    assert tally["trials"] == 20 and sum(tally["wins"].values()) + tally["draws"] == 20
    assert tally["details"]["attacks"] >= 20
