"""`StreamWorker`: gunicorn's gthread worker, except that an event stream's connection leaves the thread
pool once its response headers are sent, and is written from then on by the process's `StreamHub`.

The stream view asks for this through `environ[HANDOFF]` (present only under this worker): it returns a
body whose first iteration calls `environ[HANDOFF](adopt)`. That sends the headers with `Connection: close`
and no chunked framing (the body ends when the hub closes the socket, as HTTP/1.1 allows), then gives
the socket to `adopt`. The worker then forgets the connection without closing it: it no longer counts
against `worker_connections` nor holds a thread. TLS connections (gunicorn's own `certfile`) are not
handed off; they keep a thread each, as with plain gthread.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gunicorn.workers.gthread import ThreadWorker

from service.streams import HANDOFF


class StreamWorker(ThreadWorker):
    """gthread plus stream hand-off (see the module docstring)."""

    def init_process(self) -> None:
        self._detached: set[Any] = set()
        self._quitting = False
        super().init_process()

    def handle_quit(self, sig: int, frame: Any) -> None:
        """Stop now, once. Ctrl-C reaches every process of the terminal, so a worker gets SIGINT and then the
        master's SIGQUIT; the second used to land inside the first handler while it held the thread pool's
        shutdown lock (gthread's `handle_quit`), and the worker hung on it until the master killed it after
        `graceful_timeout` (20 s; 1 stop in about 8 on a loaded box). A later stop signal leaves it to the first."""
        quitting, self._quitting = self._quitting, True
        if not quitting:
            super().handle_quit(sig, frame)

    def load_wsgi(self) -> None:
        super().load_wsgi()
        app = self.wsgi

        def wsgi(environ: dict, start_response: Callable) -> Any:
            if not self.cfg.is_ssl and hasattr(start_response, "__self__"):
                environ[HANDOFF] = lambda adopt: self._hand_off(environ, start_response.__self__, adopt)
            return app(environ, start_response)

        self.wsgi = wsgi

    def _hand_off(self, environ: dict, response: Any, adopt: Callable[[Any], None]) -> None:
        """Send the headers of a close-delimited body now, then give the socket to `adopt`."""
        response.chunked = False
        response.force_close()
        response.send_headers()
        sock = environ["gunicorn.socket"]
        self._detached.add(sock)
        adopt(sock)

    def finish_request(self, conn: Any, fs: Any) -> None:
        """A handed-off connection is the hub's now: stop counting it, and neither close nor poll it."""
        if conn.sock in self._detached:
            self._detached.discard(conn.sock)
            self.nr_conns -= 1
            return
        super().finish_request(conn, fs)

    def run(self) -> None:
        try:
            super().run()
        finally:
            from service.streams.serving import stop_hubs

            stop_hubs()  # close this process's streams so their clients reconnect elsewhere at once
