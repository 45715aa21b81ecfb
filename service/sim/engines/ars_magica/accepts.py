"""Which parsed `ars-magica` matchups the vectorised duel plays exactly as the resolver loop would.

Every option of the ruleset either changes nothing in a one-on-one melee duel (missile, movement, magic,
two-weapon and declaration-order options; rulings with a single choice) or is played by the engine
(`HANDLED`); a new option fails `accepts` until it is sorted into one of the two lists."""
from __future__ import annotations

from typing import Any

from service.rules.ars_magica.engine import LAST_ROUND
from service.rules.ars_magica.options import OPTIONS
from service.rules.ars_magica.totals import weapon_of

HANDLED = ("botch_dice", "attack_tie", "exceptional_margin", "defence_uses", "defence_size_sign", "penalties_apply",
           "all_out_doubles", "exceptional_effects", "body_levels", "fatigue_levels", "armor_pack", "weapon_pack",
           "botch_effects", "ai_stance", "size_adds_levels", "melee_order", "max_rounds")
IDLE_IN_A_DUEL = ("missile_exceptional_margin", "missile_attack_characteristic", "spell_tie", "round_seconds",
                  "movement_halving", "declaration_order", "missile_schedule_start", "desperate_defence_rolls",
                  "two_weapon_penalties_on", "botched_total", "initiative_tie", "botch_index", "multiple_botches")


def accepts(matchup: Any) -> bool:
    """Two fighters on two sides with melee weapons and no timed effects, options all sorted, and room for
    every round under the state's own round bound."""
    people, options = matchup.combatants, matchup.options
    if len(people) != 2 or people[0]["side"] == people[1]["side"]:
        return False
    if set(OPTIONS) != set(HANDLED) | set(IDLE_IN_A_DUEL):
        return False
    if matchup.round + int(options["max_rounds"]) > LAST_ROUND:
        return False
    return all(not c["effects"] and not weapon_of(c["weapon"], options["weapon_pack"], ("weapon",)).missile
               for c in people)
