"""The Virtue of Armor, Armor Wear, Slash and Thrust/Lunge (RULINGS 12, A21-A24)."""
from __future__ import annotations

import pytest

from service.rules.errors import Contradiction, UnknownName
from service.rules.tactical.armor import (ARMOR_TYPES, WearStrike, catalog, common_strike, layer, pierce,
                                          slash, strike, wear_sequence)

PIERCE_ALL = lambda item: True  # noqa: E731


def test_catalog_has_every_type_with_l_and_r():
    assert catalog()["doublemail"] == (20, 40) and catalog()["padded"] == (10, 10)
    assert tuple(catalog()) == ARMOR_TYPES


def test_layer_from_request_values():
    assert layer("singlemail").dr == 10 and layer("singlemail").rating == 40
    assert layer("singlemail", durability=7).dr == 7
    assert layer("singlemail", dr=6).rating == 6
    assert layer("singlemail", dr=10, durability=25).rating == 25
    assert layer("padded", dr=4).dr == 4


@pytest.mark.parametrize(("kwargs", "error", "field"), [
    ({"dr": 11}, Contradiction, "dr"), ({"durability": 41}, Contradiction, "durability"),
    ({"dr": 9, "durability": 30}, Contradiction, "dr"), ({"dr": 10, "durability": 5}, Contradiction, "dr")])
def test_bad_layers_name_their_field(kwargs, error, field):
    with pytest.raises(error) as info:
        layer("singlemail", field=("target", "armor", 1), **kwargs)
    assert info.value.field == ("target", "armor", 1, field)


def test_unknown_type():
    with pytest.raises(UnknownName):
        layer("mithril")


def test_common_strike_sums_layers_then_wears_outermost():
    layers = (layer("singlemail"), layer("padded"))
    struck = common_strike(layers, 30, 5)
    assert struck.pot_through == 10
    assert [(x.dr, x.rating) for x in struck.layers] == [(10, 35), (10, 10)]
    assert struck.met_armor and not struck.breached


def test_wear_reaches_l_then_falls_with_it_and_never_overflows():
    state = (layer("singlemail", durability=12), layer("padded"))
    after = common_strike(state, 5, 8).layers
    assert [x.dr for x in after] == [4, 10]
    after = common_strike(after, 5, 8).layers
    assert [x.dr for x in after] == [0, 10]
    after = common_strike(after, 5, 3).layers
    assert [x.dr for x in after] == [0, 7]


def test_armor_wear_off_keeps_armor():
    assert common_strike((layer("padded"),), 30, 5, armor_wear=False).layers == (layer("padded"),)


def test_slash_takes_whole_pot_from_outermost_and_never_wounds():
    struck = slash((layer("padded"), layer("singlemail")), 7)
    assert struck.pot_through == 0 and [x.dr for x in struck.layers] == [3, 10]
    struck = slash((layer("padded", dr=2), layer("singlemail")), 30)
    assert struck.pot_through == 0 and [x.dr for x in struck.layers] == [0, 10]


def test_slash_field_plate_immune_cuerbully_half():
    assert slash((layer("field-plate"),), 33).layers[0].dr == 40
    assert slash((layer("cuerbully-plate"),), 15).layers[0].dr == 22  # 7.5 -> 8


def test_slash_without_armor_is_an_ordinary_blow():
    struck = slash((layer("padded", dr=0),), 12)
    assert struck.pot_through == 12 and struck.breached and not struck.met_armor


def test_thrust_pierces_padding_and_mail_but_not_plate():
    layers = (layer("singlemail"), layer("padded"))
    struck = strike(layers, 20, 6, "thrust")
    assert struck.pot_through == 18 and struck.breached
    assert [(x.dr, x.rating) for x in struck.layers] == [(10, 39), (9, 9)]
    struck = strike((layer("brigandine"), layer("padded")), 50, 6, "thrust")
    assert struck.pot_through == 50 - 36 - 1 and not struck.breached
    assert [(x.dr, x.rating) for x in struck.layers] == [(34, 34), (9, 9)]


def test_bodkin_pierces_plate_at_short_range_unless_proof():
    plate = (layer("field-plate"),)
    assert strike(plate, 30, 2, bodkin_band="short").pot_through == 29
    assert strike(plate, 30, 2, bodkin_band="medium").pot_through == 0
    assert strike((layer("field-plate", proof=True),), 50, 2, bodkin_band="point-blank").pot_through == 10


def test_pierce_never_below_zero():
    assert pierce((layer("padded"), layer("padded")), 1, 0, PIERCE_ALL).pot_through == 0


def test_wear_sequence_states_per_strike():
    strikes = [WearStrike(15), WearStrike(10), WearStrike(0, "slash", 9), WearStrike(4, "thrust")]
    states, trace = wear_sequence((layer("doublemail"),), strikes)
    assert [s[0].rating for s in states] == [25, 15, 6, 5]
    assert [s[0].dr for s in states] == [20, 15, 6, 5]
    assert trace


def test_wear_sequence_slash_needs_pot():
    with pytest.raises(Contradiction) as info:
        wear_sequence((layer("padded"),), [WearStrike(3), WearStrike(3, "slash")])
    assert info.value.field == ("strikes", 1, "pot")


@pytest.mark.parametrize("armor_wear, mail_dr, mail_durability", [(True, 10, 39), (False, 9, 9)])
def test_thrust_through_mail_takes_one_off_r_with_wear_and_off_the_dr_without(armor_wear, mail_dr,
                                                                            mail_durability):
    struck = strike((layer("padded"), layer("singlemail")), 30, 6, "thrust", armor_wear=armor_wear)
    padded, mail = struck.layers
    assert (padded.dr, mail.dr, mail.rating) == (9, mail_dr, mail_durability)
    assert struck.pot_through == 28


@pytest.mark.parametrize("armor_wear, dr_after", [(True, 20), (False, 7)])
def test_slash_on_doublemail_comes_off_r_with_wear_and_off_the_dr_without(armor_wear, dr_after):
    assert slash((layer("doublemail"),), 13, armor_wear=armor_wear).layers[0].dr == dr_after
    assert strike((layer("doublemail"),), 13, 4, "slash", armor_wear=armor_wear).layers[0].dr == dr_after


@pytest.mark.parametrize("armor_wear", [True, False])
def test_every_armor_path_both_ways(armor_wear):
    common = strike((layer("singlemail"),), 30, 6, "common", armor_wear=armor_wear).layers[0]
    assert (common.dr, common.rating) == ((10, 34) if armor_wear else (10, 40))
    assert slash((layer("field-plate"),), 33, armor_wear).layers[0].dr == 40
    assert slash((layer("cuerbully-plate"),), 15, armor_wear).layers[0].dr == 22  # 7.5 -> 8 off 30 either way
    plate = strike((layer("brigandine"), layer("padded")), 50, 6, "thrust", armor_wear=armor_wear)
    assert [item.dr for item in plate.layers] == ([34, 9] if armor_wear else [36, 9])
