"""The stream hub's pub/sub reply reader: every reply, however the bytes are cut into reads."""
from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from redis.exceptions import ResponseError

from service.streams.subscription import RespReader

WIRE = (b">3\r\n$9\r\nsubscribe\r\n$7\r\nchannel\r\n:1\r\n"  # RESP3 push
        b"*3\r\n$7\r\nmessage\r\n$7\r\nchannel\r\n$11\r\n{\"a\":\r\n\"b\"}\r\n"  # RESP2 array, CRLF inside data
        b"+PONG\r\n"
        b"*2\r\n$4\r\npong\r\n$0\r\n\r\n"
        b"-ERR wrong\r\n"
        b"*2\r\n$-1\r\n_\r\n")
REPLIES = [[b"subscribe", b"channel", 1], [b"message", b"channel", b'{"a":\r\n"b"}'], b"PONG", [b"pong", b""],
           "error", [None, None]]


def _same(got: list, expected: list) -> bool:
    return len(got) == len(expected) and all(
        isinstance(g, ResponseError) if e == "error" else g == e for g, e in zip(got, expected))


def test_a_whole_burst_reads_as_every_reply_in_order():
    assert _same(RespReader().feed(WIRE), REPLIES)


@given(st.lists(st.integers(min_value=0, max_value=len(WIRE)), max_size=12))
def test_replies_cut_anywhere_are_still_read_whole_and_in_order(cuts):
    reader, got, start = RespReader(), [], 0
    for end in sorted(cuts) + [len(WIRE)]:
        got += reader.feed(WIRE[start:end])
        start = end
    assert _same(got, REPLIES)
