"""Referee's binding rulings for the `tactical` ruleset, as data the API serves (full text: docs/RULINGS.md)."""
from __future__ import annotations

from typing import Any

RULINGS: tuple[dict[str, str], ...] = (
    {"id": "R1", "topic": "d100", "ruling": "A d100 reads 1..100 (00 = 100); a check succeeds when roll <= chance."},
    {"id": "R2", "topic": "rounding", "ruling": "Every rounding is half up, once, at the end of each formula; "
                                                "exact fractions before it."},
    {"id": "R3", "topic": "progressive", "ruling": "progressive(n) = n(n+1)/2 by default; `linear` (n) selectable."},
    {"id": "R4", "topic": "task resolution", "ruling": "Referee's default TRT (not the game's): round_half_up(100 "
                                                       "AV/(AV+DV)) clamped 1..99; AV<=0 -> 1; DV<=0 -> 99. "
                                                       "`linear` and caller tables selectable."},
    {"id": "R5", "topic": "melee and ranged rolls", "ruling": "One d100 by the attacker against TRT(AV, DV); true "
                                                              "contests only for surprise, body checks, struggles and "
                                                              "intimidation."},
    {"id": "R6", "topic": "heroic and bumble", "ruling": "Heroic: a success with roll <= round(chance/10). Bumble: a "
                                                         "failure with roll >= 100 - round((100-chance)/10)."},
    {"id": "R7", "topic": "reuse", "ruling": "The n-th use of a skill or defence in a CS is round(value/2^(n-free)); "
                                             "0 means unavailable; parrying a Reprisal with the weapon that missed "
                                             "halves its current DV."},
    {"id": "R8", "topic": "ranged DV", "ruling": "Aware: Dodge (+ shield) + range DV + mph; unaware and moving: AGL "
                                                 "mod (+ shield) + range DV + mph; unaware and still: max(1, range DV)."},
    {"id": "R9", "topic": "range bands", "ruling": "Bows 15/60/80/100 yd, short bows and slings 11/42/56/70 yd, "
                                                   "hurled hilted 9/36/48/60 ft, hafted 13/50/67/84 ft; STR and "
                                                   "elevation shift S/M/L, PB = S/4; range DV summed band by band."},
    {"id": "R10", "topic": "weapon classes", "ruling": "Weight class index 0..5 (light .. very-heavy); DB = table "
                                                       "6-5, DM = its table; under Body Points DM replaces DB."},
    {"id": "R11", "topic": "potence", "ruling": "One-handed and hurled (mSTA+STR)/2, hand-and-a-half x3/4, "
                                                "two-handed mSTA+STR, + DB; charge + mph; slash uses CRD; bows STR + "
                                                "DB + arrowhead; crossbows fixed; brawling 1/10."},
    {"id": "R12", "topic": "armor and wear", "ruling": "A blow meets min(L, R) of each layer; wear (DB) then comes "
                                                       "off R of the outermost layer with DR; slash and thrust as "
                                                       "docs/RULINGS.md says."},
    {"id": "R13", "topic": "wounds", "ruling": "WT = (mSTA+CND)/8 exact; one wound per multiple exceeded; edge or "
                                               "point through no armor wounds at least once; 10th wound: P-RES vs "
                                               "55 or death; 11th: death."},
    {"id": "R14", "topic": "stun by pain", "ruling": "E = POT through - P-RES; P-RES vs progressive(E) or "
                                                     "unconscious; HRT vs the same: penalty progressive(E), half on "
                                                     "success; halves each CS."},
    {"id": "R15", "topic": "scales", "ruling": "25mm = 5 mm/ft, 10mm = 2 mm/ft, 5mm = 1 mm/ft; pulse conversions "
                                               "by the generating rule; `verbatim` gives the printed cells."},
    {"id": "R16", "topic": "pulse move", "ruling": "The first pulse of continuous movement is at most half rate; a "
                                                   "pulse without movement restarts the ramp."},
    {"id": "R17", "topic": "initiative", "ruling": "d10 + AWA mod + HRT mod - stun; ties by AGL, HRT, then id "
                                                   "(or a seeded coin); actions in passes, most actions first."},
    {"id": "R18", "topic": "surprise", "ruling": "Outcomes by the contested margins; equal margins: not surprised."},
    {"id": "R19", "topic": "scope", "ruling": "What the text leaves to the GM is an explicit input with a "
                                              "documented default; every trace names the ruling used."},
)

OPTIONS: dict[str, Any] = {
    "task_resolution": {"default": "ratio", "choices": ["ratio", "linear", "table"],
                        "where": "to-hit `task_resolution.method`; encounter `options.task_resolution`"},
    "progression": {"default": "triangular", "choices": ["triangular", "linear"],
                    "where": "damage `options.progression`; encounter `options.progression`"},
    "heroic": {"default": True, "where": "to-hit `options.heroic`; encounter `options.heroic`"},
    "bumble": {"default": True, "where": "to-hit `options.bumble`; encounter `options.bumble`"},
    "heroic_doubles_pot": {"default": True, "where": "encounter `options.heroic_doubles_pot`; damage "
                                                     "`options.heroic_double` (default false per blow)"},
    "armor_wear": {"default": True, "where": "damage `options.armor_wear`; encounter `options.armor_wear`"},
    "body_points": {"default": False, "where": "damage and armor-wear `options.body_points`"},
    "reprisals": {"default": True, "where": "encounter `options.reprisals`; declaration `reprisal`"},
    "pulse_move": {"default": False, "where": "encounter `options.pulse_move`"},
    "knockback_moves": {"default": True, "where": "encounter `options.knockback_moves`"},
    "tie_break": {"default": "alphabetical", "choices": ["alphabetical", "coin"],
                  "where": "initiative `tie_break`; encounter `options.tie_break`"},
    "pass_order": {"default": "passes", "choices": ["passes", "extra-first"], "where": "initiative `pass_order`"},
    "verbatim": {"default": False, "where": "pulse `verbatim`"},
    "free_defence_uses": {"default": 1, "where": "to-hit `free_defence_uses`; combatant `free_dodges`"},
}
