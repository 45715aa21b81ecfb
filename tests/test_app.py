"""The app factory, docs page and error shape."""


def test_rulesets_lists_tactical(client):
    body = client.get("/v1/rulesets").get_json()
    listed = [r["id"] for r in body["rulesets"]]
    assert "tactical" in listed and listed == sorted(listed)


def test_unknown_ruleset_is_problem_json(client):
    response = client.get("/v1/rulesets/nope")
    assert response.status_code == 404
    assert response.mimetype == "application/problem+json"
    assert response.get_json()["errors"][0]["field"] == "ruleset"


def test_docs_page_is_served_without_a_cdn(client):
    page = client.get("/docs")
    assert page.status_code == 200
    assert b"/docs/static/swagger-ui-bundle.js" in page.data
    asset = client.get("/docs/static/swagger-ui-bundle.js")
    assert asset.status_code == 200
    asset.close()


def test_unknown_path_is_problem_json(client):
    response = client.get("/v1/nothing-here")
    assert response.status_code == 404
    assert response.mimetype == "application/problem+json"
