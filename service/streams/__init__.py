"""Encounter event streams (SSE) that cost almost nothing while idle.

Under gunicorn's `StreamWorker` (deploy/gunicorn.conf.py) a stream's connection leaves the request thread
pool as soon as its headers are sent: one `StreamHub` thread per worker process writes every open stream,
fed by ONE Redis pub/sub connection per process (subscribed to the encounters it streams), so open streams never take a thread from the
calculators. Anywhere else (Flask's test client, other worker classes) a stream holds a thread as before.
Open streams are capped per client and per encounter across all workers (`admission`).
"""

HANDOFF = "referee.stream.handoff"  # WSGI environ key set by StreamWorker: the view may hand its socket off
