"""A real browser (Debian's headless Chromium, driven by Playwright; no browser download) against
gunicorn: /docs renders every operation of the served spec, "Try it out" on one calculator of each ruleset
sends the documented example and gets 200, and a page from another origin reaches the API with fetch() and
follows an encounter's event stream with EventSource.

Skips (saying why) when Chromium or Playwright is missing; `.ci/run` installs Chromium so CI runs it.
"""
from __future__ import annotations

import json
import os
import shutil
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
import requests

from service.api.encounters.schemas import EXAMPLE_CREATE, EXAMPLE_DECLARATIONS

CHROMIUM = os.environ.get("REFEREE_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
if not Path(CHROMIUM).exists():
    pytest.skip("Chromium is not installed (apt-get install chromium); the browser tests need it",
                allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed "
                                                             "(pip install -e '.[dev]')")
pytestmark = pytest.mark.slow
SCREENSHOT = Path(os.environ.get("REFEREE_DOCS_SCREENSHOT", "var/docs-screenshot.png"))


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, headless=True,
                                              args=["--no-sandbox", "--disable-dev-shm-usage"])
        yield chromium
        chromium.close()


# One calculator per ruleset, tried from /docs as a reader would: expand, "Try it out", "Execute".
TRY_IT_OUT = [("tactical", "tacticalToHit"), ("war-and-combat", "warAndCombatToHit"), ("smoting", "smotingToHit"),
              ("ars-magica", "arsMagicaToHit"), ("runequest-house", "runequestHouseToHit")]


def rendered_operation_ids(page) -> set[str]:
    """Every operation id /docs shows, read while scrolling down the page as a reader would: Swagger UI
    (5.x) keeps only the operations near the viewport in the page for a spec this size."""
    seen: set[str] = set()
    for _ in range(1000):
        seen |= set(page.locator(".opblock .opblock-summary-operation-id").all_inner_texts())
        before = page.evaluate("window.scrollY")
        page.mouse.wheel(0, 500)
        page.wait_for_timeout(60)
        if page.evaluate("window.scrollY") == before:
            seen |= set(page.locator(".opblock .opblock-summary-operation-id").all_inner_texts())
            return seen
    return seen


def try_it_out(browser, server_url: str, tag: str, operation_id: str) -> tuple[str, str]:
    """Open /docs at the operation's deep link (Swagger UI scrolls to it and expands it), send its
    documented example with "Try it out", and return the status and body the page shows."""
    page = browser.new_page(viewport={"width": 1280, "height": 1600})
    page.goto(f"{server_url}/docs/#/{tag}/{operation_id}")
    operation = page.locator(f"#operations-{tag}-{operation_id}")
    operation.wait_for(timeout=30_000)
    if "is-open" not in (operation.get_attribute("class") or ""):
        operation.locator(".opblock-summary").click()
    operation.locator("button.try-out__btn").click()
    assert operation.locator("textarea.body-param__text").input_value().strip().startswith("{")
    operation.locator("button.execute").click()
    status = operation.locator(".live-responses-table .response .response-col_status").first
    status.wait_for(timeout=15_000)
    answer = status.inner_text().strip(), operation.locator(".live-responses-table .microlight").first.inner_text()
    page.close()
    return answer


def test_docs_render_every_operation_and_try_it_out_works(browser, server_url):
    spec = requests.get(server_url + "/openapi.json", timeout=5).json()
    operation_ids = {op["operationId"] for item in spec["paths"].values() for op in item.values()
                     if isinstance(op, dict) and "operationId" in op}
    page = browser.new_page(viewport={"width": 1280, "height": 1600})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(server_url + "/docs/")
    page.wait_for_selector(".opblock", timeout=30_000)
    assert "Unable to render" not in page.content()
    assert page.locator(".info .title").inner_text().startswith("Referee")
    SCREENSHOT.parent.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOT), full_page=False)
    assert rendered_operation_ids(page) == operation_ids

    for tag, operation_id in TRY_IT_OUT:
        status, answer = try_it_out(browser, server_url, tag, operation_id)
        assert status.startswith("200"), (operation_id, status, answer[:300])
        if operation_id == "tacticalToHit":
            assert "chance_percent" in answer
    assert not errors, errors
    page.close()


CROSS_ORIGIN_PAGE = """<!doctype html><html><body><script>
const api = new URLSearchParams(location.search).get("api");
const post = (path, body, token) => fetch(api + path, {method: "POST",
  headers: {"Content-Type": "application/json", ...(token ? {Authorization: "Bearer " + token} : {})},
  body: JSON.stringify(body)}).then(r => r.json().then(json => ({status: r.status, json})));
window.result = (async () => {
  const hit = await post("/v1/tactical/to-hit", {av: 60, dv: 45});
  const created = await post("/v1/encounters", COMBATANTS);
  const {id, token} = created.json;
  const received = [];
  const source = new EventSource(`${api}/v1/encounters/${id}/stream?token=${token}`);
  const opened = new Promise(resolve => source.addEventListener("open", resolve));
  for (const type of ["segment_began", "initiative", "attack", "segment_ended"]) {
    source.addEventListener(type, event => received.push({type, id: event.lastEventId,
                                                          data: JSON.parse(event.data)}));
  }
  const ended = new Promise(resolve => source.addEventListener("segment_ended", resolve));
  await opened;
  const segment = await post(`/v1/encounters/${id}/segments`, {seed: 7, declarations: DECLARATIONS}, token);
  await ended;
  source.close();
  return {hit: hit.status, chance: hit.json.chance_percent, created: created.status, segment: segment.status,
          received};
})();
</script></body></html>"""


def test_a_page_from_another_origin_uses_fetch_and_event_source(browser, server_url):
    html = CROSS_ORIGIN_PAGE.replace("COMBATANTS", json.dumps(EXAMPLE_CREATE)) \
        .replace("DECLARATIONS", json.dumps(EXAMPLE_DECLARATIONS["declarations"])).encode()

    class Page(BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802 (http.server's name)
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(html)))
            self.end_headers()
            self.wfile.write(html)

        def log_message(self, *args):
            pass

    other = ThreadingHTTPServer(("127.0.0.1", 0), Page)
    threading.Thread(target=other.serve_forever, daemon=True).start()
    try:
        page = browser.new_page()
        page.goto(f"http://localhost:{other.server_address[1]}/?api={server_url}")  # another origin
        result = page.evaluate("window.result")
        page.close()
    finally:
        other.shutdown()
        other.server_close()
    assert (result["hit"], result["chance"], result["created"], result["segment"]) == (200, 57, 201, 201)
    types = [event["type"] for event in result["received"]]
    assert types[0] == "segment_began" and types[-1] == "segment_ended" and "attack" in types
    assert [int(event["id"]) for event in result["received"]] == sorted(int(e["id"]) for e in result["received"])
