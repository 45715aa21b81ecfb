"""Stopping a chunk while it runs: engines call `checkpoint()` once a step (a vectorised engine) or once a
round of a fight (the resolver loop), and whoever runs the chunk decides, through `watched`, what a
checkpoint checks (a cancelled job, a CPU limit) and raises. Outside `watched` a checkpoint does nothing."""
from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar
from typing import Callable, Iterator

_check: ContextVar[Callable[[], None] | None] = ContextVar("referee_sim_check", default=None)


class Stopped(Exception):
    """A chunk was stopped before it ended (its job was cancelled, or it ran past its CPU limit)."""


def checkpoint() -> None:
    """Raise (Stopped) here if whoever runs this chunk wants it to stop."""
    check = _check.get()
    if check is not None:
        check()


@contextmanager
def watched(check: Callable[[], None]) -> Iterator[None]:
    """Run a block whose checkpoints call `check`."""
    token = _check.set(check)
    try:
        yield
    finally:
        _check.reset(token)
