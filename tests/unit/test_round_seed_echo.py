"""The shared round resolver echoes the seed that reproduces its answer: the caller's, a fresh one when some
die still had to be rolled, and null when every die came from `rolls` (README of the rules documents,
"Dice, seeds and caller-supplied rolls")."""
from __future__ import annotations

from service.api.kit.steps import resolve_round
from tests.unit.test_ruleset_interface import A, B, coin_duel  # noqa: F401 (fixture)

STATE = {"combatants": [A, B], "options": {}}
DECLARED = [{"combatant": "ann", "target": "bob"}]


def test_every_die_supplied_and_no_seed_echoes_null(coin_duel):
    answer = resolve_round("coin-duel", {"state": STATE, "declarations": DECLARED,
                                         "rolls": [{"combatant": "ann", "role": "attack", "faces": [6]}]})
    assert answer["seed"] is None and answer["state"]["combatants"][1]["hp"] == 1


def test_a_die_left_to_roll_draws_a_seed_that_replays(coin_duel):
    answer = resolve_round("coin-duel", {"state": STATE, "declarations": DECLARED})
    assert isinstance(answer["seed"], int)
    assert resolve_round("coin-duel", {"state": STATE, "declarations": DECLARED, "seed": answer["seed"]}) == answer


def test_a_sent_seed_is_echoed_even_when_unused(coin_duel):
    answer = resolve_round("coin-duel", {"state": STATE, "declarations": [], "seed": 5})
    assert answer["seed"] == 5
