"""Each smoting table against the seed text (`../shared/seeds/003_ef89a6ad2b11b110.txt`)."""
from __future__ import annotations

from pathlib import Path

import pytest

from service.rules.smoting import RULESET, injury, tables

SEED = Path(__file__).resolve().parents[4] / "shared" / "seeds" / "003_ef89a6ad2b11b110.txt"


@pytest.fixture(scope="module")
def seed() -> str:
    if not SEED.exists():
        pytest.skip("seed text not available")
    return SEED.read_text()


def test_cover_rows_follow_the_seed(seed):
    assert "Light -1d." in seed and "Heavy -2d, no rerolls." in seed and "Heavy(80%+) -3d" in seed
    assert tables.cover_dice() == {"none": (0, True), "hard_light": (1, True), "hard_heavy": (2, False),
                                   "soft_light": (1, True), "soft_medium": (2, True), "soft_heavy": (3, True)}


def test_groups_follow_the_seed(seed):
    assert "A MOB is 3 or 4 creatures, it gains +1 Physical level" in seed
    assert "A UNIT is 2 Companies (64 men), it gains +4 Physical and +2 Mental Ranks" in seed
    rows = tables.groups()
    assert [(rows[g]["physical"], rows[g]["mental"], rows[g]["dice"], rows[g]["attacks"])
            for g in ("mob", "crowd", "horde", "company", "unit")] == [
        (1, 0, 1, 2), (1, 1, 2, 3), (2, 1, 3, 4), (3, 2, 4, 4), (4, 2, 4, 6)]


def test_injury_location_example_and_effects_named_in_the_seed(seed):
    assert "4,4,4,6" in seed
    assert injury.deciding_face((4, 4, 4, 6)) == (4, 1)
    assert injury.deciding_face((2, 2, 5, 5)) == (5, 0) and injury.deciding_face((1, 2, 3, 6)) == (6, 0)
    assert tables.load("injury-locations")["faces"]["4"] == "right_arm"
    for effect in tables.load("injury-effects")["effects"]:
        name = {"flesh_wound": "Flesh Wound", "bleeder_minus_2": "Bleeder",
                "unconscious_minus_2": "Unconscious"}.get(effect, effect.capitalize())
        assert f"{name}:" in seed, effect


def test_face_odds_are_exact_and_sum_to_one():
    faces, shifts = injury.face_odds()
    assert sum(faces.values()) == 1 and sum(shifts.values()) == 1
    assert shifts[2] == injury.Fraction(6, 1296)


def test_catalogue_serves_every_table_and_assumption_options_exist():
    for name in RULESET.tables:
        assert RULESET.table(name)
    for assumption in RULESET.assumptions:
        assert assumption.option is None or assumption.option in RULESET.options
    for name, spec in RULESET.options.items():
        assert spec.tag in ("DOC", "INF", "DEF") and spec.summary
