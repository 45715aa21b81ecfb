"""Committed dice (issue 25, items 1-2): the derivation as published, the generators that only roll dice,
and the uniformity of derived faces."""
from __future__ import annotations

import hashlib
import hmac
import random

import numpy as np
import pytest

from service.rules import committed
from service.rules.committed import CommittedRandom, SeededRecording, derived_face

SEED = bytes(range(32))
# chi-square critical values at p = 1e-3 for k - 1 degrees of freedom (d6, d10, d20, d100)
CRITICAL = {6: 20.515, 10: 27.877, 20: 43.820, 100: 148.230}


def by_the_book(seed: bytes, message: str, sides: int) -> int:
    """The README's words, one by one (j = 0 only: a rejection has probability sides / 2**64)."""
    x = int.from_bytes(hmac.new(seed, message.encode("utf-8"), hashlib.sha256).digest()[:8], "big")
    assert x < 2**64 - 2**64 % sides
    return 1 + x % sides


def test_a_derived_face_is_the_published_derivation():
    for n, sides in enumerate((20, 6, 100, 2, 1, 7)):
        assert derived_face(SEED, "table-7", "enc1", 3, n, sides) == by_the_book(SEED, f"table-7:enc1:3:{n}:0", sides)
    assert committed.commitment(SEED) == hashlib.sha256(SEED).hexdigest()


def test_a_rejected_word_tries_the_next_j(monkeypatch):
    words = iter([2**64 - 1, 5])  # the first word is in the rejected tail of a d6
    monkeypatch.setattr(committed, "word", lambda key, prefix, n, j: next(words))
    assert committed._face(committed.keyed(SEED), "p:", 0, 6) == 1 + 5 % 6


def test_every_random_choice_is_a_recorded_die_and_nothing_else_draws():
    draws: list = []
    rng = CommittedRandom(SEED, "c", "e", 0, draws)
    items = list("abcde")
    rng.shuffle(items)
    rng.choice(items), rng.randint(1, 20), rng.randrange(3)
    assert [s for s, _, _ in draws] == [5, 4, 3, 2, 5, 20, 3]  # a shuffle of 5 is a d5, d4, d3, d2
    assert all(not supplied and 1 <= face <= s for s, face, supplied in draws)
    assert [f for _, f, _ in draws] == [derived_face(SEED, "c", "e", 0, n, s) for n, (s, _, _) in enumerate(draws)]
    for refused in (rng.random, lambda: rng.getrandbits(8), lambda: rng.choices("ab"), lambda: rng.gauss(0, 1)):
        with pytest.raises(RuntimeError):
            refused()


def test_a_seeded_step_rolls_what_the_plain_generator_rolls_and_records_it():
    draws: list = []
    recording, plain = SeededRecording(42, draws), random.Random(42)
    rolled = [recording.randint(1, 100) for _ in range(50)]
    assert rolled == [plain.randint(1, 100) for _ in range(50)]
    assert draws == [(100, face, False) for face in rolled]


def test_derived_faces_are_uniform():
    """d6, d10, d20 and d100 over 10**6 draws each pass a chi-square test at 1e-3. One HMAC word per draw
    index n serves all four dice (the derivation of a d`s` at n is 1 + x % s of that word when accepted),
    so the million HMACs are computed once and the faces vectorised; a differential check ties the
    vectorised faces to `derived_face` itself."""
    count, key, prefix = 10**6, committed.keyed(SEED), "uniform:enc:0:"
    words = np.fromiter((committed.word(key, prefix, n, 0) for n in range(count)), dtype=np.uint64, count=count)
    for sides, critical in CRITICAL.items():
        assert (words < np.uint64(2**64 - 2**64 % sides)).all()  # no rejection at j = 0 in this sample
        faces = (words % np.uint64(sides)).astype(np.int64) + 1
        assert [int(f) for f in faces[:2000]] == [derived_face(SEED, "uniform", "enc", 0, n, sides)
                                                  for n in range(2000)]
        observed = np.bincount(faces, minlength=sides + 1)[1:]
        chi2 = float(((observed - count / sides) ** 2 / (count / sides)).sum())
        assert chi2 < critical, (sides, chi2)


@pytest.mark.parametrize("ruleset", ["smoting", "war-and-combat", "tactical"])
def test_a_seeded_encounter_step_rolls_what_the_stateless_resolver_rolls(ruleset):
    """The recording generator (and smoting's batched faces for it) changes no outcome of a seeded step."""
    from service.sessions.steps import resolve_once
    from tests.perf.dice_bench import twenty

    state, declarations = twenty()[ruleset]
    for seed in (1, 2, 3):
        draws: list = []
        recorded = resolve_once(ruleset, state, declarations, seed, (), None, SeededRecording(seed, draws), draws)
        assert recorded.events == resolve_once(ruleset, state, declarations, seed).events and draws
