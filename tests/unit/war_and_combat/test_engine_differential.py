"""The vectorised `war-and-combat` engine against the round-resolver loop it stands in for (differential
test), on duels and on group fights (1 vs 2, 2 vs 2, 3 vs 3, three sides, placed by hand, hurt at the
start): win, draw and capped shares, mean rounds (Welch), blows landed per action, criticals per blow,
actions per flurry member, the rounds each side led the initiative, finishing wounds by location and every
combatant's fate; |z| > 4 fails. `make bench-differential` runs the same matchups larger."""
from __future__ import annotations

import json
import math
import random

import numpy as np
import pytest

from service.rules import registry
from service.sim.engines import war_and_combat as engine
from service.sim.rounds import play
from service.sim.simulator import simulator_for

RULESET = registry.get("war-and-combat")
LIMIT = 4.0
RESOLVER_FIGHTS = 400
ENGINE_FIGHTS = 10_000
CHEAP = {"unequal": 1200, "armored": 1000, "options": 1000, "wounds slow initiative": 600}  # duels: fast loop


def fighter(ident, fr=5, skill=5, strength=10, size=9, weapon="sword", **extra):
    return {"id": ident, "fighter_rank": fr, "strength": strength, "size": size,
            "weapons": [{"name": weapon, "skill": skill}], **extra}


def group(*sides, **options):
    """Sides red, blue (then green) of the fighters given."""
    body = {"sides": [{"name": name, "combatants": people} for name, people in zip(("red", "blue", "green"), sides)]}
    return {**body, "options": options} if options else body


def at(q, r, facing):
    return {"position": {"q": q, "r": r}, "facing": facing}


PLATE = {"head": {"absorption": 2, "penetration_threshold": 3, "defence_bonus": 1},
         "chest": {"absorption": 4, "penetration_threshold": 8}}
MATCHUPS = {
    "unequal": group([fighter("a")], [fighter("b", 3, 4, 12, 10, "axe")]),
    "armored": group([fighter("a", 7, 6, 12, 10, "mace", agl_mod=1, armor=PLATE)],
                     [fighter("b", 8, 7, 11, 12, "spear", dex_mod=1, innate_absorption=1)]),
    "options": group([fighter("a", 4, 5, 9, 8, "dagger")], [fighter("b", 4, 5, 9, 8, "dagger")],
                     hit_swap_rule="always", tie_succeeds=True, limb_side="opposite", no_defence_def=3,
                     critical_keeps_offset=False, penalties_apply_to_defence=True),
    # A skilled fighter wears down a big, unskilled one: with wound penalties on initiative the hurt fighter
    # loses the initiative more often, which decides the flurry order on an equal flurry roll.
    "wounds slow initiative": group([fighter("a", 5, 8, 11, 10)], [fighter("b", 5, 2, 8, 18)],
                                    penalties_apply_to_initiative=True, flurry_initiative_tie="fighter_rank"),
    # Group fights: the nearest foe, walks toward him, engagement groups, flank and rear, targets in a flurry.
    "1 vs 2": group([fighter("knight", 8, 7, 12, 10, armor=PLATE)], [fighter("rogue", 4, 5), fighter("thug", 3, 4, 12)]),
    "2 vs 2": group([fighter("ann", 5, 6), fighter("bea", 6, 4, 12, 10, "mace")],
                    [fighter("cat", 5, 5, weapon="spear"), fighter("dan", 4, 6, agl_mod=1)]),
    "3 vs 3": group([fighter(f"r{i}") for i in range(3)], [fighter(f"b{i}", 4, 6) for i in range(3)]),
    "2 vs 3, never swap, costly indefensible blows": group(
        [fighter("r0", 10, 7), fighter("r1", 9, 6)], [fighter(f"b{i}", 3, 4) for i in range(3)],
        hit_swap_rule="never", indefensible_attack_cost=2, flank_defence="half_defence", max_rounds=12),
    "three sides": group([fighter("red1", 6)], [fighter("blue1", 5, 6, weapon="mace")], [fighter("green1", 4, 7)]),
    # Placed by hand: a foe behind and one at the flank, a hurt, stunned, fallen fighter, a surprised one.
    "placed, hurt and surprised": group(
        [fighter("hero", 9, 8, **at(0, 0, 0)), fighter("squire", 3, 4, **at(-1, 1, 0), surprised=True)],
        [fighter("front", 4, 5, **at(1, 0, 3)), fighter("behind", 4, 5, **at(-1, 0, 0)),
         fighter("hurt", 5, 5, **at(0, -1, 5), stunned_rounds=1, fallen=True,
                 wounds=[{"location": "left_leg", "severity": "serious"}])],
        initiative_tie_break=["agl_mod", "coin", "fighter_rank"], stun_rounds="1d3+1"),
}


def proportion_z(k1, n1, k2, n2):
    """Two-proportion z on Anscombe's arcsine scale, whose variance 1/(4n) does not depend on the share: a
    rare outcome (a fight capped once in a thousand) seen 0 times against once is not a 4-sigma event."""
    if not n1 or not n2:
        return 0.0
    def angle(k, n):
        return math.asin(math.sqrt(min(max((k + 3 / 8) / (n + 3 / 4), 0.0), 1.0)))
    return (angle(k1, n1) - angle(k2, n2)) / math.sqrt(1 / (4 * n1 + 2) + 1 / (4 * n2 + 2))


def welch_z(h1, h2):
    """Welch's statistic for the means of two histograms {value: count}."""
    def moments(h):
        n = sum(h.values())
        mean = sum(k * v for k, v in h.items()) / n
        return mean, sum(v * (k - mean) ** 2 for k, v in h.items()) / max(n - 1, 1) / n
    (m1, v1), (m2, v2) = moments(h1), moments(h2)
    return (m1 - m2) / math.sqrt(max(v1 + v2, 1e-12))


BATCHES = 20


def ratio_z(fast, slow, top, bottom):
    """Two ratios of sums (`top` over `bottom`, functions of a batch's tally) compared with the ratio
    estimator's variance from the spread of the batches: blows within one fight are not independent."""
    def estimate(batches):
        xs, ys = [top(t) for t in batches], [bottom(t) for t in batches]
        total = sum(ys)
        if not total:
            return None
        ratio, mean = sum(xs) / total, total / len(ys)
        spread = sum((x - ratio * y) ** 2 for x, y in zip(xs, ys)) / (len(ys) - 1)
        return ratio, spread / len(ys) / mean ** 2
    one, two = estimate(fast), estimate(slow)
    if one is None or two is None:
        return 0.0
    return (one[0] - two[0]) / math.sqrt(max(one[1] + two[1], 1e-12))


def details(name):
    return lambda tally: tally["details"].get(name, 0)


def rounds_of(tally):
    return sum(int(k) * v for k, v in tally["rounds"].items())


def finishes(tally):
    return sum(v for k, v in tally["details"].items() if k.startswith("finish:"))


def statistics(fast_batches, slow_batches, most_actions):
    """Every compared statistic: name -> z."""
    fast, slow = (simulator_for("war-and-combat").merge(b) for b in (fast_batches, slow_batches))
    n1, n2 = fast["trials"], slow["trials"]
    zs = {f"wins {side}": proportion_z(fast["wins"].get(side, 0), n1, slow["wins"].get(side, 0), n2)
          for side in set(fast["wins"]) | set(slow["wins"])}
    zs["draws"] = proportion_z(fast["draws"], n1, slow["draws"], n2)
    zs["capped"] = proportion_z(fast["capped"], n1, slow["capped"], n2)
    zs["mean rounds"] = welch_z(*({int(k): v for k, v in t["rounds"].items()} for t in (fast, slow)))
    pairs = {"landed per action": ("landed", "flurry_actions"), "criticals per blow": ("critical", "landed")}
    for stat, (top, bottom) in pairs.items():
        zs[stat] = ratio_z(fast_batches, slow_batches, details(top), details(bottom))
    zs["actions per flurry member"] = ratio_z(fast_batches, slow_batches, details("flurry_actions"),
                                              lambda t: most_actions * t["details"].get("flurries", 0))
    keys = {k for t in (fast, slow) for k in t["details"]}
    for key in (k for k in keys if k.startswith("initiative:")):  # a fight's rounds are not independent
        zs[key] = ratio_z(fast_batches, slow_batches, details(key), rounds_of)
    for key in (k for k in keys if k.startswith("finish:")):  # about one a fight, some rare
        zs[key] = proportion_z(fast["details"].get(key, 0), finishes(fast), slow["details"].get(key, 0), finishes(slow))
    for who in slow["status"]:
        for status in set(slow["status"][who]) | set(fast["status"][who]):
            zs[f"{who} {status}"] = proportion_z(fast["status"][who].get(status, 0), n1,
                                                 slow["status"][who].get(status, 0), n2)
    return zs


def compare(name, resolver_fights, engine_fights, seed):
    """Matchup `name` played both ways, each in `BATCHES` batches: every statistic's z (also what
    `make bench-differential` runs)."""
    parsed = RULESET.duel.read_matchup(MATCHUPS[name])
    assert engine.accepts(parsed)
    gen, rng = np.random.default_rng(seed), random.Random(seed)
    fast = [engine.simulate(parsed, engine_fights // BATCHES, gen) for _ in range(BATCHES)]
    slow = [play(RULESET, parsed, resolver_fights // BATCHES, rng) for _ in range(BATCHES)]
    most = max(2 + c["fighter_rank"] // 5 for c in parsed.combatants)
    return statistics(fast, slow, most)


@pytest.mark.parametrize("name", list(MATCHUPS))
def test_the_engine_agrees_with_the_resolver_loop(name):
    zs = compare(name, CHEAP.get(name, RESOLVER_FIGHTS), ENGINE_FIGHTS, 7)
    assert {k for k, v in zs.items() if abs(v) > LIMIT} == set(), zs


@pytest.mark.parametrize("name", ["1 vs 2", "placed, hurt and surprised"])
def test_the_engine_tally_has_the_loops_shape(name):
    parsed = RULESET.duel.read_matchup(MATCHUPS[name])
    fast = engine.simulate(parsed, 300, np.random.default_rng(3))
    slow = play(RULESET, parsed, 30, random.Random(3))
    assert set(fast) == set(slow) and fast["trials"] == 300
    assert json.loads(json.dumps(fast)) == fast  # plain JSON, as chunks travel through Celery and Redis
    assert sum(fast["wins"].values()) + fast["draws"] == 300 == sum(fast["rounds"].values())
    assert set(fast["status"]) == set(slow["status"])
    assert all(sum(counts.values()) == 300 for counts in fast["status"].values())


def test_the_same_seed_gives_the_same_tally():
    parsed = RULESET.duel.read_matchup(MATCHUPS["2 vs 2"])
    one, two = (engine.simulate(parsed, 500, np.random.default_rng(9)) for _ in range(2))
    assert one == two


def test_fights_over_before_they_begin_count_no_round():
    down = fighter("down", wounds=[{"location": "head", "severity": "mortal"}])
    parsed = RULESET.duel.read_matchup(group([down], [fighter("up")]))
    assert engine.simulate(parsed, 50, np.random.default_rng(1)) == play(RULESET, parsed, 50, random.Random(1))


def test_missiles_other_intentions_and_moving_tactics_go_to_the_resolver_loop():
    bow = {"name": "bow", "skill": 5, "kind": "missile", "base_range_m": 50}
    assert not engine.accepts(RULESET.duel.read_matchup(group([fighter("a")], [{**fighter("archer"), "weapons": [bow]}])))
    for body in (group([fighter("a")], [fighter("b")], duel_intention="subdue"),
                 group([fighter("a")], [fighter("b")], duel_tactic="press")):
        assert not engine.accepts(RULESET.duel.read_matchup(body))
        assert simulator_for("war-and-combat").cost(body).engine == "loop"
        tally = simulator_for("war-and-combat").run_chunk(body, 0, 10, 1)
        assert tally["trials"] == 10 and sum(tally["wins"].values()) + tally["draws"] == 10
    assert engine.accepts(RULESET.duel.read_matchup(group([fighter("a")], [fighter("b")], duel_tactic="circle")))


def test_a_large_melee_is_played_in_batches():
    from service.sim.engines.war_and_combat import fight as driver

    parsed = RULESET.duel.read_matchup(group([fighter(f"r{i}") for i in range(5)], [fighter(f"b{i}") for i in range(5)],
                                             max_rounds=4))
    cells, driver.BATCH_CELLS = driver.BATCH_CELLS, 100 * 70
    try:
        tally = engine.simulate(parsed, 300, np.random.default_rng(4))
    finally:
        driver.BATCH_CELLS = cells
    assert tally["trials"] == 300 == sum(tally["rounds"].values())
