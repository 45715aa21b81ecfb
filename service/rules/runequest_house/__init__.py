"""`runequest-house`: RuneQuest-3-style house rules (seed 004) - statement of intent, strike ranks, percentile
degrees, dodge and parry by degree, knockback, grappling, armor layering (`../shared/rules/runequest-house.md`).

What the seed takes from the RQ3 core book ships as the overridable `rq3` data pack (`data/`, `pack.py`);
every inferred, core or invented ruling is an option (`options.py`) and an assumption (`data/assumptions.json`).
"""
from __future__ import annotations

from service.rules.interface import Ruleset, assumptions_from
from service.rules.runequest_house import pack, tables
from service.rules.runequest_house.duel import DUEL
from service.rules.runequest_house.engine import ENGINE
from service.rules.runequest_house.options import OPTIONS

RULESET = Ruleset(
    id="runequest-house",
    name="RuneQuest house rules",
    source="004_f79db534c74a6ff0.txt: RuneQuest 3rd edition house rules replacing the combat chapter",
    summary="Percentile skills with critical/special/fumble degrees, statement of intent, strike ranks, dodge "
            "and parry by degree, knockback, grappling and armor layering; RQ3 core values as an overridable pack.",
    tables=tables.TABLES,
    table_titles=tables.TITLES,
    options=OPTIONS,
    assumptions=assumptions_from(pack.assumptions()),
    engine=ENGINE,
    duel=DUEL,
)
