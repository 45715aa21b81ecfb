"""war-and-combat: every exact distribution sums to 1 and agrees with its headline chance."""
from __future__ import annotations

from fractions import Fraction

from hypothesis import given, settings, strategies as st

from service.rules.war_and_combat import checks, damage, option_specs, task, to_hit
from service.rules.war_and_combat.exact import chance_at_least

OPTIONS = option_specs.read({})
bonuses = st.fixed_dictionaries({}, optional={loc: st.integers(0, 6) for loc in task.GENERAL})


@settings(max_examples=60, deadline=None)
@given(tl=st.integers(-10, 40), bonus=st.integers(-10, 30), armor=bonuses, tie=st.booleans(),
       include=st.booleans())
def test_to_hit_odds_are_a_distribution(tl, bonus, armor, tie, include):
    options = option_specs.read({"tie_succeeds": tie, "critical_margin_includes_armor_bonus": include})
    found = to_hit.odds(to_hit.Question("melee", tl, bonus, armor), options)
    assert sum(found.probabilities.values()) == 1
    assert sum(found.extra_dice.values()) == found.chance
    assert found.probabilities["miss"] == 1 - chance_at_least(found.need)
    assert sum(found.locations.values()) == 1


@settings(max_examples=60, deadline=None)
@given(cap=st.integers(-20, 80), margin=st.integers(1, 30), size=st.integers(0, 60), absorption=st.integers(0, 10),
       threshold=st.integers(0, 10), pv=st.integers(0, 4), general=st.sampled_from(task.GENERAL))
def test_a_blow_is_a_distribution_and_criticals_always_penetrate(cap, margin, size, absorption, threshold, pv,
                                                                 general):
    blow = damage.make_blow(cap, margin, general, size, 0, {"absorption": absorption,
                                                            "penetration_threshold": threshold},
                            {"penetration_value": pv, "damage_type": "cut"}, OPTIONS)
    dist = damage.distribution(blow)
    assert sum(dist.values()) == 1 and all(p >= 0 for p in dist.values())
    if margin >= 5:
        assert all(p == 0 for key, p in dist.items() if key.endswith("_blunt"))
    assert sum(damage.column_distribution(blow).values()) == 1


@settings(max_examples=60, deadline=None)
@given(kind=st.sampled_from(checks.KINDS), tl=st.integers(-5, 30), bonus=st.integers(-10, 20), tie=st.booleans())
def test_check_outcomes_are_a_distribution(kind, tl, bonus, tie):
    probs = checks.probabilities(kind, tl, bonus, tie)
    assert sum(probs.values()) == 1
    assert probs["success"] == chance_at_least(task.need(tl, bonus, tie))


@settings(max_examples=40, deadline=None)
@given(size=st.integers(2, 200), effective=st.integers(-5, 500))
def test_severity_rises_with_effective_impact(size, effective):
    limits = damage.thresholds(size, OPTIONS)
    order = ["none", "light", "serious", "critical", "mortal"]
    assert order.index(damage.severity(effective, limits)) <= order.index(damage.severity(effective + 1, limits))
    assert Fraction(limits[2], limits[1]) == 2


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), size=st.integers(2, 6), tactic=st.sampled_from(["hold", "press", "retreat", "circle"]),
       intention=st.sampled_from(["kill", "subdue", "disarm", "grapple", "tackle", "throw"]))
def test_any_melee_of_a_few_fighters_resolves_round_after_round(seed, size, tactic, intention):
    import random as stdlib_random

    from service.rules.dice import DiceSource
    from service.rules.war_and_combat.engine import ENGINE
    rng = stdlib_random.Random(seed)
    weapons = ["dagger", "sword", "axe", "mace", "spear", "two_handed_sword", "bow"]
    people = [{"id": f"f{i}", "side": "ab"[i % 2], "fighter_rank": rng.randint(0, 12), "agl_mod": rng.randint(-2, 2),
               "dex_mod": rng.randint(-2, 2), "strength": rng.randint(6, 16), "size": rng.randint(6, 14),
               "weapons": [{"name": rng.choice(weapons), "skill": rng.randint(0, 8)}],
               "position": {"q": i // 2 * 2 + i % 2, "r": rng.randint(-1, 1)}, "facing": rng.randint(0, 5)}
              for i in range(size)]
    state = ENGINE.read_state({"combatants": people})
    for round_number in range(1, 6):
        ids = [c["id"] for c in state.combatants]
        declarations = []
        for c in state.combatants:
            foes = [o for o in ids if o[1:] and o != c["id"] and (int(o[1:]) - int(c["id"][1:])) % 2]
            action = "shoot" if c["weapons"][0]["kind"] == "missile" else "engage"
            declarations.append({"combatant": c["id"], "action": action, "target": rng.choice(foes),
                                 "tactic": tactic, "intention": intention})
        result = ENGINE.resolve(state, ENGINE.check_declarations(state, declarations), DiceSource(seed + round_number))
        assert [e["seq"] for e in result.events] == list(range(1, len(result.events) + 1))
        assert result.state.round == round_number
        state = ENGINE.read_state(ENGINE.write_state(result.state))
