"""A real browser (Debian's headless Chromium, driven by Playwright; no browser download) against
gunicorn: /docs renders every operation of the served spec, "Try it out" on the to-hit calculator sends
the documented example and gets 200, and a page from another origin reaches the API with fetch() and
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
    rendered = set(page.locator(".opblock .opblock-summary-operation-id").all_inner_texts())
    assert rendered == operation_ids
    assert page.locator(".info .title").inner_text().startswith("Referee")

    to_hit = page.locator("#operations-tactical-tacticalToHit")
    to_hit.locator(".opblock-summary").click()
    to_hit.locator("button.try-out__btn").click()
    body = to_hit.locator("textarea.body-param__text").input_value()
    assert '"av": 60' in body  # the documented example, as Try it out sends it
    to_hit.locator("button.execute").click()
    status = to_hit.locator(".live-responses-table .response .response-col_status").first
    status.wait_for(timeout=15_000)
    assert status.inner_text().strip().startswith("200")
    assert "chance_percent" in to_hit.locator(".live-responses-table .microlight").first.inner_text()
    SCREENSHOT.parent.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOT), full_page=False)
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
