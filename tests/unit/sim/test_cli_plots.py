"""The CLI runs in-process and writes the charts; charts are deterministic SVG; summaries add up."""
from __future__ import annotations

import json

from service.sim import chunks, plots, summary
from service.sim.cli import main
from service.sim.matchup import parse
from tests.unit.sim.conftest import fighter, matchup

DUEL = matchup([fighter("a", 60, 35, 20)], [fighter("b", 50, 35, 20)])


def test_cli_prints_the_summary_and_writes_three_svgs(tmp_path, capsys):
    path = tmp_path / "duel.json"
    path.write_text(json.dumps(DUEL))
    assert main([str(path), "--trials", "2000", "--seed", "4", "--out", str(tmp_path / "out"), "--json",
                 "--quiet"]) == 0
    printed = json.loads(capsys.readouterr().out)
    expected = summary.summarise(parse(DUEL), chunks.run(DUEL, 2000, 4))
    assert printed == json.loads(json.dumps({"seed": 4, **expected}))
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["segments.svg", "wins.svg", "wounds.svg"]


def test_cli_refuses_a_bad_matchup(tmp_path, capsys):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(matchup([fighter("a", 60, 35, 20)])))
    assert main([str(path), "--quiet"]) == 2
    assert "sides" in capsys.readouterr().err


def test_svg_is_deterministic():
    result = summary.summarise(parse(DUEL), chunks.run(DUEL, 500, 1))
    for name in plots.PLOTS:
        text = plots.svg(name, result)
        assert text.startswith("<?xml") and "<svg" in text and text == plots.svg(name, result)


def test_wilson_interval_known_values():
    low, high = summary.wilson(50, 100)
    assert round(low, 4) == 0.4038 and round(high, 4) == 0.5962
    assert summary.wilson(0, 10)[0] == 0.0 and summary.wilson(10, 10)[1] == 1.0


def test_summary_probabilities_add_up():
    result = summary.summarise(parse(DUEL), chunks.run(DUEL, 1500, 2))
    assert abs(sum(s["p"] for s in result["sides"]) + result["draw"]["p"] - 1) < 1e-12
    assert sum(result["segments"]["histogram"]) == 1500
    for person in result["combatants"]:
        assert abs(sum(person["outcome"].values()) - 1) < 1e-12
        assert abs(sum(person["levels"].values()) - 1) < 1e-12
