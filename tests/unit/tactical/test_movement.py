"""Pulse conversions (table 7-2 rule), quarter rates, the pulse ramp, charge, action-time footnotes."""
from __future__ import annotations

from fractions import Fraction as F

import pytest

from service.rules.errors import OutOfRange, UnknownName
from service.rules.tactical import movement, pulse


@pytest.mark.parametrize("mph, feet", [
    (F(1, 4), F(2, 5)), (F(1, 2), F(7, 10)), (F(3, 4), 1), (1, 2), (16, 24), (136, 200), (10, 15), (149, 219),
])
def test_feet_column_double_rounds(mph, feet):
    assert pulse.table_feet(pulse.feet_exact(F(mph))) == feet


@pytest.mark.parametrize("mph, scale, mm, text", [
    (10, "25mm", 73, "7.3 cm"), (15, "25mm", 110, "11 cm"), (1, "25mm", 7, "7 mm"), (2, "25mm", 15, "1.5 cm"),
    (16, "5mm", 24, "2.4 cm"), (23, "10mm", 67, "6.7 cm"), (F(3, 4), "25mm", 6, "6 mm"), (0, "10mm", 0, "0 mm"),
    (F(1, 4), "5mm", 0, "0 mm"), (149, "25mm", 1093, "109.3 cm"), (7, "5mm", 10, "1 cm"),
])
def test_rule_cells(mph, scale, mm, text):
    found = pulse.by_rule(F(mph), scale)
    assert (found.scale_mm, found.scale_text, found.source) == (mm, text, "rule")


def test_rule_trace_names_the_formula_and_ruling():
    rules = [step.rule for step in pulse.by_rule(F(10), "25mm").trace]
    assert rules[0] == "F43" and rules[-1] == "RULINGS 15"


@pytest.mark.parametrize("mph, scale, mm, text", [
    (4, "25mm", 30, "3 cm"), (13, "25mm", 96, "9.6 cm"), (23, "10mm", 67, "6.7 cm"),
    (F(1, 4), "5mm", 0, "0 mm"), (F(1, 2), "10mm", 2, "2 mm"), (F(3, 4), "25mm", 5, "5 mm"),
])
def test_verbatim_returns_printed_cells(mph, scale, mm, text):
    found = pulse.convert(F(mph), scale, verbatim=True)
    assert (found.scale_mm, found.scale_text, found.source) == (mm, text, "printed")


def test_verbatim_falls_back_to_rule_off_the_table():
    found = pulse.convert(F(150), "25mm", verbatim=True)
    assert found.source == "rule" and found.scale_text == "110 cm"
    assert found.trace[0].rule == "A37" and "not printed" in found.trace[0].detail


@pytest.mark.parametrize("mph, scale, error", [(F(-1), "25mm", OutOfRange), (F(1001), "25mm", OutOfRange),
                                               (F(5), "15mm", UnknownName)])
def test_bad_inputs_refused_with_field(mph, scale, error):
    with pytest.raises(error) as caught:
        pulse.convert(mph, scale)
    assert caught.value.field in {("mph",), ("scale",)}


def test_quarter_rates_of_ten_mph():
    found = movement.rates(F(10), "25mm")
    summary = [(r.name, r.conversion.mph, r.conversion.feet, r.feet_per_cs, r.conversion.scale_text)
               for r in found.rates]
    assert summary == [("quarter", F(5, 2), 4, 37, "1.8 cm"), ("half", 5, 7, 73, "3.7 cm"),
                       ("three_quarters", F(15, 2), 11, 110, "5.5 cm"), ("full", 10, 15, 147, "7.3 cm")]
    assert found.first_pulse_feet == 7
    assert found.feet_first_cs_from_standstill == 139  # 9.5 x 44/3 = 139.33


def test_ramp_caps_first_moving_pulse_and_resets_after_a_stop():
    rates = [F(1), F(1), F(0), F(3, 4), F(1), F(1, 4), F(1), F(1), F(1), F(1)]
    assert movement.ramp_rates(rates) == (F(1, 2), 1, 0, F(1, 2), 1, F(1, 4), 1, 1, 1, 1)
    assert movement.ramp_rates(rates, moving_before=True)[0] == 1


def test_ramp_from_standstill_at_full_rate():
    found = movement.ramp(F(10), [F(1)] * 10)
    assert [m.feet for m in found.pulses][:2] == [7, 15]
    assert found.total_feet_exact == F(418, 3) and found.total_feet == 139
    assert found.charge_eligible is True


@pytest.mark.parametrize("rates, attack_pulse, expected", [
    ([1] * 10, 6, True), ([1] * 10, 5, False), ([1] * 5 + [0] * 5, 6, False), ([0] * 4 + [1] * 6, 10, True),
    ([0] * 5 + [1] * 5, 10, False), ([1, 1, 1, 1, 1, 1, F(3, 4), 1, 1, 1], 10, False),
])
def test_charge_needs_five_full_pulses_ending_at_the_attack(rates, attack_pulse, expected):
    assert movement.charge_eligible([F(r) for r in rates], attack_pulse) is expected


def test_charge_without_pulse_move():
    assert movement.charge_eligible_without_pulses(F(1)) and not movement.charge_eligible_without_pulses(F(3, 4))


@pytest.mark.parametrize("rates, field", [([F(1)] * 9, ("rates",)), ([F(1, 3)] + [F(1)] * 9, ("rates", 0))])
def test_ramp_refuses_bad_rates(rates, field):
    with pytest.raises(OutOfRange) as caught:
        movement.ramp(F(10), rates)
    assert caught.value.field == field


def test_ramp_refuses_attack_pulse_outside_the_cs():
    with pytest.raises(OutOfRange):
        movement.ramp(F(10), [F(1)] * 10, attack_pulse=11)


@pytest.mark.parametrize("don, doff", [(3, F(3, 2)), (F(1, 4), F(1, 4)), (F(1, 2), F(1, 4)), (8, 4)])
def test_doff_time(don, doff):
    assert movement.doff_time(F(don)) == doff


def test_rummage_time():
    assert movement.rummage_time(0) == 1 and movement.rummage_time(4) == 5


@pytest.mark.parametrize("args, cs", [((15, 25, 0, 10), 3), ((15, 0, 1, 15), 1), ((14, 0, 1, 20), F(1, 4)),
                                      ((25, 10, 0, 25), 3)])
def test_untie_knot(args, cs):
    assert movement.untie_knot_cs(*args) == cs
