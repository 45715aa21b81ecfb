"""How `make test` splits the suite over its two pytest-xdist workers (`-n 2 --dist loadscope`).

Each test module is one unit of work, so its module-scoped servers start once (tests/e2e is one unit as a
whole: its conftest starts one gunicorn for the directory). Schemathesis's operations are independent and
the longest part of the suite, some of them minutes long: they come first, one test at a time to whichever
worker is free, so a long one runs beside the rest of the suite, and the many small unit-test modules at
the end of the collection even out the finish.
"""
from __future__ import annotations

ONE_UNIT_DIRECTORIES = ("tests/e2e/",)
SPREAD_FIRST = "tests/contract/test_schemathesis.py"


def unit_of(nodeid: str) -> str:
    """The unit of work a test belongs to: itself in SPREAD_FIRST, else its directory or module."""
    path = nodeid.split("::", 1)[0]
    if path == SPREAD_FIRST:
        return nodeid
    return next((directory for directory in ONE_UNIT_DIRECTORIES if path.startswith(directory)), path)


def name_operations(items: list) -> None:
    """Put each schemathesis test's operation into its node id. pytest 9.2 builds the id of schemathesis's
    per-operation tests from the function name alone, so all of them share one; xdist schedules by node id
    and would run only one of them."""
    for item in items:
        label = getattr(item, "operation_label", None)
        if label and item._id.params is None:
            item._id = item._id.with_params(label)


def check_unique_ids(items: list) -> None:
    """Refuse to run when two tests share a node id: xdist would silently run only one of them."""
    seen: set[str] = set()
    shared = sorted({item.nodeid for item in items if item.nodeid in seen or seen.add(item.nodeid)})
    if shared:
        raise RuntimeError(f"tests sharing a node id (xdist would run one of each): {shared[:5]}")


def spread_first(items: list) -> None:
    """Move SPREAD_FIRST's tests to the front, keeping the order of the rest."""
    items.sort(key=lambda item: not item.nodeid.startswith(SPREAD_FIRST + "::"))


def make_scheduler(config, log):
    """LoadScopeScheduling on `unit_of`, sending units in the workers' collection order."""
    from xdist.scheduler import LoadScopeScheduling

    class UnitsThenOperations(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return unit_of(nodeid)

    config.option.loadscopereorder = False  # by default loadscope sends the units with most tests first
    return UnitsThenOperations(config, log)
