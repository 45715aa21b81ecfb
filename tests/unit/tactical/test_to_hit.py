"""To-hit: the Task Resolution Table (RULINGS 4), Heroic/Bumble (RULINGS 6), reuse (RULINGS 7), resolve."""
from __future__ import annotations

from fractions import Fraction

import pytest

from service.rules.errors import Contradiction, RulesError
from service.rules.tactical import to_hit
from service.rules.tactical.attack_roll import Attack, Shot, resolve
from service.rules.tactical.ranged import Target
from service.rules.tactical.task_resolution import chance, linear_chance, ratio_chance

TABLE = {"av": [0, 10, 20], "dv": [0, 10], "chances": [[50, 20], [80, 50], [100, 0]]}


@pytest.mark.parametrize(("av", "dv", "expected"), [
    (50, 50, 50), (0, 50, 1), (-5, 0, 1), (0, 0, 1), (50, 0, 99), (50, -3, 99), (30, 70, 30),
    (1, 200, 1), (200, 1, 99), (10, 20, 33), (20, 10, 67), (1, 1, 50), (3, 5, 38),
])
def test_ratio_chance(av, dv, expected):
    assert ratio_chance(av, dv) == expected
    assert chance(av, dv) == expected


@pytest.mark.parametrize(("av", "dv", "expected"), [(50, 50, 50), (60, 40, 70), (10, 90, 1), (99, 0, 99),
                                                    (0, 49, 1), (0, 48, 2)])
def test_linear_chance(av, dv, expected):
    assert linear_chance(av, dv) == expected
    assert chance(av, dv, "linear") == expected


@pytest.mark.parametrize(("av", "dv", "expected"), [(-4, -4, 50), (0, 0, 50), (9, 9, 50), (10, 9, 80),
                                                    (15, 12, 50), (25, 3, 100), (500, 500, 0)])
def test_table_chance_uses_greatest_breakpoint_not_above(av, dv, expected):
    assert chance(av, dv, "table", TABLE) == expected


@pytest.mark.parametrize(("table", "path"), [
    ({"av": [0, 10], "dv": [0], "chances": [[1]]}, ("task_resolution", "table", "chances")),
    ({"av": [0, 10], "dv": [0], "chances": [[1], [101]]}, ("task_resolution", "table", "chances", 1)),
    ({"av": [0, 10, 20], "dv": [0, 5], "chances": [[1, 2], [3, 4], [5]]},
     ("task_resolution", "table", "chances", 2)),
    ({"av": [10, 0], "dv": [0], "chances": [[1], [2]]}, ("task_resolution", "table", "av")),
    ({"av": [0], "dv": [], "chances": [[]]}, ("task_resolution", "table", "dv")),
    ({"av": [0], "dv": [1.5], "chances": [[1]]}, ("task_resolution", "table", "dv")),
    ({"av": [True], "dv": [0], "chances": [[1]]}, ("task_resolution", "table", "av")),
])
def test_bad_tables_name_the_field(table, path):
    with pytest.raises(RulesError) as caught:
        chance(1, 1, "table", table)
    assert caught.value.field == path


def test_table_method_needs_a_table():
    with pytest.raises(RulesError) as caught:
        chance(1, 1, "table")
    assert caught.value.field == ("task_resolution", "table")


@pytest.mark.parametrize(("pct", "heroic", "bumble"), [
    (32, 3, 93), (55, 6, 95),               # the seed's two worked examples
    (4, 0, 90), (5, 1, 90), (1, 0, 90), (0, 0, 90), (99, 10, 100), (100, 10, 101), (50, 5, 95),
    (95, 10, 99), (96, 10, 100),
])
def test_heroic_and_bumble_edges(pct, heroic, bumble):
    assert to_hit.heroic_max_roll(pct) == heroic
    assert to_hit.bumble_min_roll(pct) == bumble


def test_heroic_and_bumble_can_be_switched_off():
    assert to_hit.heroic_max_roll(55, enabled=False) == 0
    assert to_hit.bumble_min_roll(55, enabled=False) == 101
    assert to_hit.outcome(1, 55, heroic=False) == "success"
    assert to_hit.outcome(100, 55, bumble=False) == "failure"


def test_outcome_partition_for_chance_32():
    odds = to_hit.outcomes(32)
    assert odds.as_dict() == {"heroic": Fraction(3, 100), "success": Fraction(29, 100),
                              "failure": Fraction(60, 100), "bumble": Fraction(8, 100)}


@pytest.mark.parametrize(("face", "expected"), [(1, "heroic"), (3, "heroic"), (4, "success"), (32, "success"),
                                                (33, "failure"), (92, "failure"), (93, "bumble"),
                                                (100, "bumble")])
def test_outcome_of_a_face(face, expected):
    assert to_hit.outcome(face, 32) == expected


@pytest.mark.parametrize(("value", "use", "free", "expected"), [
    (40, 1, 1, 40), (40, 2, 1, 20), (40, 3, 1, 10), (45, 2, 1, 23), (45, 3, 1, 11), (3, 3, 1, 1),
    (1, 3, 1, 0), (40, 2, 2, 40), (40, 3, 2, 20), (0, 5, 1, 0),
])
def test_reuse_value(value, use, free, expected):
    assert to_hit.reuse_value(value, use, free) == expected


def test_reprisal_halves_the_current_dv():
    adj = to_hit.Adjustments(defence_use=2, reprisal_same_weapon=True)
    value, _ = to_hit.defence_value(45, adj)
    assert value == 12          # 45 -> 23 (second use) -> 11.5 -> 12


def test_order_of_adjustments():
    adj = to_hit.Adjustments(attack_use=2, attacker_stun_penalty=3, defence_use=2, reprisal_same_weapon=True,
                             surprise_penalty=4, defender_stun_penalty=1)
    result = resolve(Attack(av=41, dv=40, adjustments=adj))
    assert result.av == 18      # 41/2 = 20.5 -> 21, minus 3
    assert result.dv == 5       # 40 -> 20 -> 10, minus 4, minus 1
    assert result.chance == 78  # 1800/23 = 78.26


def test_floors_at_zero():
    adj = to_hit.Adjustments(attacker_stun_penalty=50, surprise_penalty=50)
    result = resolve(Attack(av=10, dv=10, adjustments=adj))
    assert (result.av, result.dv, result.chance) == (0, 0, 1)


def test_resolve_melee_without_dice():
    result = resolve(Attack(av=55, dv=45))
    assert (result.chance, result.heroic_max_roll, result.bumble_min_roll) == (55, 6, 95)
    assert result.roll is None and result.outcome is None and result.seed is None
    assert [s.rule for s in result.steps][-1] == "RULINGS 6"


def test_resolve_with_a_supplied_roll():
    result = resolve(Attack(av=55, dv=45), face=95)
    assert (result.roll.total, result.roll.supplied, result.outcome) == (95, True, "bumble")


def test_resolve_with_a_seed_is_reproducible():
    first, second = resolve(Attack(av=55, dv=45), seed=7), resolve(Attack(av=55, dv=45), seed=7)
    assert first.roll == second.roll and first.seed == 7
    assert first.outcome == to_hit.outcome(first.roll.total, 55)


def test_resolve_refuses_a_bad_face():
    with pytest.raises(RulesError):
        resolve(Attack(av=1, dv=1), face=101)


@pytest.mark.parametrize(("attack", "path"), [
    (Attack(av=10), ("dv",)),
    (Attack(av=10, dv=5, shot=Shot("bow", Fraction(10))), ("ranged",)),
])
def test_exactly_one_defence(attack, path):
    with pytest.raises(Contradiction) as caught:
        resolve(attack)
    assert caught.value.field == path


def test_resolve_ranged_85_yards_unaware():
    result = resolve(Attack(av=21, shot=Shot("bow", Fraction(85), target=Target(aware=False))))
    assert (result.dv, result.chance, result.range.dv_modifier) == (21, 50, 21)


def test_resolve_ranged_aware_reuses_only_the_dodge():
    shot = Shot("bow", Fraction(85), target=Target(dodge_dv=20, moving_mph=Fraction(5, 2)))
    result = resolve(Attack(av=30, shot=shot, adjustments=to_hit.Adjustments(defence_use=2)))
    assert result.dv == 34      # dodge 20 -> 10, + range 21 + 2.5 mph = 33.5 -> 34


def test_ranged_distance_error_points_into_ranged():
    with pytest.raises(RulesError) as caught:
        resolve(Attack(av=30, shot=Shot("light-crossbow", Fraction(201))))
    assert caught.value.field == ("ranged", "distance")


def test_a_table_with_another_method_is_refused():
    with pytest.raises(Contradiction) as caught:
        chance(1, 1, "ratio", TABLE)
    assert caught.value.field == ("task_resolution", "table")
