#!/usr/bin/env python3
"""The README's picture of the map page: headless chromium on a running `geocluster serve`
(`make serve`, the default data) at zoom 12 over central Seoul, written to docs/serve-map.png.
Usage: scripts/docs/serve_page.py [BASE_URL] (default http://127.0.0.1:8080).
Needs websocket-client (make python's venv has it)."""
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "serve"))
from test_serve import Browser  # noqa: E402

base = sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8080"
out = pathlib.Path(__file__).resolve().parents[2] / "docs/serve-map.png"
browser = Browser(width=1100, height=640)
try:
    browser.call("Page.navigate", url=base + "/?zoom=12&lat=37.545&lon=127.0")
    browser.wait_for("document.getElementById('status').dataset.zoom === '12'")
    browser.screenshot(out)
    status = browser.evaluate("document.getElementById('status').textContent")
    print(f"wrote {out}: {status}")
finally:
    browser.close()
