"""POST /v1/tactical/task, /catch, /surprise-check, /mortal-wound, /after-battle and /healing: action times and
their checks, catching a falling object, the Surprise check with its trap and magic rules, and what comes
after the blows (seed 000, table 4-1, "Some Special Considerations", "Surprise!!", "Levels of Wounding",
"The Healing Process")."""
from __future__ import annotations

from fractions import Fraction

from service.api.http.blueprint import Blueprint
from service.api.kit import calculator as kit
from service.api.tactical.calculators import chance, chance_of
from service.api.tactical.schemas.aftermath import (
    AfterBattleRequestSchema,
    AfterBattleSchema,
    CatchRequestSchema,
    CatchSchema,
    HealingRequestSchema,
    HealingSchema,
    MortalWoundRequestSchema,
    MortalWoundSchema,
    SurpriseCheckRequestSchema,
    SurpriseCheckSchema,
    TaskRequestSchema,
    TaskSchema,
)
from service.rules.errors import Contradiction
from service.rules.rounding import exact
from service.rules.tactical import aftermath, falling, surprise, tasks, wounds
from service.rules.tactical.contest import pair_distribution, single_distribution
from service.rules.trace import Step

blp = Blueprint("tactical-aftermath", __name__,
                description="Action times and their checks, catching falling objects, the Surprise check "
                            "against traps and by magic users, Mortal wounds, STR after the battle and "
                            "healing (seed 000).")

TASK_FIELDS = {"action": ("action",), "rummage": ("items",), "untie": ("tier_str", "untier_str"),
               "string-bow": ("bow_str", "strength"), "cock-crossbow": ()}


@kit.calculator(blp, "/task", "tacticalTask", (TaskRequestSchema, TaskSchema), signed=False)
def post_task(body: dict) -> dict:
    """Table 4-1 and its footnotes: the actions a task takes and the check it needs, with its chance."""
    kind = body["kind"]
    missing = [name for name in TASK_FIELDS[kind] if body.get(name) is None]
    if missing:
        raise Contradiction(f"kind {kind} needs {', '.join(missing)}", (missing[0],))
    if kind == "action":
        found = tasks.table_action(body["action"], body["doff"])
    elif kind == "rummage":
        found = tasks.rummage(body["items"], body["mph"], body["progression"])
    elif kind == "untie":
        found = tasks.untie(body["tier_str"], body["tier_trade_sl"], body["untier_crd_mod"], body["untier_str"])
    elif kind == "string-bow":
        found = tasks.string_bow(body["bow_str"], body["strength"], body["progression"])
    else:
        found = tasks.cock_crossbow(body["crossbow"], body["tool"], body["built_in"], body["tool_at_hand"],
                                    body["days_cocked"])
    if body["double_time"]:
        found = tasks.double_time(found)
    return {**kit.exact("actions", found.actions), "check": found.check,
            "dv": found.dv, "per_attempt": found.per_attempt, "pot_penalty": found.pot_penalty,
            **chance("chance", body.get("av"), found.dv, body["task_resolution"]),
            "trace": kit.trace(found.trace)}


@kit.calculator(blp, "/catch", "tacticalCatch", (CatchRequestSchema, CatchSchema), signed=False)
def post_catch(body: dict) -> dict:
    """F33-F35, A39, F23-F24: the catch DV and chance, what the catcher absorbs, and the wounds of the rest."""
    c = body["catcher"]
    fall = falling.fall(exact(body["distance_feet"]), exact(body["weight_pounds"]),
                        falling.Catcher(c["modified_sta"], c["str_mod"], c["crd_mod"], c["armor_dr"]))
    threshold = wounds.wound_threshold(c["modified_sta"], c["cnd"])
    taken = wounds.wounds_from(fall.absorb.excess_pot, threshold)
    total = c["wounds"] + taken
    steps = [*fall.trace, Step(f"{wounds.THRESHOLD_RULE} (F23, F24)",
                               f"excess {fall.absorb.excess_pot} POT against WT ({c['modified_sta']} + {c['cnd']})/8",
                               taken)]
    return {"pulses": fall.pulses, "catch_dv": fall.catch_dv,
            **chance("catch_chance", c.get("crd_av"), fall.catch_dv, body["task_resolution"]),
            "impact_pot": fall.impact_pot, "capacity": fall.absorb.capacity, "excess_pot": fall.absorb.excess_pot,
            "wound_threshold": float(threshold), "wounds": taken, "total_wounds": total,
            "level": wounds.wound_level(total), "trace": kit.trace(steps)}


@kit.calculator(blp, "/surprise-check", "tacticalSurpriseCheck", (SurpriseCheckRequestSchema, SurpriseCheckSchema), signed=False)
def post_surprise_check(body: dict) -> dict:
    """Surprise!!: the target's AV (+ Spirit SL for magic users, + wait-and-see SL), the DV (a concealed trap's
    is its maker's craft AV), and the odds of each outcome (a mechanical trap is a simple roll)."""
    kind = body["kind"]
    dv = body.get("craft_av") if kind == "concealed-trap" and body.get("dv") is None else body.get("dv")
    if dv is None:
        raise Contradiction("give the check's `dv` (or `craft_av` for a concealed trap)", ("dv",))
    contested = kind in ("ambush", "ruse", "glamourie-trap")
    if contested and body.get("aggressor_chance") is None:
        raise Contradiction(f"a {kind} is a contested roll: give `aggressor_chance`", ("aggressor_chance",))
    av = body["target_av"] + body["spirit_sl"] + body["wait_and_see_sl"]
    chance = chance_of(av, dv, body["task_resolution"])
    if not contested:
        found = single_distribution(chance, lambda t: surprise.classify(None, t))
    elif kind == "glamourie-trap":
        found = pair_distribution(body["aggressor_chance"], chance, _glamourie)
    else:
        found = pair_distribution(body["aggressor_chance"], chance, surprise.classify)
    shares = {o: sum((p for v, p in found.items() if v.outcome == o), Fraction(0)) for o in surprise.OUTCOMES}
    expected = sum((p * v.duration_cs for v, p in found.items()), Fraction(0))
    steps = [Step(surprise.HEADING, f"AV {body['target_av']} + Spirit SL {body['spirit_sl']} + wait-and-see SL "
                                    f"{body['wait_and_see_sl']}", av),
             Step(surprise.HEADING, f"DV {dv}{' (the trap maker craft AV)' if kind == 'concealed-trap' else ''}; "
                                    f"{'contested roll' if contested else 'simple roll: a trap always surprises on a miss'}",
                  chance)]
    return {"target_av": av, "dv": dv, "target_chance": chance,
            **kit.exact("probabilities", shares), **kit.exact("expected_duration_cs", expected),
            "trace": kit.trace(steps)}


def _glamourie(aggressor_margin: int, target_margin: int) -> surprise.Verdict:
    """A glamourie trap: the usual contest, but a target who fails his check is surprised for certain."""
    if target_margin < 0 and aggressor_margin < 0:
        return surprise.classify(None, target_margin)
    return surprise.classify(aggressor_margin, target_margin)


@kit.calculator(blp, "/mortal-wound", "tacticalMortalWound", (MortalWoundRequestSchema, MortalWoundSchema), signed=False)
def post_mortal_wound(body: dict) -> dict:
    """F45, A27: wounds added by moving while Mortally wounded, and the death check at the 10th."""
    found = aftermath.mortal_move(exact(body["feet"]), body["str_mod"], body["cnd_mod"], body["wounds"])
    collapsed = found.status == "collapsed"
    dv = aftermath.final_wound_dv() if collapsed else None
    steps = list(found.trace)
    if collapsed:
        steps.append(Step(f"{aftermath.LEVELS} (A27)", f"10th wound: P-RES vs {dv} or death; then CND {body['cnd']} "
                                                       "minutes to live, P-RES vs 55 to stay conscious", dv))
    return {"feet_per_wound": found.feet_per_wound, "added_wounds": found.added, "total_wounds": found.total,
            "level": found.level, "status": found.status, "death_check_dv": dv,
            **chance("survive_chance", body.get("p_res_av"), dv, body["task_resolution"]),
            "minutes_to_live": aftermath.minutes_to_live(body["cnd"]) if collapsed else None,
            "trace": kit.trace(steps)}


@kit.calculator(blp, "/after-battle", "tacticalAfterBattle", (AfterBattleRequestSchema, AfterBattleSchema), signed=False)
def post_after_battle(body: dict) -> dict:
    """A28: STR once the adrenaline is gone, and how much slower END comes back."""
    found = aftermath.after_battle(body["strength"], body["wounds"])
    return {"level": found.level, "level_number": found.level_number, "strength": found.strength,
            "end_recovery_factor": found.end_recovery_factor, "trace": kit.trace(found.trace)}


@kit.calculator(blp, "/healing", "tacticalHealing", (HealingRequestSchema, HealingSchema), signed=False)
def post_healing(body: dict) -> dict:
    """The Healing Process: days to heal each wound in turn (or each Body Point), and the care needed."""
    if (body.get("wounds") is None) == (body.get("damage") is None):
        raise Contradiction("give exactly one of `wounds` and `damage`", ("wounds",))
    if body.get("wounds") is not None:
        found = aftermath.heal_wounds(body["wounds"], body["healer_sl"])
    else:
        found = aftermath.heal_body_points(body["damage"], body["cnd_mod"], body["healer_sl"])
    return {"schedule_days": list(found.schedule), "total_days": found.total_days, "bed_rest": found.bed_rest,
            "needs_skilled_healer": found.needs_skilled_healer, "heals": found.heals, "trace": kit.trace(found.trace)}
