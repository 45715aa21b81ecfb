"""The fatigue roll (COMBAT SEQUENCE, *6. Fatigue*): asked for by the fatigue phase, an all-out attack and a
botch alike, so it sits below both phases.py and botches.py."""
from __future__ import annotations

from service.rules.ars_magica import checks, ladders
from service.rules.ars_magica.work import Round


def fatigue_roll(work: Round, ident: str, ease_factor: int, cause: str) -> None:
    """*6. Fatigue*: stress + Stm - Enc + wound and fatigue penalties >= EF, or one fatigue level lost."""
    person = work.people[ident]
    if not work.able(ident):
        return
    body = ladders.body_ladder(work.options, person["size"])
    total, _ = checks.fatigue_total(person["characteristics"]["stm"], 0 if person["mounted"] else person["encumbrance"],
                                    ladders.penalty(body, person["body_levels_lost"]),
                                    ladders.penalty(work.options["fatigue_levels"], person["fatigue_levels_lost"]), 0)
    check = checks.Check("fatigue", total, ease_factor, work.options["botch_dice"])
    value, word, _ = checks.roll_check(check, work.dice, work.options, ident, ("fatigue", "botch"))
    work.emit("fatigue_rolled", combatant=ident, total=total, ease_factor=ease_factor, roll=value, outcome=word,
              cause=cause)
    if word != "success":
        work.lose(ident, fatigue=1, cause="fatigue")
