"""The baseline for benchmarks: a bare Flask JSON endpoint, served by the same gunicorn config."""
from flask import Flask, jsonify, request

app = Flask("bare")


@app.post("/bare")
def bare():
    """Echo one field of the JSON body: the least work a JSON endpoint can do."""
    body = request.get_json()
    return jsonify({"ok": True, "av": body.get("av")})
