"""The CLI runs in-process and writes the charts; charts are deterministic SVG; summaries add up."""
from __future__ import annotations

import json

import pytest

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


@pytest.mark.parametrize("flags", [["--trials", "0"], ["--trials", "-5"], ["--chunk-size", "0"],
                                   ["--trials", "ten"]])
def test_cli_bad_numbers_are_usage_errors(tmp_path, capsys, flags):
    path = tmp_path / "duel.json"
    path.write_text(json.dumps(DUEL))
    with pytest.raises(SystemExit) as exit_:
        main([str(path), "--quiet", *flags])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert "usage:" in err and "Traceback" not in err


@pytest.mark.parametrize("trials", [0, -1, "many", True])
def test_cli_bad_trials_in_the_file_are_usage_errors(tmp_path, capsys, trials):
    path = tmp_path / "body.json"
    path.write_text(json.dumps({"matchup": DUEL, "trials": trials}))
    with pytest.raises(SystemExit) as exit_:
        main([str(path), "--quiet"])
    assert exit_.value.code == 2 and "trials" in capsys.readouterr().err


def test_cli_uses_the_files_seed_and_trials_and_writes_plots_beside_it(tmp_path, capsys):
    folder = tmp_path / "fights"
    folder.mkdir()
    path = folder / "body.json"
    path.write_text(json.dumps({"trials": 1500, "seed": 11, "chunk_size": 500, "matchup": DUEL}))
    assert main([str(path), "--json", "--quiet"]) == 0
    printed = json.loads(capsys.readouterr().out)
    expected = summary.summarise(parse(DUEL), chunks.run(DUEL, 1500, 11, 500))
    assert printed == json.loads(json.dumps({"seed": 11, **expected}))
    assert sorted(p.name for p in folder.glob("*.svg")) == ["segments.svg", "wins.svg", "wounds.svg"]


def test_cli_flags_win_over_the_file(tmp_path, capsys):
    path = tmp_path / "body.json"
    path.write_text(json.dumps({"trials": 1500, "seed": 11, "matchup": DUEL}))
    assert main([str(path), "--json", "--quiet", "--trials", "700", "--seed", "2", "--out",
                 str(tmp_path / "o")]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["seed"] == 2 and printed["trials"] == 700 and (tmp_path / "o" / "wins.svg").exists()


def test_plots_write_numbers_on_bars_singular_fight_and_capped_draws_apart():
    capped = matchup([fighter("a", 20, 60, 60)], [fighter("b", 20, 60, 60)], max_segments=2)
    results = (summary.summarise(parse(capped), chunks.run(capped, 1, seed)) for seed in range(200))
    result = next(r for r in results if r["draw"]["capped"] == 1)  # one fight, stopped by the cap
    wins = plots.svg("wins", result)
    assert "Chance to win, 1 fight (" in wins and "1 fights" not in wins
    assert "stopped by the cap" in wins and "100.0%" in wins
    lengths = plots.svg("segments", result)
    assert "stopped by the cap (2 segments)" in lengths and "(1 fight, mean" in lengths
    many = summary.summarise(parse(DUEL), chunks.run(DUEL, 400, 1))
    text = plots.svg("wins", many)
    assert "400 fights" in text and f"{many['sides'][0]['p']:.1%}" in text
