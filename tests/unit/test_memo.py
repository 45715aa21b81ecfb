"""The smoting calculators' memory: a question asked again is answered from it, and nothing that changes the
answer is left out of its key (the dice never count: rolls are not remembered)."""
from service.rules.memo import remembered


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
