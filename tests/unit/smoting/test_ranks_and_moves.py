"""Ranks, crossover and movement rules (seed *Ranks.*, *CrossOver Damage*, *OoA and KIA*, *Move rolls*,
*The Battlefield*) at the rules level."""
from __future__ import annotations

from fractions import Fraction

import pytest

from service.rules.errors import RulesError
from service.rules.smoting import RULESET, combatant, damage, movement

OPTIONS = RULESET.read_options({})


@pytest.mark.parametrize("physical, mental, heroic, expected", [
    (4, 4, False, {"physical": 4, "mental": 4}),  # a mental crossover every 2nd loss never ends it sooner
    (4, 1, False, {"physical": 2, "mental": 1}),  # the 2nd physical loss costs the last mental rank
    (4, 4, True, {"physical": 7, "mental": 7}),   # heroes fall to -3
])
def test_defeats_to_out_of_action_count_crossover(physical, mental, heroic, expected):
    assert combatant.defeats_to_ooa(physical, mental, heroic, 2, "either") == expected


def test_physical_only_ignores_the_mental_domain():
    assert combatant.defeats_to_ooa(4, 1, False, 2, "physical")["physical"] == 4


def test_action_dice_bounds():
    assert combatant.action_dice(6, "none", OPTIONS) == {"rolled": 10, "kept": 8, "reroll_ones": False}
    assert combatant.action_dice(-5, "none", OPTIONS) == {"rolled": 1, "kept": 1, "reroll_ones": True}
    assert combatant.action_dice(0, "horde", OPTIONS)["rolled"] == 7


def test_bands_follow_the_threshold():
    assert [damage.band_of(d, 3, "physical", OPTIONS) for d in (0, 3, 4, 6, 7, 9, 10)] == [
        "no_damage", "defeat", "trauma", "trauma", "killing_blow", "killing_blow", "massive"]
    assert damage.band_of(10, 3, "physical", {**OPTIONS, "massive_kia": False}) == "killing_blow"
    assert [damage.band_of(d, 3, "mental", OPTIONS) for d in (1, 4, 7)] == ["defeat", "panicked", "crushed"]


def test_soak_pool_follows_georeg():
    assert damage.soak_pool({"str": 1, "agl": 2, "bod": 0}, OPTIONS["soak_attributes"]) == 3
    assert damage.soak_pool({"str": -3}, OPTIONS["soak_attributes"]) == 0


def test_movement_pool_and_speed():
    assert movement.pool(4, 1, True, False) == 6 and movement.pool(4, 0, False, True) == 2
    assert movement.pool(1, -5, False, False) == 1 and movement.pool(0, 3, False, False) == 0
    speeds = movement.speeds(1, OPTIONS)
    assert speeds == {"metres_per_round": 50, "metres_per_second": Fraction(5, 2), "km_per_hour": 9}
    assert movement.battle_move(4, OPTIONS) == (False, 1)
    assert movement.battle_move(2, OPTIONS) == (True, 1 - Fraction(2, 3) ** 2)


def test_table_options_are_checked():
    with pytest.raises(RulesError) as refused:
        RULESET.read_options({"injury_location_map": {"1": "tail"}})
    assert refused.value.field[:2] == ("options", "injury_location_map")
    with pytest.raises(RulesError) as refused:
        RULESET.read_options({"weapon_pack": {"axe": {"damage_dice": 5, "speed": 0, "size": "large"}}})
    assert refused.value.field == ("options", "weapon_pack", "axe", "speed")
    assert RULESET.read_options({"soak_attributes": ["str", "str", "bod"]})["soak_attributes"] == ["str", "bod"]
