"""Remembered answers: a question asked again is answered from memory, nothing that changes the answer is
left out of its key (the dice never count: rolls are not remembered), and every memo of a process shares one
store bounded by estimated bytes (issue 22 item 5)."""
from fractions import Fraction

from service.rules import memo
from service.rules.memo import MISSING, Store, bounded, remembered, size_of
from service.rules.trace import Step
from tests.app_config import isolated_config


def counted():
    calls = []

    @remembered
    def answer(body, options):
        calls.append((body, options))
        return len(calls)
    return answer, calls


def test_the_same_question_is_answered_from_memory_whatever_the_dice():
    answer, calls = counted()
    options = {"threshold": 5, "pack": {"a": [1, 2]}}
    assert answer({"dice": 3, "seed": 1}, options) == answer({"dice": 3, "seed": 2, "rolls": {"x": [1]}},
                                                            dict(options)) == 1
    assert len(calls) == 1


def test_values_python_calls_equal_are_different_questions():
    answer, _ = counted()
    seen = {answer({"v": value}, {}) for value in (1, True, 1.0)}
    assert len(seen) == 3
    assert len({answer({}, {"o": value}) for value in (0, False, 0.0)}) == 3


def test_every_option_and_nested_field_is_in_the_key():
    answer, _ = counted()
    base = answer({"defence": {"type": "dodge", "dice": 3}}, {"pack": {"a": [1, 2]}, "n": 1})
    assert answer({"defence": {"type": "parry", "dice": 3}}, {"pack": {"a": [1, 2]}, "n": 1}) != base
    assert answer({"defence": {"type": "dodge", "dice": 3}}, {"pack": {"a": [1, 3]}, "n": 1}) != base
    assert answer({"defence": {"type": "dodge", "dice": 3}}, {"pack": {"a": [1, 2]}, "n": 2}) != base
    assert answer({"defence": {"dice": 3, "type": "dodge"}}, {"pack": {"a": [1, 2]}, "n": 1}) == base


def test_an_equal_option_made_anew_is_the_same_question_and_a_different_one_is_not():
    answer, _ = counted()
    pack = {"a": [1, 2]}
    first = answer({}, {"pack": pack})
    assert answer({}, {"pack": {"a": [1, 2]}}) == first
    assert answer({}, {"pack": {"a": [9]}}) != first


def test_the_store_keeps_its_estimated_bytes_within_the_limit_dropping_the_least_recently_used():
    store = Store(limit=100_000)
    for n in range(100):
        store.put(("k", n), "x" * 5_000)
        if n >= 1:
            assert store.get(("k", 0)) == "x" * 5_000  # used again and again: kept
        assert store.bytes <= store.limit
    assert store.get(("k", 1)) is MISSING and store.get(("k", 99)) is not MISSING
    assert 15 <= len(store) <= 20 and store.bytes == sum(size for _, size in store._entries.values())


def test_an_entry_over_a_quarter_of_the_limit_is_answered_but_not_kept():
    store = Store(limit=100_000)
    store.put("big", "x" * 30_000)
    assert store.get("big") is MISSING and store.bytes == 0


def test_a_smaller_limit_drops_entries_at_once():
    store = Store(limit=100_000)
    for n in range(10):
        store.put(n, "x" * 5_000)
    store.resize(20_000)
    assert store.bytes <= 20_000 and store.get(9) is not MISSING and store.get(0) is MISSING


def test_size_of_counts_what_a_value_holds():
    assert size_of({"a": "x" * 100_000}) > 100_000
    assert size_of([Fraction(10**300, 3)] * 2) > 2 * 120  # a big numerator counted (once: the same object)
    assert size_of(Fraction(10**3000, 7)) > 1_200
    shared = ["y" * 10_000]
    assert size_of((shared, shared)) < 11_000  # what a container holds counts once, however often it is met
    assert size_of(Step("R", "d" * 5_000, 1)) > 5_000  # dataclass slots
    assert size_of(len) < 100 and size_of(Store) < 2_000  # functions and classes: only their reference


def test_bounded_answers_from_memory_within_the_process_bound(monkeypatch):
    monkeypatch.setattr(memo, "STORE", Store(limit=200_000))
    calls = []

    @bounded
    def spread(n):
        calls.append(n)
        return tuple(Fraction(k, n) for k in range(n))

    assert spread(50) is spread(50) and calls == [50]
    for n in range(1, 2_000):
        spread(n)
    assert memo.STORE.bytes <= 200_000 < sum(size_of(spread(n)) for n in range(1, 2_000))


def test_the_app_sets_the_bound_of_its_process():
    from service.app import create_app

    try:
        create_app(isolated_config(memo_bytes=1 << 20))
        assert memo.STORE.limit == 1 << 20
    finally:
        memo.configure(memo.DEFAULT_LIMIT)
