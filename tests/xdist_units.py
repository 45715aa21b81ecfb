"""How `make test` splits the suite over its two pytest-xdist workers (`-n 2 --dist loadscope`).

Each test module is one unit of work, so its module-scoped servers start once (tests/e2e is one unit as a
whole: its conftest starts one gunicorn for the directory). Schemathesis's operations are independent and
the longest part of the suite: they come last, one test at a time to whichever worker is free, so the two
workers finish within about one operation of each other.
"""
from __future__ import annotations

ONE_UNIT_DIRECTORIES = ("tests/e2e/",)
SPREAD_LAST = "tests/contract/test_schemathesis.py"


def unit_of(nodeid: str) -> str:
    """The unit of work a test belongs to: itself in SPREAD_LAST, else its directory or module."""
    path = nodeid.split("::", 1)[0]
    if path == SPREAD_LAST:
        return nodeid
    return next((directory for directory in ONE_UNIT_DIRECTORIES if path.startswith(directory)), path)


def spread_last(items: list) -> None:
    """Move SPREAD_LAST's tests to the end, keeping the order of the rest."""
    items.sort(key=lambda item: item.nodeid.startswith(SPREAD_LAST + "::"))


def make_scheduler(config, log):
    """LoadScopeScheduling on `unit_of`, sending units in the workers' collection order."""
    from xdist.scheduler import LoadScopeScheduling

    class UnitsThenOperations(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return unit_of(nodeid)

    config.option.loadscopereorder = False  # by default loadscope sends the units with most tests first
    return UnitsThenOperations(config, log)
