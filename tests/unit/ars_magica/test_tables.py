"""Each data file of the `ars-magica` ruleset checked against the seed text (002)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from service.rules.ars_magica import tables
from service.rules.ars_magica.totals import missile_rate

SEED = Path(__file__).resolve().parents[3] / ".." / "shared" / "seeds" / "002_477d4803bb5147c1.txt"


@pytest.fixture(scope="module")
def seed() -> str:
    if not SEED.is_file():
        pytest.skip("seed text not present next to the repository")
    return SEED.read_text(encoding="utf-8")


def cells(text: str, start: str, end: str) -> list[str]:
    """The `|`-flattened cells between two headings."""
    block = text[text.index(start) + len(start):text.index(end, text.index(start))]
    return [c.strip() for c in block.replace("\n", " ").split("|") if c.strip()]


def test_every_table_loads_with_title_and_source():
    for name in tables.FILES:
        assert {"title", "source"} <= set(tables.load(name))


def test_movement_bases(seed):
    found = cells(seed, "Yards moved in one round:", "Movement is halved")
    bases = {found[i].lower(): int(found[i + 1].split()[0]) for i in range(0, len(found), 2)}
    ours = {row["pace"]: row["base"] for row in tables.rows("movement")}
    assert bases == {"walking": ours["walk"], "hustling": ours["hustle"], "sprinting": ours["sprint"],
                     "riding": ours["ride"]}


def test_missile_rate(seed):
    assert "-20 or less |\nevery third round" in seed and "+11 or more |\nevery round |\nevery round" in seed
    assert missile_rate(-20)["first_phase_every"] == 3 and missile_rate(-21)["second_phase_every"] is None
    assert missile_rate(-19)["first_phase_every"] == 2 and missile_rate(-10)["first_phase_every"] == 2
    assert missile_rate(0) == {"first_phase_every": 1, "second_phase_every": None}
    assert missile_rate(10) == {"first_phase_every": 1, "second_phase_every": 2}
    assert missile_rate(11) == {"first_phase_every": 1, "second_phase_every": 1}


def test_missile_fire(seed):
    fire = tables.load("missile-fire")
    assert "base ease factor to hit a target is 6" in seed and fire["base"] == 6
    assert "Within 15 yards |\n-3 (0 in spell targeting)" in seed
    assert [(b["modifier"], b["spell_modifier"]) for b in fire["distance"][:2]] == [(-3, 0), (0, 3)]
    assert "Beyond 200 yards |\n+12" in seed and fire["distance"][-1]["modifier"] == 12
    assert "Hustling |\n+ 3" in seed and fire["target_movement"]["hustling"] == 3
    assert "+ 6 + target's Quickness" in seed and fire["target_movement"]["sprinting"] == 6
    assert "+3 is added to the ease factor" in seed and fire["into_melee"] == 3
    assert "exceeds the ease factor by 10" in seed and fire["exceptional_over"] == 10


def test_words_and_gestures(seed):
    found = cells(seed, "WORDS AND GESTURES TABLE", "DISTRACTION TABLE")
    pairs = dict(zip(found[4::2], found[5::2]))
    data = tables.load("words-and-gestures")
    assert found[4:12:4] and int(pairs["Booming"]) == data["voice"]["booming"]
    voice = [found[i:i + 2] for i in range(4, len(found), 4)]
    gesture = [found[i + 2:i + 4] for i in range(4, len(found), 4)]
    assert {k.lower(): int(v) for k, v in voice} == data["voice"]
    assert {k.lower(): int(v) for k, v in gesture} == data["gesture"]


def test_distraction(seed):
    found = cells(seed, "DISTRACTION TABLE", "Certámen")[2:]
    seeded = [int(re.match(r"(\d+)\+", found[i + 1]).group(1)) for i in range(0, len(found), 2)]
    assert seeded == [row["ease_factor"] for row in tables.rows("distraction")]


def test_botch_tables_have_the_seed_indices(seed):
    attack = seed[seed.index("Attack/Defence Botches"):seed.index("Damage/Soak Botches")]
    damage = seed[seed.index("Damage/Soak Botches"):seed.index("Magic Botch Suggestion Table")]
    for text, name in ((attack, "botch-attack-defence"), (damage, "botch-damage-soak")):
        indices = [int(m) for m in re.findall(r"^(\d+)\+? ", text, re.MULTILINE)]
        assert indices == [row["index"] for row in tables.rows(name)]


def test_exceptional_blow_examples(seed):
    data = tables.load("exceptional-blow")
    assert "leg: movement hampered (50% of normal)" in seed and data["effects"]["leg"]["minor"] == "movement_half"
    assert "head: knocked unconscious for 15 minutes" in seed
    assert data["effects"]["head"]["major"] == "unconscious_15_min"
    assert "arm: cut off or severely maimed" in seed and data["effects"]["arm"]["grave"] == "arm_maimed_penalty_5"


def test_fatigue_recovery_names(seed):
    for row in tables.rows("fatigue-levels")[1:]:
        assert row["name"] in seed.lower()


def test_brawling_maneuvers(seed):
    found = cells(seed, "BRAWLING MANEUVERS TABLE", "4. Second Missiles")[4:]
    names = [found[i].lower().replace(" ", "_") for i in range(0, len(found), 4)]
    assert names == ["throw", "tackle", "wrest_weapon", "immobilize"]
    bonus = [int(last) if (last := found[i + 2].rsplit("+", 1)[1].strip()).isdigit() else 0
             for i in range(0, len(found), 4)]
    assert bonus == [row["resisting_bonus"] for row in tables.rows("brawling-maneuvers")]
