"""JSON responses through orjson: the bytes Flask's provider would send, with fallbacks for the rest."""
from __future__ import annotations

import datetime
import decimal
import json

from flask import Flask

from service.api.http.json_output import FastJSONProvider


def provider(debug: bool = False) -> FastJSONProvider:
    app = Flask("json-test")
    app.debug = debug
    return FastJSONProvider(app)


def flask_bytes(obj) -> str:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def test_answers_are_the_compact_sorted_json_flask_writes():
    answer = {"pot": 20, "trace": [{"rule": "Weapon DB", "detail": "size 6", "value": 3.375}],
              "probabilities": {"success": 0.51, "heroic": 0.06}, "none": None, "ok": True, "name": "Ælfric ½"}
    assert provider().dumps(answer, separators=(",", ":")) == flask_bytes(answer)
    assert provider().dumps({2: "a", 1: "b"}) == '{"1":"b","2":"a"}'


def test_what_orjson_does_not_write_falls_back_to_flask():
    p = provider()
    assert json.loads(p.dumps({"n": 2 ** 70})) == {"n": 2 ** 70}
    assert p.dumps({"d": decimal.Decimal("1.5")}) == '{"d":"1.5"}'
    assert p.dumps({"t": datetime.datetime(2026, 11, 23, tzinfo=datetime.timezone.utc)}) == (
        '{"t":"Mon, 23 Nov 2026 00:00:00 GMT"}')
    assert provider(debug=True).response({"b": 1, "a": 2}).get_data(as_text=True) == '{\n  "a": 2,\n  "b": 1\n}\n'


def test_a_response_is_the_bytes_jsonify_wrote_before():
    answer = {"b": [1, 2.5, None], "a": {"z": True, "y": "Ælfric"}, 3: "three"}
    made = provider().response(answer)
    assert made.get_data() == (flask_bytes({str(k): v for k, v in answer.items()}) + "\n").encode()
    assert made.mimetype == "application/json" and made.status_code == 200
    assert provider().response({"n": 2 ** 70}).get_data() == b'{"n":1180591620717411303424}\n'
