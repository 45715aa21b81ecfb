"""Each ruleset's fight policy is published (issue 24, item 6): a text per ruleset with its six parts, shown
in the simulation operation's description and quoted in the README, and every declaration the duel rules
make in real fights uses only keys and words the text names (so the text cannot drift from the code);
war-and-combat's starting columns are the ones the text gives."""
from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from service.rules import registry
from service.rules.dice import DiceSource
from service.sim.policy import INTRO, PARTS, fight_policies, fight_policy
from service.spec import spec_dict
from tests.unit.ars_magica.test_sim_engine import MATCHUPS as ARS_MAGICA
from tests.unit.sim.conftest import fighter as tactical_fighter
from tests.unit.sim.conftest import matchup as tactical_matchup
from tests.unit.sim.test_runequest_house_engine import MATCHUPS as RUNEQUEST_HOUSE
from tests.unit.sim.test_smoting_engine import MATCHUPS as SMOTING

README = Path(__file__).resolve().parents[3] / "README.md"
PAD = [{"type": "padded", "dr": 10}]
TACTICAL = {
    "first foe": tactical_matchup([tactical_fighter("a", 60, 35, 20, PAD)],
                                  [tactical_fighter("b", 50, 35, 20, PAD), tactical_fighter("c", 45, 30, 15)]),
    "random foe": tactical_matchup([tactical_fighter("a", 60, 35, 20, PAD)], [tactical_fighter("b", 50, 35, 20)],
                                   targeting="random", reprisals=False),
}


def wac_fighter(ident: str, fr: int, skill: int, weapon: str = "sword") -> dict:
    return {"id": ident, "fighter_rank": fr, "strength": 10, "size": 9, "weapons": [{"name": weapon, "skill": skill}]}


WAR_AND_COMBAT = {
    "duel": {"sides": [{"name": "red", "combatants": [wac_fighter("x", 5, 5)]},
                       {"name": "blue", "combatants": [wac_fighter("y", 3, 4, "axe")]}]},
    "three sides, pressing": {"options": {"duel_tactic": "press", "duel_intention": "subdue"}, "sides": [
        {"name": side, "combatants": [wac_fighter(f"{side}{n}", 4, 5) for n in (1, 2)]}
        for side in ("red", "blue", "green")]},
}
SAMPLES = {"tactical": TACTICAL, "war-and-combat": WAR_AND_COMBAT, "ars-magica": ARS_MAGICA, "smoting": SMOTING,
           "runequest-house": RUNEQUEST_HOUSE}


def squeeze(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


@pytest.mark.parametrize("ruleset_id", registry.ids())
def test_every_ruleset_publishes_its_fight_policy_in_six_parts(ruleset_id):
    text = fight_policy(ruleset_id)
    assert text, f"service/sim/policies/{ruleset_id}.md is missing"
    assert [part for part in PARTS if re.search(rf"^\*\*{part}\b", text, re.MULTILINE)] == list(PARTS)


def test_the_spec_and_the_readme_carry_every_policy(app):
    paths = spec_dict(app)["paths"]
    described = paths["/v1/simulations"]["post"]["description"]
    readme = squeeze(README.read_text(encoding="utf-8"))
    assert "{fight_policies}" not in described and fight_policies() in described
    for ruleset_id in registry.ids():  # each ruleset's own simulations: its policy, after the common introduction
        own = paths[f"/v1/{ruleset_id}/simulations"]["post"]["description"]
        assert own.endswith(INTRO + "\n\n" + fight_policy(ruleset_id)), ruleset_id
    assert squeeze(INTRO) in readme
    for ruleset_id in registry.ids():
        assert squeeze(fight_policy(ruleset_id)) in readme, f"README lacks {ruleset_id}'s fight policy"


def declarations_of_fights(ruleset_id: str, matchup: dict, fights: int = 3) -> list[dict]:
    """Every declaration the duel rules make in a few fights of `matchup` played by the resolver."""
    ruleset = registry.get(ruleset_id)
    duel, engine = ruleset.duel, ruleset.engine
    parsed, rng, made = duel.read_matchup(matchup), random.Random(11), []
    for _ in range(fights):
        state, dice = duel.start(parsed), DiceSource.from_rng(rng)
        for _ in range(min(duel.max_steps(parsed), 25)):
            if duel.verdict(parsed, state).over:
                break
            declared = duel.declare(parsed, state, rng)
            made += declared
            state = engine.resolve(state, engine.check_declarations(state, declared), dice).state
    return made


def words(value, ids: set[str]):
    """Every key and every word value of a declaration (`ids`: combatant ids and the values of options the
    text names; path hexes aside)."""
    if isinstance(value, dict):
        for key, inner in value.items():
            yield key
            if key != "path":
                yield from words(inner, ids)
    elif isinstance(value, list):
        for inner in value:
            yield from words(inner, ids)
    elif isinstance(value, str) and value not in ids:
        yield value


@pytest.mark.parametrize("ruleset_id", sorted(SAMPLES))
def test_the_text_names_every_key_and_word_the_duel_rules_declare(ruleset_id):
    text = fight_policy(ruleset_id)
    seen: set[str] = set()
    for matchup in SAMPLES[ruleset_id].values():
        made = declarations_of_fights(ruleset_id, matchup)
        assert made
        ids = {d["combatant"] for d in made} | {d.get("target") for d in made}
        ids |= {a.get("target") for d in made for a in d.get("actions", [])}
        ids |= {value for option, value in (matchup.get("options") or {}).items()
                if isinstance(value, str) and f"`{option}`" in text}
        seen |= set(words(made, ids))
    missing = sorted(word for word in seen if f'"{word}"' not in text and f"`{word}`" not in text)
    assert not missing, f"{ruleset_id}'s fight policy never names {missing}"


def test_war_and_combat_fighters_start_in_the_columns_the_text_gives():
    ruleset = registry.get("war-and-combat")
    state = ruleset.engine.write_state(ruleset.duel.start(ruleset.duel.read_matchup(
        WAR_AND_COMBAT["three sides, pressing"])))
    placed = {c["id"]: (c["position"]["q"], c["position"]["r"], c["facing"]) for c in state["combatants"]}
    assert placed == {"red1": (0, 0, 0), "red2": (0, 1, 0), "blue1": (1, 0, 3), "blue2": (1, 1, 3),
                      "green1": (2, 0, 3), "green2": (2, 1, 3)}
