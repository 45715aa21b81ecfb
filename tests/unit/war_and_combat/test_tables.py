"""Every data table of war-and-combat checked against the seed text itself, and the formulas that extend
them checked against every printed row."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from service.rules.war_and_combat import damage, option_specs, task
from service.rules.war_and_combat.tables import load

SEED = (Path(__file__).parents[4] / "shared" / "seeds" / "001_d3fcdeb4abcc49d7.txt")
if not SEED.exists():
    SEED = Path(__file__).parents[3].parent / "shared" / "seeds" / "001_d3fcdeb4abcc49d7.txt"
OPTIONS = option_specs.read({})


@pytest.fixture(scope="module")
def seed() -> str:
    if not SEED.exists():
        pytest.skip("seed text not present")
    return SEED.read_text(encoding="utf-8")


def _section(text: str, start: str, end: str) -> str:
    return text[text.index(start):text.index(end, text.index(start))]


def test_impact_dice_match_the_impact_cap_table(seed):
    block = _section(seed, "IMPACT CAP\nImpact Cap", "Impact Absorption")
    printed = re.findall(r"(-?\d+) ?(?:to|-) ?(-?\d+) ?(\d+ point|\d+d\d+(?:-\d+)?)", block)
    assert len(printed) == 11
    rows = load("impact-dice")
    for (low, high, dice), row in zip(printed, rows):
        assert (row["cap_min"], row["cap_max"]) == (int(low), int(high))
        assert row["dice"] == ("1" if dice == "1 point" else dice)
        for cap in range(int(low), int(high) + 1):
            assert damage.impact_dice(cap, OPTIONS).text == row["dice"]


def test_damage_thresholds_match_the_seed_table(seed):
    block = _section(seed, "DAMAGE THRESHOLDS", "Wound Severity")
    printed = re.findall(r"^(\d+)(\d)(\d{1,2})(\d{1,2})$", block, re.M)
    rows = {row["size"]: row for row in load("damage-thresholds")}
    assert rows["<1"] == {"size": "<1", "impaired": 0, "disabled": 0, "destroyed": 1}
    for size in range(1, 37):
        row = rows[size]
        line = f"{size}{row['impaired']}{row['disabled']}{row['destroyed']}"
        assert re.search(rf"^{line}$", block, re.M), line
        assert damage.thresholds(size, OPTIONS) == (row["impaired"], row["disabled"], row["destroyed"])
    assert damage.thresholds(0, OPTIONS) == (0, 0, 1)
    assert len(printed) >= 30


def test_hit_locations_match_both_seed_tables(seed):
    for title in ("\nHIT LOCATIONS\n", "MISSILE HIT LOCATIONS"):
        block = seed[seed.index(title):seed.index(title) + 120]
        for row in load("hit-location"):
            assert f"{row['min']}-{row['max']}{row['location'].title()}" in block
    assert task.location_counts() == {"head": 10, "arm": 71, "chest": 54, "belly": 46, "leg": 35}


def test_pace_terrain_missile_and_combat_option_tables_match_the_seed(seed):
    for row in load("pace"):
        if row["hexes"] is not None:
            assert f"{row['pace'].title()}{row['hexes']}" in seed
        if row["action_penalty"] is not None and row["pace"] not in ("jump", "dive", "swing"):
            assert f"{row['pace'].title()} {row['action_penalty']}" in seed
    assert "Jump or Dive-5" in seed and "Swing (1-H) -4" in seed
    for row in load("terrain"):
        if row["cost"] is not None and row["terrain"] != "water":
            assert re.search(rf"{row['terrain'].title()} {row['cost']} ", seed)
    assert "Water/Mired/Sandy 2 Jog" in seed and "Rough 2 Run" in seed and "Slick 2 Walk" in seed
    for row in load("missile-range"):
        assert f"+{row['range_modifier']}" in seed
    assert "Aware, Evading15 + Target's Defense" in seed
    names = {"disarm": "Disarming", "grapple": "Grappling", "subdual": "Subdual", "tackle": "Tackling",
             "throw": "Throwing"}
    for row in load("combat-options"):
        line = " ".join([names[row["attack"]], row["superficial"], row["light"], row["serious"], row["critical"]])
        assert line in seed


def test_wound_effects_follow_the_seed_table(seed):
    effects = load("wound-effects")
    assert "Arm Fumble? Fumble Disabled" in seed and "Leg Stumble? Stumble Disabled" in seed
    assert effects["arm"] == {"light": "fumble_check", "serious": "fumble", "critical": "disabled", "mortal": "mortal"}
    assert effects["head"]["serious"] == "stun" and effects["head"]["critical"] == "knockout"
    assert effects["action_penalty"] == {"light": -1, "serious": -3, "critical": -7, "mortal": None}
    assert "Action Penalty —> -1 -3 -7" in seed


def test_every_option_of_the_rules_document_is_served_with_its_default():
    document = SEED.parents[1] / "rules" / "war-and-combat.md"
    if not document.exists():
        pytest.skip("rules document not present")
    text = document.read_text(encoding="utf-8")
    section = text[text.index("## 10. Options"):text.index("## 11.")]
    names = set()
    for line in section.splitlines():
        if line.startswith("| `"):
            names |= set(re.findall(r"`([a-z_]+)`", line.split("|")[1]))
    assert names == set(option_specs.SPECS)
    assert OPTIONS["no_defence_def"] == 5 and OPTIONS["max_rounds"] == 50 and OPTIONS["off_arm_penalty"] == -3
    assert OPTIONS["initiative_tie_break"] == ["fighter_rank", "agl_mod", "coin"]
