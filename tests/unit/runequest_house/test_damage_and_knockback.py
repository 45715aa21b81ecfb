"""Damage, parry absorption, armor and knockback (rules document §5, §6; seed *Standard Parry*, *Page 49*)."""
from __future__ import annotations

import pytest

from service.rules.errors import RulesError
from service.rules.runequest_house import grapple, movement, stats
from service.rules.runequest_house.damage import blow, passage, wound
from service.rules.runequest_house.engine import read_ruleset_options
from service.rules.runequest_house.intent import state_intent
from service.rules.runequest_house.knockback import Target, knockback

OPTIONS = read_ruleset_options(None, ("options",))


def test_special_damage_by_weapon_type():
    assert blow("1d8+1", "slash", "+1d4", "special", OPTIONS).text() == "2d8+2+1d4"
    assert blow("1d8+2", "crush", "+1d4", "special", OPTIONS).text() == "1d8+2+4"
    assert blow("1d8+1", "slash", "+1d4", "critical_max", OPTIONS).text() == "22"
    assert blow("1d8+1", "slash", "+1d4", "success", OPTIONS).text() == "1d8+1+1d4"
    none = read_ruleset_options({"special_damage": "none"}, ("options",))
    assert blow("1d8+1", "slash", "0", "special", none).text() == "1d8+1"


def test_parry_absorption_and_item_wear():
    assert passage(15, "success", "success", 12, 0, OPTIONS).through_parry == 3
    assert passage(15, "success", "success", 12, 0, OPTIONS).parry_ap_loss == 1
    assert passage(12, "success", "success", 12, 0, OPTIONS).parry_ap_loss == 0
    assert passage(15, "special", "special", 12, 0, OPTIONS).parry_ap_loss == 0
    assert passage(15, "critical", "special", 12, 0, OPTIONS).parry_ap_loss == 1  # [INF]
    assert passage(30, "critical", "critical", 12, 0, OPTIONS).through_parry == 0
    ignoring = read_ruleset_options({"critical_ignores_parry_ap": True}, ("options",))
    assert passage(15, "critical", "success", 12, 0, ignoring).through_parry == 15


def test_criticals_ignore_armor():
    assert passage(10, "success", "failure", 0, 6, OPTIONS).to_location == 4
    assert passage(10, "critical", "failure", 0, 6, OPTIONS).to_location == 10


def test_wound_consequences():
    assert wound("right_arm", 4, 4, 4, 13).location_state == "useless"
    severed = wound("right_arm", 9, 4, 4, 13)
    assert severed.location_state == "severed" and severed.hp_after == 5  # only twice the limb's HP counts
    assert wound("head", 5, 5, 5, 13).location_state == "unconscious"
    assert wound("chest", 12, 6, 6, 13).location_state == "dying"
    assert wound("abdomen", 13, 5, 5, 13).dead


@pytest.mark.parametrize("damage, kind, penetrated, metres, multiplier", [
    (12, "slash", True, 0, None), (13, "slash", True, 1, 5), (22, "slash", True, 1, 5), (23, "slash", True, 2, 4),
    (7, "crush", True, 1, 5), (7, "slash", False, 1, 5), (33, "slash", True, 3, 3), (63, "slash", True, 6, 0),
])
def test_knockback_distance_and_dex_multiple(damage, kind, penetrated, metres, multiplier):
    found = knockback(damage, kind, Target(13, dex=12), OPTIONS, penetrated)
    assert (found.metres, found.dex_multiplier) == (metres, multiplier)
    assert found.automatic_fall == (multiplier is not None and multiplier <= 0)


def test_knockback_impale_braced_mounted_and_collisions():
    assert knockback(40, "impale", Target(13), OPTIONS, impaled=True).metres == 0
    braced = Target(13, str=14, braced=True)
    assert knockback(27, "slash", braced, OPTIONS).metres == 0 and knockback(28, "slash", braced, OPTIONS).metres == 1
    with pytest.raises(RulesError):
        knockback(30, "slash", Target(13, braced=True), OPTIONS)
    mounted = Target(13, mounted={"ride_success": True, "mount_siz": 30})
    assert knockback(40, "slash", mounted, OPTIONS).metres == 0
    assert knockback(64, "slash", mounted, OPTIONS).unhorsed is True
    found = knockback(45, "slash", Target(13, dex=10), OPTIONS, obstacle="solid")
    assert found.metres == 4 and found.collision == {"dice": "2d6", "doubled": True}
    assert knockback(13, "slash", Target(13, dex=10), OPTIONS).dex_chance == 0.5


def test_intent_srs_of_the_seed_examples():
    weapons = [{"name": "broadsword", "sr": 2}, {"name": "dagger", "sr": 3}]
    twice = state_intent(15, 13, weapons, [{"type": "attack", "weapon": 0}, {"type": "attack", "weapon": 0}], OPTIONS)
    assert [(a["sr"], a["modifier"]) for a in twice.actions] == [(6, -10), (9, -10)]
    late = state_intent(5, 5, weapons, [{"type": "attack", "weapon": 1}, {"type": "attack", "weapon": 1}], OPTIONS)
    assert [a["sr"] for a in late.actions] == [11, 10]  # first on SR 8 or later: the second on SR 10
    two = state_intent(15, 13, weapons, [{"type": "attack", "weapon": 0}, {"type": "attack", "weapon": 1}], OPTIONS)
    assert [(a["sr"], a["modifier"]) for a in two.actions] == [(6, 0), (7, 0)]
    casts = state_intent(15, 13, [], [{"type": "cast", "spell_sr": 6}, {"type": "cast", "spell_sr": 5}], OPTIONS)
    assert not casts.valid and casts.actions[1]["sr"] == 11
    mp = state_intent(15, 13, [], [{"type": "cast", "magic_points": 2}, {"type": "dodge"}], OPTIONS)
    assert mp.valid and mp.actions[0]["sr"] == 4


def test_movement_of_the_seed_examples():
    mobility = movement.movement(3, 1, 4, False, False, OPTIONS)
    assert mobility.per_phase == 10 and mobility.per_round == 20 and mobility.per_second == 4
    engaged = movement.movement(3, 0, 0, True, False, OPTIONS)
    assert engaged.limited_per_phase == 1 and engaged.backwards_per_phase == movement.Fraction(1, 2)
    assert movement.movement(3, 2, 0, False, True, OPTIONS).limited_per_phase == 3


def test_grapple_follow_ups():
    throw = grapple.follow_up("throw", 60, {"str": 15, "dex": 12, "siz": 14}, {"str": 12, "dex": 11, "siz": 13},
                              OPTIONS)
    assert throw.follow_up_skill == 70 and throw.resistance["passive"] == 7 + 11 and throw.damage == "1d6+1d4"
    escape = grapple.follow_up("escape", 60, {"str": 15, "dex": 12, "siz": 14}, {"str": 13, "dex": 11, "siz": 13},
                               OPTIONS)
    assert escape.resistance["active"] == 7 and escape.resistance["passive"] == 15
    assert stats.damage_bonus(15, 14, OPTIONS) == "+1d4"
