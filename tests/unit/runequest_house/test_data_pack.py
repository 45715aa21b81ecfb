"""The rq3 data pack against the seed text (where the seed has the value) and the rules document (where the
value is [CORE])."""
from __future__ import annotations

from pathlib import Path

from service.rules.runequest_house import armor, pack, stats
from service.rules.runequest_house.engine import read_ruleset_options
from service.rules.runequest_house.pack import LOCATIONS

SEED = (Path(__file__).resolve().parents[3] / ".." / "shared" / "seeds" / "004_f79db534c74a6ff0.txt")
OPTIONS = read_ruleset_options(None, ("options",))


def seed_text() -> str:
    return SEED.read_text(encoding="utf-8") if SEED.exists() else ""


def test_layering_reproduces_the_seed_example_for_every_named_piece():
    text = seed_text()
    for piece, added in (("soft_leather", 1), ("bezainted", 2), ("ringmail", 3), ("chainmail", 4)):
        assert armor.layered(["plate", piece], 0, OPTIONS).layer_bonus == added
    if text:
        assert "soft leather under plate will add 1 point of protection, bezainted 2 points, ringmail 3 points, and " \
               "chainmail 4 points" in text


def test_javelin_and_daggers_follow_the_seed_changes():
    weapons = pack.weapons()
    assert weapons["javelin"]["damage"] == "1d10" and weapons["dagger"]["type"] == "impale"
    text = seed_text()
    if text:
        assert "Javelin damage is 1d10" in text and "All daggers impale" in text


def test_location_tables_cover_d20_with_the_rq3_shares():
    for rows in (pack.melee_locations(), pack.missile_locations()):
        faces = [row["location"] for row in rows for _ in range(row["min"], row["max"] + 1)]
        assert len(faces) == 20 and set(faces) == set(LOCATIONS)
    melee = {row["location"]: row["max"] - row["min"] + 1 for row in pack.melee_locations()}
    assert melee == {"right_leg": 4, "left_leg": 4, "abdomen": 3, "chest": 1, "right_arm": 3, "left_arm": 3, "head": 2}
    missile = {row["location"]: row["max"] - row["min"] + 1 for row in pack.missile_locations()}
    assert missile == {"right_leg": 3, "left_leg": 3, "abdomen": 4, "chest": 5, "right_arm": 2, "left_arm": 2,
                       "head": 1}


def test_strike_rank_tables_match_the_document():
    assert [stats.dex_sr(d, OPTIONS) for d in (1, 5, 6, 8, 9, 12, 13, 15, 16, 18, 19, 40)] == \
        [5, 5, 4, 4, 3, 3, 2, 2, 1, 1, 0, 0]
    assert [stats.siz_sr(s, OPTIONS) for s in (1, 6, 7, 14, 15, 21, 22)] == [3, 3, 2, 2, 1, 1, 0]


def test_damage_bonus_steps_and_the_extension_per_sixteen():
    expect = {2: "-1d4", 12: "-1d4", 13: "0", 24: "0", 25: "+1d4", 32: "+1d4", 33: "+1d6", 40: "+1d6", 41: "+2d6",
              56: "+2d6", 57: "+3d6", 72: "+3d6", 73: "+4d6", 200: "+11d6"}
    for total, bonus in expect.items():
        assert stats.damage_bonus(total - 1, 1, OPTIONS) == bonus, total


def test_hit_points_and_the_game_sheet_chart():
    assert stats.hit_points(12, 13) == 13 and stats.hit_points(11, 11) == 11
    assert stats.location_hp(13, OPTIONS) == {"right_leg": 5, "left_leg": 5, "abdomen": 5, "chest": 6,
                                              "right_arm": 4, "left_arm": 4, "head": 5}
    assert [stats.location_hp(hp, OPTIONS)["chest"] for hp in (1, 4, 7, 10, 13, 16, 19)] == [2, 3, 4, 5, 6, 8, 9]
    assert [stats.location_hp(hp, OPTIONS)["right_arm"] for hp in (3, 6, 9, 12, 15, 18, 21)] == [1, 2, 3, 3, 4, 5, 6]
    assert stats.location_hp(22, OPTIONS)["head"] == 8 and stats.location_hp(24, OPTIONS)["head"] == 8
    assert stats.location_hp(25, OPTIONS)["chest"] == 11


def test_armor_pack_values():
    assert pack.armor() == {"soft_leather": 1, "stiff_leather": 2, "cuirbouilli": 3, "bezainted": 4, "ringmail": 5,
                            "lamellar": 6, "scale": 6, "chainmail": 7, "plate": 8}


def test_every_assumption_names_a_real_option():
    from service.rules.runequest_house.options import OPTIONS as SPECS
    for row in pack.assumptions():
        assert row["tag"] in ("DOC", "INF", "CORE", "DEF")
        assert row["option"] is None or row["option"] in SPECS, row
