"""The gunicorn worker stops once however many stop signals reach it (service/streams/worker.py): Ctrl-C in a
terminal sends SIGINT to every process and the master follows with SIGQUIT, which can land inside the first
handler. gthread's handler takes the thread pool's shutdown lock, so running it again there hung the worker
until the master killed it 20 s later (seen in `make run`'s Ctrl-C tests)."""
from __future__ import annotations

import signal

from gunicorn.workers.gthread import ThreadWorker

from service.streams.worker import StreamWorker


def test_a_stop_signal_inside_the_first_handler_is_left_to_it(monkeypatch):
    worker = StreamWorker.__new__(StreamWorker)
    worker._quitting = False
    handled = []

    def gthread_quit(self, sig, frame):
        handled.append(sig)
        worker.handle_quit(signal.SIGQUIT, None)  # the master's SIGQUIT arrives while this one runs

    monkeypatch.setattr(ThreadWorker, "handle_quit", gthread_quit)
    worker.handle_quit(signal.SIGINT, None)
    assert handled == [signal.SIGINT]
