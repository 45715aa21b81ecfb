"""The rest of seed 000's chapter: combinations, body checks, intimidation, stray fire, missile flight,
tasks, spacing, dodges and the aftermath of wounds, each against the text's own numbers."""
from __future__ import annotations

from fractions import Fraction

import pytest

from service.rules.errors import Contradiction, OutOfRange, RulesError
from service.rules.tactical import (aftermath, body_check, combination, dodge, intimidation, missile_flight,
                                    spacing, stray_fire, tasks)


def test_combination_in_concert_adds_the_sl_and_the_pots():
    found = combination.combine("in-concert", [45, 30], 12, [18, 9])
    assert found.values == (57,) and found.cap == 75 and not found.capped and found.pot == 27


def test_combination_is_capped_at_both_values_added():
    found = combination.combine("separate", [20, 10], 25, None)
    assert found.values == (30, 30) and found.capped  # 20 + 25 and 10 + 25, both capped at 30


def test_combination_pots_only_in_concert():
    with pytest.raises(Contradiction):
        combination.combine("separate", [20, 10], 5, [4, 4])


def test_attack_defence_combination_order_follows_initiative():
    assert combination.attack_defence_order(7, 12)[0].startswith("foe's attack half")
    assert combination.attack_defence_order(12, 7)[-1] == "Reprisals"


def test_body_check_av_adds_shield_progressive_layers_and_speed():
    body = body_check.Body(agl_mod=2, modified_sta=16, str_mod=2, strength=15, speed_mph=8, shield_size=3,
                           armor_layers=2)
    assert body_check.body_av(body, "body-check")[0] == 2 + 16 + 2 + 3 + 3 + 8  # progressive(2) = 3
    assert body_check.body_av(body, "tackle")[0] == 20


def test_body_check_bounce_is_speed_plus_sta_excess():
    big = body_check.Body(0, 18, 0, 15, speed_mph=6)
    small = body_check.Body(0, 12, 0, 10, speed_mph=4)
    assert body_check.bounce_feet(big, small, both_moving=False) == 6 + 6
    assert body_check.bounce_feet(big, small, both_moving=True) == 10 + 6


def test_footing_within_a_point_both_check_else_the_lesser():
    a = body_check.Body(0, 14, 0, 12, speed_mph=5)
    b = body_check.Body(0, 13, 0, 12)
    dv, who, _ = body_check.footing(a, b)
    assert (dv, who) == (5 + 1, ("attacker", "defender"))
    c = body_check.Body(0, 10, 0, 10)
    assert body_check.footing(a, c)[:2] == (5 + 21, ("defender",))  # gap 6 -> progressive 21


def test_tackle_speed_difference_goes_to_the_faster():
    assert body_check.tackle_speeds(body_check.Body(0, 1, 0, 1, speed_mph=12),
                                    body_check.Body(0, 1, 0, 1, speed_mph=5)) == (7, 0)


def test_intimidation_outcomes_and_guard_drop():
    sides = intimidation.sides(30, 6, False, 20, 4, 2, 1)
    assert (sides.av, sides.dv, sides.target_ahead) == (36, 25, False)
    assert intimidation.outcome(True, False) == "surrenders"
    assert intimidation.outcome(False, False) == "guard-drops"
    assert intimidation.outcome(True, True) == "backs-off"
    assert intimidation.guard_drop(14, 2) == 12 and intimidation.guard_drop(1, 3) == 0


def test_intimidation_through_a_reprisal_makes_the_pot_progressive():
    assert intimidation.sides(30, 4, True, 0, 0, 0, 0).av == 30 + 10


def test_intimidation_needs_pot_through():
    with pytest.raises(OutOfRange):
        intimidation.sides(30, 0, False, 20, 0, 0, 0)


def test_intimidation_equal_values_follow_the_option():
    assert intimidation.sides(30, 5, False, 35, 0, 0, 0).target_ahead
    assert not intimidation.sides(30, 5, False, 35, 0, 0, 0, equal="attacker").target_ahead


def test_stray_fire_size_modifier_is_progressive_both_ways():
    assert stray_fire.size_modifier(14, 11) == 6 and stray_fire.size_modifier(14, 17) == -6
    assert stray_fire.size_modifier(14, 14) == 0


def test_stray_fire_stops_at_the_first_figure_hit():
    shares, through = stray_fire.hit_shares([50, 40])
    assert shares == [Fraction(1, 2), Fraction(1, 5)] and through == Fraction(3, 10)
    assert sum(shares) + through == 1


def test_stray_fire_only_within_the_band():
    near = stray_fire.Bystander("a", 10, 5, Fraction(50))
    far = stray_fire.Bystander("b", 10, 5, Fraction(70))
    assert stray_fire.in_band([far, near], Fraction(60)) == [near]


def test_missiles_land_next_cs_beyond_their_no_delay_distance():
    arrow = missile_flight.flight(Fraction(2400), "missile", pulse_move=False)
    assert arrow.seconds == 12 and arrow.delayed and "before declarations" in arrow.lands
    assert "before the first pulse" in missile_flight.flight(Fraction(2400), "missile", True).lands
    assert not missile_flight.flight(Fraction(500), "hurled", False).delayed
    assert missile_flight.flight(Fraction(501), "hurled", False).delayed


def test_table_4_1_rows_and_doffing():
    assert tasks.table_action("Aketon/Coat").actions == 3
    assert tasks.table_action("aketon/coat", doff=True).actions == Fraction(3, 2)
    assert tasks.table_action("Hat or Cap", doff=True).actions == Fraction(1, 4)  # never below 1/4
    with pytest.raises(Contradiction):
        tasks.table_action("Mount own steed", doff=True)
    with pytest.raises(RulesError):
        tasks.table_action("Juggle")


def test_rummaging_takes_items_plus_one_and_a_progressive_crd_check():
    found = tasks.rummage(5, mph=3)
    assert (found.actions, found.dv, found.check) == (6, 15 + 3, "CRD")


def test_untying_a_knot_f42():
    assert tasks.untie(16, 25, 1, 14).actions == 2  # max(1.6, 2.5) - 1 - 0 = 1.5 -> 2
    assert tasks.untie(10, 0, 3, 20).actions == Fraction(1, 4)


def test_stringing_a_bow_above_ones_str_is_a_str_check_vs_the_bow():
    assert tasks.string_bow(12, 14).actions == Fraction(1, 2) and tasks.string_bow(12, 14).dv is None
    hard = tasks.string_bow(16, 14)
    assert (hard.actions, hard.dv, hard.per_attempt) == (1, 3, True)  # progressive(16 - 14)
    assert tasks.string_bow(16, 13).dv == 6 and tasks.string_bow(16, 13, "linear").dv == 3


def test_cocking_crossbows():
    assert (tasks.cock_crossbow("light", "goatsfoot").actions, tasks.cock_crossbow("light", "goatsfoot").dv) == (2, 13)
    assert tasks.cock_crossbow("light", "goatsfoot", built_in=True).actions == 1
    assert tasks.cock_crossbow("heavy", "windlass").actions == 3 and tasks.cock_crossbow("heavy", "windlass").dv is None
    assert tasks.cock_crossbow("heavy", "crannequin", built_in=True).actions == 2
    assert tasks.cock_crossbow("light", "none").dv == 20 and tasks.cock_crossbow("heavy", "none").dv == 30
    with pytest.raises(Contradiction):
        tasks.cock_crossbow("heavy", "belt-hook")


def test_double_time_halves_the_dv():
    found = tasks.double_time(tasks.rummage(4))
    assert (found.actions, found.dv) == (10, 5)  # 10 / 2


def test_melee_spacing_f44():
    found = spacing.spacing(7, Fraction(6), 4)
    assert (found.mode, found.feet, found.mm, found.body_blocked) == ("common", 4, 20, True)
    close = spacing.spacing(2, Fraction(6), 2)
    assert (close.mode, close.mm, close.body_blocked) == ("close", 0, False)
    assert spacing.spacing(7, Fraction(6), 6, "10mm").mm == 8


def test_close_melee_ignores_the_two_size_reach_rule():
    """Modes of Combat: under height/2 his weapon does not keep a bare-handed attacker off his body."""
    assert spacing.spacing(2, Fraction(6), 0).body_blocked is False
    assert spacing.spacing(6, Fraction(6), 4).body_blocked is True


def test_dodges_halve_from_the_original_until_zero():
    found = dodge.dodges(20, 7)
    assert found.values == (20, 10, 5, 3, 1, 1, 0) and found.state == "exhausted" and found.dv is None
    assert dodge.dodges(20, 3, sl=25, trained=True).values == (20, 20, 10)


def test_moving_while_mortally_wounded_f45():
    found = aftermath.mortal_move(Fraction(9), 2, 1, 8)
    assert (found.added, found.total, found.status) == (3, 11, "dead")
    assert aftermath.mortal_move(Fraction(4), 2, 1, 9).status == "collapsed"  # 4/3 -> 1
    with pytest.raises(Contradiction):
        aftermath.mortal_move(Fraction(4), 2, 1, 6)


def test_final_wound_check_is_55_and_cnd_minutes():
    assert aftermath.final_wound_dv() == 55 and aftermath.minutes_to_live(14) == 14


def test_str_after_battle_a28():
    assert aftermath.after_battle(15, 5).strength == 4  # grievous: 15 x 1/4 = 3.75 -> 4
    assert aftermath.after_battle(15, 1).strength == 11  # light: 11.25
    assert aftermath.after_battle(15, 8).strength == 0 and aftermath.after_battle(15, 8).end_recovery_factor == 16


def test_healing_weeks_then_days():
    assert aftermath.heal_wounds(3, 0).schedule == (21, 14, 7)
    assert aftermath.heal_wounds(3, 8).schedule == (7, 6, 5)  # 3 - 2 = 1 week, then a day less per wound
    assert aftermath.heal_wounds(2, 40).schedule == (1, 1)
    mortal = aftermath.heal_wounds(8, 0)
    assert mortal.needs_skilled_healer and not mortal.heals
    assert not aftermath.heal_wounds(1, 0).bed_rest


def test_healing_body_points():
    assert aftermath.heal_body_points(5, 1, 0).schedule == (4, 3, 2, 1, 1)
