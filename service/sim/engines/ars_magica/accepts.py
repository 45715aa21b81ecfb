"""Which parsed `ars-magica` matchups the vectorised engine plays exactly as the resolver loop would.

Every option of the ruleset either changes nothing in a melee fought by the duel policy (missile, movement,
magic, two-weapon and declaration-order options; rulings with a single choice) or is played by the engine
(`HANDLED`); a new option fails `accepts` until it is sorted into one of the two lists. Missile weapons are
the loop's: shots depend on ranges, positions and rate schedules the engine does not keep."""
from __future__ import annotations

from typing import Any

from service.rules.ars_magica.engine import LAST_ROUND
from service.rules.ars_magica.options import OPTIONS
from service.rules.ars_magica.totals import weapon_of

HANDLED = ("botch_dice", "attack_tie", "exceptional_margin", "defence_uses", "defence_size_sign", "penalties_apply",
           "all_out_doubles", "exceptional_effects", "body_levels", "fatigue_levels", "armor_pack", "weapon_pack",
           "botch_effects", "ai_stance", "size_adds_levels", "melee_order", "max_rounds", "desperate_defence_rolls")
IDLE_IN_MELEE = ("missile_exceptional_margin", "missile_attack_characteristic", "spell_tie", "round_seconds",
                 "movement_halving", "declaration_order", "missile_schedule_start", "two_weapon_penalties_on",
                 "botched_total", "initiative_tie", "botch_index", "multiple_botches")


def accepts(matchup: Any) -> bool:
    """Any number of fighters on any number of sides, all with melee weapons (effects, engagements, stances
    and levels lost as the matchup gives them), options all sorted, and room for every round under the
    state's own round bound."""
    people, options = matchup.combatants, matchup.options
    if set(OPTIONS) != set(HANDLED) | set(IDLE_IN_MELEE):
        return False
    if matchup.round + int(options["max_rounds"]) > LAST_ROUND:
        return False
    return not any(weapon_of(c["weapon"], options["weapon_pack"], ("weapon",)).missile for c in people)
