"""End-to-end through gunicorn: the same answers a VTT would get over the network."""
import requests


def test_rulesets_and_tables_over_http(server_url):
    listing = requests.get(server_url + "/v1/rulesets", timeout=5)
    assert listing.status_code == 200
    assert listing.headers["ETag"]
    tactical = requests.get(server_url + "/v1/rulesets/tactical", timeout=5).json()
    for table in tactical["tables"]:
        response = requests.get(server_url + table["href"], timeout=5)
        assert response.status_code == 200, table
        again = requests.get(server_url + table["href"], headers={"If-None-Match": response.headers["ETag"]},
                             timeout=5)
        assert again.status_code == 304


def test_bad_json_is_a_problem_not_a_crash(server_url):
    response = requests.post(server_url + "/v1/tactical/to-hit", data="{not json",
                             headers={"Content-Type": "application/json"}, timeout=5)
    assert 400 <= response.status_code < 500
    assert response.headers["Content-Type"].startswith("application/problem+json")


def test_docs_and_spec_are_served(server_url):
    assert requests.get(server_url + "/docs", timeout=5).status_code == 200
    assert requests.get(server_url + "/openapi.json", timeout=5).json()["openapi"] == "3.1.0"
