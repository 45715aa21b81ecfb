"""Formulas of the `ars-magica` rules core against the seed's own examples (document §13)."""
from __future__ import annotations

from fractions import Fraction

from service.rules import registry
from service.rules.ars_magica import checks, damage, movement, to_hit, totals
from service.rules.ars_magica.totals import Fighter, Weapon

OPTIONS = registry.get("ars-magica").read_options({})
SHORTSWORD = totals.weapon_of("shortsword", OPTIONS["weapon_pack"], ("weapon",))


def test_two_shortswords_add_one_to_attack_and_two_to_defence():
    """*Two weapons*: "an irishman with two shortswords may add +1 to his attack roll and +2 to his defence"."""
    adjust = totals.two_weapon_adjustments("attack_and_defend", SHORTSWORD, SHORTSWORD, False)
    assert adjust == {"attack_bonus": 1, "defence_bonus": 2, "main_penalty": -1, "off_penalty": -3}
    assert totals.two_weapon_adjustments("attack_twice", SHORTSWORD, SHORTSWORD, True) == {
        "attack_bonus": 0, "defence_bonus": 0, "main_penalty": 0, "off_penalty": 0}


def test_weapon_and_shield_skill_is_half_rounded_down():
    """WEAPON SKILLS: "bladed weapons skill 8 ... sword & shield with skill of 4"."""
    assert totals.shield_skill(8) == 4 and totals.shield_skill(7) == 3


def test_melee_totals():
    f = Fighter({"dex": 2, "qik": 1, "str": 1, "stm": 2, "per": 3}, 1, {"weapon": 5, "dodge": 3},
                Weapon("longsword", 2, 4, 2, 6), protection=4, shield=3, encumbrance=2, wound_penalty=-1)
    t = totals.totals(f, OPTIONS)
    assert (t.initiative, t.attack, t.defence, t.damage, t.dodge, t.soak) == (1 + 5 + 2 - 2 - 1, 2 + 5 + 4 - 1,
                                                                              5 + 2 - 1 - 2 + 3 - 1, 1 + 1 + 5 + 6,
                                                                              1 + 3 - 1 - 2 - 1, 2 + 1 + 4)
    bow = totals.totals(Fighter({"dex": 2, "per": 3, "str": 3}, 2, {"weapon": 4}, Weapon("bow", -5, 3, 0, 7, True)),
                        OPTIONS)
    assert bow.attack == 3 + 4 + 3 and bow.damage == 4 + 7  # Per; no Str and Size for missiles
    mounted = totals.totals(Fighter({}, 0, {"weapon": 9, "ride": 4}, Weapon(), encumbrance=3, mounted=True), OPTIONS)
    assert mounted.attack == 4 and mounted.initiative == 4


def test_defence_options():
    f = Fighter({"qik": 4}, 2, {"weapon": 3}, Weapon(defence=1))
    assert totals.totals(f, OPTIONS).defence == 3 + 4 - 2
    assert totals.totals(f, {**OPTIONS, "defence_uses": "weapon"}).defence == 3 + 1 - 2
    assert totals.totals(f, {**OPTIONS, "defence_size_sign": "add"}).defence == 3 + 4 + 2


def test_body_levels_per_five_points_or_fraction():
    """*3. Melee*: one Body level for every 5 points or fraction thereof."""
    assert [damage.levels_for(m) for m in (0, 1, 5, 6, 10, 11, 15, 16)] == [0, 1, 1, 2, 2, 3, 3, 4]
    assert [damage.levels_for(m, True) for m in (1, 2, 3, 5, 6)] == [1, 1, 2, 2, 3]
    assert [damage.levels_for(m, True, "levels") for m in (1, 5, 6)] == [2, 2, 4]


def test_brawling_alternates_fatigue_and_body():
    """*Brawling*: exceeding soak by 1-5 costs one fatigue level; by 6-10 one fatigue and one body level."""
    assert damage.split(damage.levels_for(4), True) == (0, 1)
    assert damage.split(damage.levels_for(8), True) == (1, 1)
    assert damage.split(damage.levels_for(12), True) == (1, 2)


def test_exceptional_severity():
    assert [damage.severity_of(n) for n in (0, 1, 2, 3, 7)] == ["none", "minor", "major", "grave", "grave"]


def test_fatigue_total_adds_the_penalties():
    """*6. Fatigue*: Stm +2, Enc 1 and a Medium wound (-3) give 2 - 1 - 3."""
    assert checks.fatigue_total(2, 1, -3, 0, 0)[0] == -2


def test_formulaic_outcomes_and_botch_dice():
    check = checks.Check("formulaic", 10, 15, 1)
    probs, chance = checks.odds(check, OPTIONS)
    assert sum(probs.values()) == 1 and chance == probs["success"] + probs["success_fatigue"]
    assert probs["botch"] == Fraction(1, 100)
    assert checks.casting_botch_dice(1, True, 0) == 0 and checks.casting_botch_dice(1, False, 2) == 3
    assert checks.casting_botch_dice(0, True, 0) == 0
    total, _ = checks.casting_total(8, 6, 1, 1, True, 3, 1, "soft", "subtle")
    assert total == 8 + 6 + 1 - 1 + 3 + 5 - 5 - 2


def test_missile_ease_factor():
    shot = to_hit.Missile(Fraction(60), obscured=True, target_movement="sprinting", target_qik=2, target_size=1,
                          target_dodge=4, shield_defence=3, into_melee=True)
    ef, _ = to_hit.ease_factor(shot)
    assert ef == 6 + 6 + 3 + 6 + 2 - 1 + 4 + 3 + 3
    assert to_hit.ease_factor(to_hit.Missile(Fraction(15)))[0] == 3
    assert to_hit.ease_factor(to_hit.Missile(Fraction(16), spell=True))[0] == 9


def test_melee_odds_are_exclusive_and_exact():
    odds = to_hit.melee_odds(12, 9, "roll", {"attack": 1, "defence": 1}, OPTIONS)
    assert sum(odds.probabilities.values()) == 1
    total = to_hit.melee_odds(12, 9, "total", {"attack": 1, "defence": 1}, OPTIONS)
    assert total.botch["defence"] == 0 and total.chance > odds.chance - Fraction(1, 2)
    tie = to_hit.melee_odds(12, 9, "roll", {"attack": 1, "defence": 1}, {**OPTIONS, "attack_tie": "attacker"})
    assert tie.chance > odds.chance


def test_movement_yards():
    yards = movement.yards_per_round(2, 1, 3, 4, -3)
    assert yards == {"walk": 10, "hustle": 16, "sprint": 31, "ride": 54}
    assert movement.acting(yards)["sprint"] == 15
    assert movement.yards_per_round(-10, 30, 0, 0, 0)["walk"] == 0
    per_round, per_second = movement.metres({"walk": 10}, Fraction(6))
    assert per_round["walk"] == Fraction(9144, 1000) and per_second["walk"] == Fraction(1524, 1000)
