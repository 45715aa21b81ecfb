"""Properties of runequest-house odds: every outcome distribution is exact and sums to exactly 1."""
from __future__ import annotations

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from service.rules.runequest_house import contest, percentile, to_hit
from service.rules.runequest_house.damage import blow, passage_distribution
from service.rules.runequest_house.engine import read_ruleset_options

OPTIONS = read_ruleset_options(None, ("options",))
SITUATION = {"high_ground": False, "same_weapon_twice": False, "mounted": False, "shooter_adjacent": False,
             "point_blank": False, "closed_vs_long": False, "prone_attacker": False, "prone_target": False,
             "high_ground_location": False, "giant_exposed": False, "terrain_bonus": 0, "target_movement": "none"}
DEFENCE = {"modifier": 0, "item": "weapon", "high_ground": False, "defensive_abort": False, "double_dodge": False,
           "two_attackers_same_weapon": False, "braced": False, "opponent_number": 1, "same_sr_attacks": 0}
skills = st.integers(-300, 500)


@given(skills, st.sampled_from([1, 2]))
def test_degree_odds_are_hundredths_summing_to_one(skill, fumble_multiplier):
    odds = percentile.bands(skill, OPTIONS, fumble_multiplier).probabilities()
    assert sum(odds.values()) == 1 and all(v >= 0 and (v * 100).denominator == 1 for v in odds.values())


@given(skills, st.integers(1, 100))
def test_every_face_has_the_degree_its_band_counts(skill, face):
    bands = percentile.bands(skill, OPTIONS)
    odds = bands.probabilities()
    counted = {degree: sum(1 for f in range(1, 101) if bands.degree(f) == degree) for degree in odds}
    assert {k: Fraction(v, 100) for k, v in counted.items()} == odds


@settings(max_examples=60, deadline=None)  # exact 100 x 100 sums: slow on a loaded machine
@given(st.integers(0, 300), st.sampled_from(["none", "dodge", "parry"]), st.integers(0, 300),
       st.sampled_from(["melee", "thrown", "projected"]), st.booleans(),
       st.sampled_from(["weapon", "buckler", "medium_shield", "hoplite_shield"]))
def test_outcomes_sum_to_one_over_ten_thousand(attack, kind, skill, weapon_kind, point_blank, item):
    weapon = {"kind": weapon_kind, "hands": 1, "flexible": False, "hacking": False, "length_m": 1}
    situation = {**SITUATION, "point_blank": point_blank}
    check = to_hit.attack_check(attack, 0, weapon, situation, OPTIONS)
    guard = to_hit.defence_check({**DEFENCE, "type": kind, "skill": skill, "item": item}, weapon, situation, OPTIONS)
    odds = to_hit.outcome_probabilities(check.bands, guard)
    assert sum(odds.values()) == 1 and all((v * 10000).denominator == 1 for v in odds.values())
    assert to_hit.landed_chance(odds) <= check.bands.probabilities()["failure"] + percentile.chance(check.bands)


@given(skills, skills)
def test_a_contest_is_symmetric(a, b):
    ab = contest.contest(percentile.bands(a, OPTIONS), percentile.bands(b, OPTIONS))
    ba = contest.contest(percentile.bands(b, OPTIONS), percentile.bands(a, OPTIONS))
    assert sum(ab.values()) == 1 and ab["a"] == ba["b"] and ab["no_change"] == ba["no_change"]


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(["1d8+1", "1d6+2", "2d6", "1d10", "1d4"]), st.sampled_from(["crush", "slash", "impale"]),
       st.sampled_from(["0", "+1d4", "-1d4", "+2d6"]), st.sampled_from(["success", "special", "critical", "critical_max"]),
       st.sampled_from(["failure", "success", "special", "critical"]), st.integers(0, 20), st.integers(0, 15))
def test_damage_reaching_a_location_is_a_distribution(weapon, kind, bonus, degree, parry, parry_ap, armor_ap):
    spread = passage_distribution(blow(weapon, kind, bonus, degree, OPTIONS), degree, parry, parry_ap, armor_ap,
                                  OPTIONS)
    assert sum(spread.values()) == 1 and min(spread) >= 0
    if parry == "critical":
        assert spread == {0: 1}
