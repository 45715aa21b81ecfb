"""Which parsed `war-and-combat` matchups the vectorised engine plays exactly as the resolver loop would.

Any number of fighters on any number of sides, placed by the duel policy or where the matchup puts them,
hurt, stunned, fallen, disarmed or surprised as the matchup says, under every option either played by the
engine (`HANDLED`) or never read by a melee of intention `kill` (`IDLE_IN_MELEE`); a new option fails
`accepts` until it is sorted into one of the two lists. The resolver loop keeps what the engine does not
play: a missile weapon (shots, strays, ranges), a duel intention other than `kill` (the COMBAT OPTIONS'
secondary effects) and the tactics `press` and `retreat` while `tactic_winner_moves` is on (positions
change between the flurries of one round)."""
from __future__ import annotations

from typing import Any

from service.rules.war_and_combat.option_specs import SPECS

HANDLED = ("tie_succeeds", "flank_defence", "no_defence_def", "critical_margin_includes_armor_bonus",
           "critical_keeps_offset", "impact_beyond_table", "size_beyond_table", "innate_absorption", "limb_side",
           "penalties_apply_to_defence", "penalties_apply_to_initiative", "initiative_tie_break", "stun_rounds",
           "mortal_vital_dying", "hit_swap_rule", "indefensible_attack_cost", "tactic_winner_moves",
           "off_arm_penalty", "impact_below_table", "flurry_initiative_tie", "points_rounding", "surprise_rule",
           "duel_intention", "duel_tactic", "max_rounds", "armor_pack", "weapon_pack")
IDLE_IN_MELEE = ("evading_defence", "point_blank_aware_as_melee", "combat_option_column", "shock_failure_rounds",
                 "skew_dice", "sprint_hexes", "creep_hexes", "balance_tl", "pass_through_base_tl",
                 "pass_through_per_hex", "swipe_tl", "shock_checks", "morale_checks", "unlisted_pace_penalty")


def accepts(state: Any) -> bool:
    """Melee weapons only, intention `kill`, no maneuver that moves fighters, options all sorted."""
    o = state.options
    if set(SPECS) != set(HANDLED) | set(IDLE_IN_MELEE) or o["duel_intention"] != "kill":
        return False
    if o["tactic_winner_moves"] and o["duel_tactic"] in ("press", "retreat"):
        return False
    return all(c["weapons"][0]["kind"] != "missile" for c in state.combatants)
