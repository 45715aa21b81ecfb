"""Tables 6-5, Weapon DM and both Armor/Shield DR Recaps, row by row as printed in seed 000."""
from __future__ import annotations

import math
from fractions import Fraction

import pytest

from service.rules.tactical import tables
from service.rules.tactical.potence import damage_bonus, damage_multiplier

# Copied from the seed text ("6-5. Weapon DB's, by Size & Class"), one printed line each.
DB_PRINTED = """0 0 1 2 3 4 5
1-2 1 2 3 4 5 6
3-4 2 3 4 5 6 7
5-6 3 4 5 6 7 8
7-8 4 5 6 7 8 9
9-10 5 6 7 8 9 10
11-12 6 7 8 9 10 11
13-14 7 8 9 10 11 12
15-16 8 9 10 11 12 13
17-18 9 10 11 12 13 14
19-20 10 11 12 13 14 15"""

DM_PRINTED = """0-1 0.25 0.5 0.75 1 1.25 1.5
2-3 0.5 0.75 1 1.25 1.5 1.75
4-5 0.75 1 1.25 1.5 1.75 2
6-7 1 1.25 1.5 1.75 2 2.25
8-9 1.25 1.5 1.75 2 2.25 2.5
10-11 1.5 1.75 2 2.25 2.5 2.75
12-13 1.75 2 2.25 2.5 2.75 3"""

ARMOR_PRINTED = [("Padded, Simple", "10"), ("Studded Padding", "12"), ("Trellised Padding", "14"),
                 ("Bezainted Padding", "15"), ("Ringed Padding", "16"), ("Singlemail", "10/40"),
                 ("Banded Singlemail", "14/40"), ("Doublemail", "20/40"), ("Banded Doublemail", "24/40"),
                 ("Jazeraint", "28/40"), ("Laminated", "32/40"), ("Brigandine", "36/40"),
                 ("Field Plate", "40"), ("Cuerbully Plate", "30"),
                 ("Wood (alder or poplar assumed)", "25"), ("Steel-Bound", "30"), ("Steel", "40")]


def _printed(text):
    return [(line.split()[0], [Fraction(v) for v in line.split()[1:]]) for line in text.splitlines()]


@pytest.mark.parametrize(("table", "text"), [("weapon-db", DB_PRINTED), ("weapon-dm", DM_PRINTED)])
def test_weapon_tables_match_the_seed_row_by_row(table, text):
    rows = tables.load(table)["rows"]
    assert [(r["sizes"], [Fraction(str(v)) for v in r["values"]]) for r in rows] == _printed(text)
    for row in rows:
        lo, _, hi = row["sizes"].partition("-")
        assert (row["min"], row["max"]) == (int(lo), int(hi or lo))


def test_db_and_dm_closed_forms_hold_for_every_cell():
    for size in range(21):
        for index in range(6):
            assert damage_bonus(size, index) == math.ceil(size / 2) + index
    for size in range(14):
        for index in range(6):
            assert damage_multiplier(size, index) == Fraction(size // 2 + index + 1, 4)


def test_standard_armor_recap_matches_the_seed():
    rows = tables.load("armor-dr")["rows"]
    assert [(r["name"], str(r["dr"])) for r in rows] == [(n, p.split("/")[0]) for n, p in ARMOR_PRINTED]
    assert [r["group"] for r in rows].count("shield") == 3


def test_armor_wear_recap_matches_the_seed():
    rows = tables.load("armor-dr-wear")["rows"]
    assert [(r["name"], r["printed"]) for r in rows] == ARMOR_PRINTED
    for row, (_, printed) in zip(rows, ARMOR_PRINTED):
        left, _, right = printed.partition("/")
        assert (row["dr"], row["durability"]) == (int(left), int(right or left))


def test_tables_are_served(client):
    for name in ("weapon-db", "weapon-dm", "armor-dr", "armor-dr-wear"):
        response = client.get(f"/v1/rulesets/tactical/tables/{name}")
        assert response.status_code == 200
        assert response.get_json()["data"]["rows"]
