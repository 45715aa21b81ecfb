"""One melee attack in many fights at once: defence choice, the d100 roll, POT, armor, wounds, pain.

Arguments `t`, `a`, `d` are equal-length index arrays (trial row, attacker, defender) with each
trial at most once, so fancy-index writes never collide. Follows digest section 17 step 3.3.
"""
from __future__ import annotations

import numpy as np

from service.sim.matchup import Matchup
from service.sim.state import COLLAPSED, DEAD, UNCONSCIOUS, State
from service.sim.vrules import (bumble_floor, chance, div_half_up, halve_times, heroic_limit,
                                progressive, wounds_from)

WEAPON = 0  # every combatant attacks with the first weapon listed (Referee's simulation ruling)
DEATH_CHECK_DV = 55  # 10th wound: P-RES vs 55 or death (RULINGS 13)


def strike(m: Matchup, st: State, rng: np.random.Generator, t: np.ndarray, a: np.ndarray,
           d: np.ndarray, counts: dict[str, int], reprisal: bool = False) -> np.ndarray:
    """Seed 000 "Resolving the Battle": attack, defence, roll and, on a hit, the blow; returns `hit`."""
    arr, opt = m.arrays, m.options
    av = halve_times(arr["w_av"][a, WEAPON], st.uses[t, a, WEAPON]) - st.pain()[t, a]
    st.uses[t, a, WEAPON] += 1
    dv = _defend(m, st, t, d, reprisal)
    pct = chance(av, dv, opt.method)
    roll = rng.integers(1, 101, len(t))
    hit = roll <= pct
    heroic = hit & (roll <= heroic_limit(pct)) if opt.heroic else np.zeros_like(hit)
    counts["attacks"] += len(t)
    counts["hits"] += int(hit.sum())
    counts["heroics"] += int(heroic.sum())
    counts["bumbles"] += int((~hit & (roll >= bumble_floor(pct))).sum()) if opt.bumble else 0
    counts["reprisals"] += len(t) if reprisal else 0
    counts["reprisal_hits"] += int(hit.sum()) if reprisal else 0
    if hit.any():
        pot = _potence(m, st, t[hit], a[hit]) * np.where(heroic[hit], 2, 1)
        land_blow(m, st, rng, t[hit], a[hit], d[hit], pot)
    return hit


def _defend(m: Matchup, st: State, t: np.ndarray, d: np.ndarray, reprisal: bool) -> np.ndarray:
    """The best Defence DV the defender actually has (Parry with a weapon or Dodge), minus his stun
    penalty (RULINGS 7, 14, A34; the resolver's `exchange._choose`). First best wins ties, parries first.

    Against a Reprisal weapon 0 (the one that just missed) gives half its DV as it stood before the failed
    attack and that is not a use; if it had not defended yet this CS its next defence is at full DV, as
    if first (seed: Reprisal). Weapons without a Parry and a Dodge DV of 0 are no defence.
    """
    arr = m.arrays
    base = arr["w_parry"][d]
    uses = st.uses[t, d]
    parry = np.where(base > 0, halve_times(base, uses), -1)
    recovered = st.recovered[t, d]
    parry[:, WEAPON] = np.where(recovered & (base[:, WEAPON] > 0), base[:, WEAPON], parry[:, WEAPON])
    if reprisal:
        diminished = halve_times(base[:, WEAPON], np.maximum(uses[:, WEAPON] - 1, 0))
        parry[:, WEAPON] = np.where(base[:, WEAPON] > 0, div_half_up(diminished, 2), -1)
    spent = np.maximum(st.dodges[t, d] + 1 - arr["free_dodges"][d], 0)
    dodge = np.where(arr["dodge_dv"][d] > 0, halve_times(arr["dodge_dv"][d], spent), -1)
    options = np.column_stack([parry, dodge])
    pick = options.argmax(axis=1)
    dv = options[np.arange(len(t)), pick]
    _count_defence(st, t, d, pick, dv >= 0, pick == parry.shape[1], reprisal)
    return np.maximum(np.maximum(dv, 0) - st.pain()[t, d], 0)


def _count_defence(st: State, t: np.ndarray, d: np.ndarray, pick: np.ndarray, real: np.ndarray,
                   by_dodge: np.ndarray, reprisal: bool) -> None:
    """Count the defence chosen as a use (the resolver's `exchange._count`)."""
    st.dodges[t[by_dodge & real], d[by_dodge & real]] += 1
    weapon = real & ~by_dodge
    if reprisal:
        missed = weapon & (pick == WEAPON)
        tm, dm = t[missed], d[missed]
        st.recovered[tm, dm] |= ~st.parried[tm, dm]
        weapon &= ~missed
    tw, dw, pw = t[weapon], d[weapon], pick[weapon]
    first = (pw == WEAPON) & st.recovered[tw, dw]
    st.uses[tw, dw, pw] = np.where(first, 1, st.uses[tw, dw, pw] + 1)
    zero = pw == WEAPON
    st.parried[tw[zero], dw[zero]] = True
    st.recovered[tw[zero], dw[zero]] = False


def _potence(m: Matchup, st: State, t: np.ndarray, a: np.ndarray) -> np.ndarray:
    """POT = round_half_up(grip share of (mSTA + effective STR)) + DB (F9-F12); effective STR is
    halved at Grievous (4-6 wounds) and quartered at Mortal (7+) (RULINGS 13)."""
    arr = m.arrays
    wounds = st.wounds[t, a]
    quarters = np.where(wounds >= 7, 1, np.where(wounds >= 4, 2, 4))
    num = (4 * arr["msta"][a] + quarters * arr["strength"][a]) * arr["w_pot_num"][a, WEAPON]
    return div_half_up(num, 4 * arr["w_pot_den"][a, WEAPON]) + arr["w_db"][a, WEAPON]


def land_blow(m: Matchup, st: State, rng: np.random.Generator, t: np.ndarray, a: np.ndarray,
          d: np.ndarray, pot: np.ndarray) -> None:
    """A blow that landed: armor (F19) and wear (F20), wounds (F23-F24), pain (F25), death (RULINGS 13).

    Knock-back (F16) only moves the target; positions are ignored, so it has no effect here.
    """
    arr, opt = m.arrays, m.options
    db = arr["w_db"][a, WEAPON]
    dur = st.durability[t, d]
    met = np.maximum(np.minimum(arr["a_dr"][d], dur), 0)
    total = met.sum(axis=1)
    left = np.maximum(pot - total, 0)
    if opt.armor_wear:
        _wear(st, t, d, met, dur, db)
    wounds = wounds_from(left, arr["msta"][d] + arr["cnd"][d])
    exempt = (arr["w_edged"][a, WEAPON] == 1) & (total == 0) & (left > 0)
    _pain(m, st, rng, t, d, left)
    _wound(m, st, rng, t, d, np.where(exempt, np.maximum(wounds, 1), wounds))


def _wear(st: State, t: np.ndarray, d: np.ndarray, met: np.ndarray, dur: np.ndarray, db: np.ndarray) -> None:
    """The outermost layer with DR left loses the weapon's DB from its wear number; no overflow (A23, A24)."""
    worn = met > 0
    has = worn.any(axis=1)
    layer = worn.argmax(axis=1)[has]
    rows = np.nonzero(has)[0]
    st.durability[t[has], d[has], layer] = np.maximum(dur[rows, layer] - db[has], 0)


def _pain(m: Matchup, st: State, rng: np.random.Generator, t: np.ndarray, d: np.ndarray,
          left: np.ndarray) -> None:
    """Stun by pain (F25, RULINGS 14): P-RES check or unconscious; HRT check sets the penalty."""
    arr, opt = m.arrays, m.options
    excess = left - arr["pres"][d]
    hurt = excess > 0
    t, d, excess = t[hurt], d[hurt], excess[hurt]
    dv = progressive(excess, opt.progression)
    awake = rng.integers(1, 101, len(t)) <= chance(arr["pres"][d], dv, opt.method)
    steady = rng.integers(1, 101, len(t)) <= chance(arr["hrt"][d], dv, opt.method)
    st.status[t[~awake], d[~awake]] = np.maximum(st.status[t[~awake], d[~awake]], UNCONSCIOUS)
    penalty = np.where(steady, div_half_up(dv, 2), dv)
    worse = penalty > st.pain()[t, d]
    st.pain0[t[worse], d[worse]] = penalty[worse]
    st.pain_age[t[worse], d[worse]] = 0


def _wound(m: Matchup, st: State, rng: np.random.Generator, t: np.ndarray, d: np.ndarray,
           new: np.ndarray) -> None:
    """Add wounds; the 10th collapses the target and asks P-RES vs 55, an 11th kills (RULINGS 13)."""
    arr, opt = m.arrays, m.options
    before = st.wounds[t, d]
    after = before + new
    st.wounds[t, d] = np.minimum(after, 11)
    tenth = (before < 10) & (after >= 10)
    survives = rng.integers(1, 101, len(t)) <= chance(arr["pres"][d], DEATH_CHECK_DV, opt.method)
    fate = np.where(after >= 11, DEAD, np.where(tenth, np.where(survives, COLLAPSED, DEAD), 0))
    st.status[t, d] = np.maximum(st.status[t, d], fate).astype(np.int8)
