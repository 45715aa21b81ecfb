"""The to-hit and range tables as data, checked cell by cell (rows hard-coded as read from the seed)."""
from __future__ import annotations

from fractions import Fraction

from service.rules.rounding import round_half_up
from service.rules.tactical import tables

# seed 000, "Base Range Limits for Ranged Weapons": category -> (value, scale) per column
BOWS = {"point_blank": (15, "22.5cm"), "short": (60, "90cm"), "medium": (80, "1m 20cm"), "long": (100, "1m 50cm"),
        "extreme": ("101+", "1m 50cm+")}
SHORT_BOW = {"point_blank": (11, "15cm"), "short": (42, "60cm"), "medium": (56, "82.5cm"), "long": (70, "1m 5cm"),
             "extreme": ("71+", "1m 5cm+")}
HILTED = {"point_blank": (9, "5cm"), "short": (36, "10cm"), "medium": (48, "20cm"), "long": (60, "30cm"),
          "extreme": ("61+", "30cm+")}
HAFTED = {"point_blank": (13, "19cm"), "short": (50, "75cm"), "medium": (67, "1m 5mm"), "long": (84, "1m 26cm"),
          "extreme": ("85+", "1m 26cm+")}
# seed 000, thrown objects: (size up to x height, weight up to x Light ENC, range mod)
THROWN = [(0.21, 0.025, "3/4"), (0.33, 0.05, "2/3"), (0.42, 0.075, "1/2"), (0.5, 0.1, "1/3"), (0.66, 0.25, "1/4"),
          (None, 1, "1/10")]


def _ratio(av, dv):
    if av <= 0:
        return 1
    if dv <= 0:
        return 99
    return max(1, min(99, round_half_up(Fraction(100 * av, av + dv))))


def test_task_resolution_is_the_ratio_formula_in_every_cell():
    data = tables.load("task-resolution")
    assert data["av"] == list(range(201)) and data["dv"] == list(range(201))
    assert len(data["chances"]) == 201
    for av, row in enumerate(data["chances"]):
        assert row == [_ratio(av, dv) for dv in range(201)], av


def test_task_resolution_spot_cells_and_authorship():
    data = tables.load("task-resolution")
    cells = data["chances"]
    assert (cells[50][50], cells[0][120], cells[0][0], cells[120][0], cells[30][70], cells[1][200]) == \
        (50, 1, 1, 99, 30, 1)
    assert "Referee" in data["title"] and "not the game's" in data["title"]
    assert "round_half_up(100 * AV / (AV + DV))" in data["rule"]


def test_range_bands_match_the_printed_table():
    columns = tables.load("range-bands")["columns"]
    for name, printed, unit in (("bows", BOWS, "yd"), ("short-bow", SHORT_BOW, "yd"), ("hilted", HILTED, "ft"),
                                ("hafted", HAFTED, "ft")):
        column = columns[name]
        assert column["unit"] == unit
        for category, (value, scale) in printed.items():
            assert column[category] == value, (name, category)
            assert column["scale"][category] == scale, (name, category)
    assert columns["bows"]["footnote"] == "Bow, sling, fustibal"


def test_range_band_weapons_follow_rulings_9():
    weapons = tables.load("range-bands")["weapons"]
    assert {n: (w["column"], w["str_shift"], w["maximum"]) for n, w in weapons.items()} == {
        "bow": ("bows", 2, None), "short-bow": ("short-bow", 1, None), "sling": ("short-bow", 1, None),
        "light-crossbow": ("bows", 0, 200), "heavy-crossbow": ("bows", 0, 225),
        "hurled-hilted": ("hilted", 1, None), "hurled-hafted": ("hafted", 1, None)}


def test_range_dv_modifiers_match_the_printed_table():
    bands = tables.load("range-bands")["dv_modifier"]["bands"]
    assert [(b["band"], b["printed"], Fraction(b["per_unit"])) for b in bands] == [
        ("point-blank", "(none)", 0), ("short", "+1 per 5 yards", Fraction(1, 5)),
        ("medium", "+1 per 3 yards", Fraction(1, 3)), ("long", "+1 per 1 yard", 1), ("extreme", "+2 per yard", 2)]


def test_thrown_object_rows_match_the_seed():
    data = tables.load("thrown-object-range")
    rows = [(r["size_height_up_to"], r["weight_light_enc_up_to"], r["range_multiplier"]) for r in data["rows"]]
    assert rows == THROWN
    assert data["rows"][-1]["size_height_over"] == 0.66
    best = data["best_case"]
    assert (best["weight_pounds_from"], best["weight_light_enc_up_to"], best["size_height_up_to"],
            best["column"]) == (0.25, 0.02, 0.05, "hafted")


def test_tables_are_served(client):
    for name in ("task-resolution", "range-bands", "thrown-object-range"):
        response = client.get(f"/v1/rulesets/tactical/tables/{name}")
        assert response.status_code == 200, name
    body = client.get("/v1/rulesets/tactical/tables/range-bands").get_json()
    assert body["data"]["columns"]["hafted"]["medium"] == 67
