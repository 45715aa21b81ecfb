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
    for path in ("/docs", "/docs/"):
        page = client.get(path)
        assert page.status_code == 200, path
        assert b"/docs/static/swagger-ui-bundle.js" in page.data and b"https://" not in page.data
    asset = client.get("/docs/static/swagger-ui-bundle.js")
    assert asset.status_code == 200
    version = client.get("/docs/static/VERSION")
    assert b"swagger-ui-dist 5." in version.data  # Swagger UI 5 reads OpenAPI 3.1; 4.x cannot
    version.close()
    asset.close()
    licence = client.get("/docs/static/LICENSE")
    assert licence.status_code == 200 and b"Apache License" in licence.data
    licence.close()


def test_a_favicon_is_served(client):
    icon = client.get("/favicon.ico")
    assert icon.status_code == 200 and icon.mimetype == "image/png" and icon.data[:4] == b"\x89PNG"
    icon.close()


def test_unknown_path_is_problem_json(client):
    response = client.get("/v1/nothing-here")
    assert response.status_code == 404
    assert response.mimetype == "application/problem+json"


def test_the_rulings_document_is_tracked_not_ignored():
    from pathlib import Path

    ignored = (Path(__file__).resolve().parents[1] / ".gitignore").read_text(encoding="utf-8")
    assert not any("RULINGS" in line or line.strip() in {"docs/", "docs", "*.md"} for line in ignored.splitlines())
