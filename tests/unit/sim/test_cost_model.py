"""The cost model (`service.sim.cost`) against what chunks really cost, the engine it picks against the one
that plays, the job plan's limits (`service.sim.budget`), and every engine stopping at a checkpoint."""
from __future__ import annotations

import math
import time

import pytest

from service.rules.errors import OutOfRange
from service.sim.budget import MAX_CHUNKS, Limits, plan_job
from service.sim.cost import LOOP, VECTORISED, Cost
from service.sim.simulator import simulator_for
from service.sim.stopping import Stopped, watched
from tests.perf.sim_costs import FIGHTERS, chunk_cpu, matchup

RULESETS = sorted(FIGHTERS)
GROUPS = ("tactical", "ars-magica", "war-and-combat", "smoting", "runequest-house")  # rulesets whose vectorised engine plays group fights too


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_duel_and_a_melee_of_ten_are_priced_for_the_engine_that_plays_them(ruleset):
    simulator = simulator_for(ruleset)
    duel, melee = simulator.cost(matchup(ruleset, 1, 1, 20)), simulator.cost(matchup(ruleset, 5, 5, 20))
    assert (duel.engine, duel.combatants, duel.steps) == (VECTORISED, 2, 20)
    assert (melee.engine, melee.combatants) == (VECTORISED if ruleset in GROUPS else LOOP, 10)
    assert duel.rates is simulator.rates[VECTORISED]
    assert melee.rates is simulator.rates[melee.engine]


@pytest.mark.parametrize("ruleset, side, trials, cap", [
    *((r, 1, 3000, 40) for r in RULESETS),
    *((r, 5, 6, 8) for r in RULESETS),
    ("tactical", 25, 60, 4), ("smoting", 25, 1, 4), ("war-and-combat", 25, 1, 4), ("ars-magica", 25, 1, 4),
])
def test_a_chunk_costs_less_than_its_estimate(ruleset, side, trials, cap):
    body = matchup(ruleset, side, side, cap)
    cost = simulator_for(ruleset).cost(body)
    chunk_cpu(ruleset, body, 2)  # warm-up
    measured = min(chunk_cpu(ruleset, body, trials, seed=seed) for seed in (1, 2))
    assert measured < cost.chunk_seconds(trials), (cost, measured)


def test_a_fight_that_cannot_end_costs_its_whole_cap_and_no_more():
    stalemate = matchup("smoting", 1, 1, 300)
    for person in (p for side in stalemate["sides"] for p in side["combatants"]):
        person.update(physical_rank=9, armor_resist=6, xposures={"attack": 1, "parry": 5},
                      weapon={"damage_dice": 1, "speed": 3})
    simulator = simulator_for("smoting")
    tally = simulator.run_chunk(stalemate, 0, 4, 1)
    assert tally["capped"] == 4
    looped = Cost(LOOP, 2, 300, simulator.rates[LOOP])
    assert chunk_cpu("smoting", stalemate, 4, loop=True) < looped.chunk_seconds(4)


DUEL = Cost(VECTORISED, 2, 100, simulator_for("tactical").rates[VECTORISED])
LIMITS = Limits(job_seconds=60, chunk_seconds=5)


def test_the_default_plan_keeps_chunks_within_their_cost_and_count():
    plan = plan_job(DUEL, 1_000_000, None, Limits(10_000, 30))
    assert len(plan.sizes) <= MAX_CHUNKS and sum(plan.sizes) == 1_000_000
    assert max(DUEL.chunk_seconds(size) for size in plan.sizes) <= 30
    assert plan_job(DUEL, 30_000, None, Limits(10_000, 30)).chunk_size == 20_000  # the usual default
    assert plan.cpu_seconds == pytest.approx(DUEL.seconds(plan.sizes))
    assert plan_job(DUEL, 100, None, LIMITS).sizes == [100]


@pytest.mark.parametrize("trials, chunk_size, field, words", [
    (1_000_000, 100, "chunk_size", f"at most {MAX_CHUNKS} chunks"),
    (100_000, 100_000, "chunk_size", "chunk_size may be at most"),
    (10_000_000, None, "trials", "use at most"),
])
def test_over_a_limit_is_out_of_range_naming_what_to_change(trials, chunk_size, field, words):
    with pytest.raises(OutOfRange) as refused:
        plan_job(DUEL, trials, chunk_size, LIMITS)
    assert refused.value.field == (field,) and words in refused.value.message


def test_the_trials_named_as_fitting_do_fit():
    with pytest.raises(OutOfRange) as refused:
        plan_job(DUEL, 10_000_000, None, LIMITS)
    most = int(refused.value.message.split("use at most ")[1].split(" trials")[0].replace(",", ""))
    assert plan_job(DUEL, most, None, LIMITS).cpu_seconds <= LIMITS.job_seconds
    with pytest.raises(OutOfRange):
        plan_job(DUEL, most + 1, None, LIMITS)


def test_a_fight_dearer_than_a_chunk_may_be_is_refused_on_the_options():
    huge = Cost(LOOP, 200, 1000, simulator_for("war-and-combat").rates[LOOP])
    with pytest.raises(OutOfRange) as refused:
        plan_job(huge, 1, None, LIMITS)
    assert refused.value.field == ("matchup", "options") and "one fight" in refused.value.message


class Countdown:
    """A checkpoint check that raises Stopped on its `n`-th call."""

    def __init__(self, n: int):
        self.left = n

    def __call__(self) -> None:
        self.left -= 1
        if self.left <= 0:
            raise Stopped("stop")


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("side", [1, 2])
def test_every_engine_stops_at_a_checkpoint(ruleset, side):
    body = matchup(ruleset, side, side, 1000)
    started = time.process_time()
    with pytest.raises(Stopped), watched(Countdown(3)):
        simulator_for(ruleset).run_chunk(body, 0, 2000 if side == 1 else 50, 1)
    assert time.process_time() - started < 1.0
    assert math.isfinite(simulator_for(ruleset).cost(body).chunk_seconds(1))
