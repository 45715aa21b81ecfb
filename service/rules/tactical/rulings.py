"""Referee's binding rulings for the `tactical` ruleset, as data the API serves (full text: docs/RULINGS.md)."""
from __future__ import annotations

from typing import Any

from service.rules.options import OptionSpec

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
                                             "halves its DV as it stood before that attack (not a use); its next "
                                             "defence that CS, if it had not defended before, is at full DV."},
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
                                                       "docs/RULINGS.md says. Without Armor Wear a layer has one DR: "
                                                       "a pierce takes 1 and a slash its POT off that DR."},
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
    {"id": "R20", "topic": "body-check bounce", "ruling": "Whoever is bounced (either side) flies the impact speed "
                                                          "(attacker's mph, + the target's when both move) + the "
                                                          "other's mSTA over his; a successful Dodge bounces nobody."},
    {"id": "R24", "topic": "moving mortally wounded", "ruling": "One wound per FULL stretch of (STR mod + CND mod) "
                                                                "feet: floor(feet / stretch), never rounded up."},
    {"id": "R25", "topic": "crossbow kept cocked", "ruling": "-1 POT to a crossbow's shot per full day it was kept "
                                                             "cocked (`days_cocked`, default 0), never below 0."},
)

def _option(default: Any, tag: str, summary: str, where: str, kind: str, **more: Any) -> OptionSpec:
    return OptionSpec(default, tag, summary, kind, extra={"where": where}, **more)


OPTIONS: dict[str, OptionSpec] = {
    "task_resolution": _option("ratio", "DEF", "Task Resolution Table: Referee's ratio formula (RULINGS 4), "
                               "the linear 50 + AV - DV, or a caller's AV x DV table.",
                               "to-hit `task_resolution.method`; encounter `options.task_resolution`", "enum",
                               choices=("ratio", "linear", "table")),
    "progression": _option("triangular", "INF", "Progressive DVs, bonuses and penalties: n(n+1)/2 or n "
                           "(RULINGS 3).", "damage `options.progression`; encounter `options.progression`",
                           "enum", choices=("triangular", "linear")),
    "heroic": _option(True, "DOC", "Heroic successes (a roll within a tenth of the chance) count (RULINGS 6).",
                      "to-hit `options.heroic`; encounter `options.heroic`", "bool"),
    "bumble": _option(True, "DOC", "Bumbles (the worst tenth of a failure) count (RULINGS 6).",
                      "to-hit `options.bumble`; encounter `options.bumble`", "bool"),
    "heroic_doubles_pot": _option(True, "INF", "A Heroic blow doubles its POT.",
                                  "encounter `options.heroic_doubles_pot`; damage `options.heroic_double` "
                                  "(default false per blow)", "bool"),
    "armor_wear": _option(True, "DOC", "The optional Armor Wear rules: L/R armor numbers and wear by DB "
                          "(RULINGS 12); off, each layer has one DR.",
                          "damage `options.armor_wear`; encounter `options.armor_wear`", "bool"),
    "body_points": _option(False, "DOC", "The optional Body Points rules: DM replaces DB (RULINGS 10).",
                           "damage and armor-wear `options.body_points`", "bool"),
    "reprisals": _option(True, "DOC", "A missed melee attack gives the defender an immediate Reprisal.",
                         "encounter `options.reprisals`; declaration `reprisal`", "bool"),
    "pulse_move": _option(False, "DOC", "Move figures pulse by pulse inside the Combat Segment (RULINGS 16).",
                          "encounter `options.pulse_move`", "bool"),
    "stray_fire": _option(True, "DOC", "A missed shot flies on at the figures in line beyond its target, "
                          "within its range band, nearest first, until one is hit.",
                          "encounter `options.stray_fire`", "bool"),
    "knockback_moves": _option(True, "DOC", "Knock-back moves the figure struck on the board.",
                               "encounter `options.knockback_moves`", "bool"),
    "tie_break": _option("alphabetical", "DEF", "Initiative ties after AGL and HRT: by id, or a seeded coin "
                         "(RULINGS 17).", "initiative `tie_break`; encounter `options.tie_break`", "enum",
                         choices=("alphabetical", "coin")),
    "pass_order": _option("passes", "INF", "Multiple actions: all first actions, then second ones (RULINGS "
                          "17), or every extra action first.", "initiative `pass_order`", "enum",
                          choices=("passes", "extra-first")),
    "verbatim": _option(False, "DOC", "Pulse conversions as printed in table 7-2 instead of by its "
                        "generating rule (RULINGS 15).", "pulse `verbatim`", "bool"),
    "free_defence_uses": _option(1, "DOC", "Uses of a defence in a CS before reuse halves it (RULINGS 7).",
                                 "to-hit `free_defence_uses`; combatant `free_dodges`", "int",
                                 minimum=1, maximum=100),
}
