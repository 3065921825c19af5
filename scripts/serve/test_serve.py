"""`geocluster serve` from the outside, as its clients see it: a real server process on a free
port, its tiles decoded by a decoder written by others (PyPI's mapbox-vector-tile) and compared
with what `geocluster pins --tile-size 512` writes for the same listings, key and mask file;
every pin of a zoom inside exactly one tile; filters as the CLI applies them; 304s; a reload
while requests run; and the map page in headless chromium, clicked.

Run by `make python` (GEOCLUSTER_CLI and GEOCLUSTER_SERVE name the binaries; the debug build's
by default).
"""
import base64
import json
import math
import os
import pathlib
import shutil
import subprocess
import tempfile
import threading
import time
import urllib.error
import urllib.request

import mapbox_vector_tile
import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
CLI = os.environ.get("GEOCLUSTER_CLI", str(ROOT / ".build/debug/geocluster"))
SERVE = os.environ.get("GEOCLUSTER_SERVE", str(pathlib.Path(CLI).parent / "geocluster-serve"))
TOKEN = "test-admin-token-0123456789"


class Server:
    """A geocluster-serve process on a free port over `listings`, with an admin token."""

    def __init__(self, folder, listings, extra=()):
        self.folder = folder
        token = folder / "admin.token"
        token.write_text(TOKEN + "\n")
        self.args = [listings, "--key-file", str(folder / "pins.key"), "--port", "0", "--admin-token-file", str(token),
                     "--maplibre", str(ROOT / ".build/maplibre"), *extra]
        self.log = open(folder / "serve.log", "w+")
        self.process = subprocess.Popen([SERVE, *self.args], stderr=subprocess.PIPE, stdout=self.log, text=True)
        self.base = None
        deadline = time.time() + 120
        while time.time() < deadline:
            line = self.process.stderr.readline()
            if not line:
                break
            self.log.write(line)
            if "listening on http://" in line:
                self.base = line.split("listening on ")[1].split("/ ")[0].rstrip("/")
                break
        assert self.base, f"the server did not start: {open(folder / 'serve.log').read()}"
        threading.Thread(target=self._drain, daemon=True).start()

    def _drain(self):
        for line in self.process.stderr:
            self.log.write(line)

    def get(self, path, headers=None):
        """(status, headers, body bytes) of GET path."""
        request = urllib.request.Request(self.base + path, headers=headers or {})
        try:
            with urllib.request.urlopen(request, timeout=30) as r:
                return r.status, dict(r.headers), r.read()
        except urllib.error.HTTPError as e:
            return e.code, dict(e.headers), e.read()

    def post(self, path, headers=None):
        request = urllib.request.Request(self.base + path, method="POST", headers=headers or {}, data=b"")
        try:
            with urllib.request.urlopen(request, timeout=120) as r:
                return r.status, r.read()
        except urllib.error.HTTPError as e:
            return e.code, e.read()

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
        return self.process.returncode


@pytest.fixture(scope="module")
def served():
    folder = pathlib.Path(tempfile.mkdtemp(prefix="geocluster-serve-"))
    listings = str(folder / "listings.csv")
    subprocess.run([CLI, "generate", "--scenario", "seoul", "--count", "6000", "--seed", "11", "-o", listings], check=True,
                   capture_output=True)
    subprocess.run([CLI, "pins-key", "-o", str(folder / "pins.key")], check=True, capture_output=True)
    server = Server(folder, listings)
    yield server, folder, listings
    status = server.stop()
    assert status == 0, f"the server did not stop cleanly on SIGTERM: {status}"
    shutil.rmtree(folder, ignore_errors=True)


def cli_pins(folder, listings, zoom, *filters):
    """`geocluster pins --tile-size 512` for one zoom: features by pin id."""
    out = folder / f"pins-{zoom}-{abs(hash(filters))}.geojson"
    subprocess.run([CLI, "pins", listings, "--zoom", str(zoom), "--tile-size", "512", "--key-file", str(folder / "pins.key"),
                    "-o", str(out), *filters], check=True, capture_output=True)
    features = json.loads(out.read_text())["features"]
    return {f["properties"]["id"]: f for f in features}


def owner(lon, lat, z):
    """The tile that owns a position: half-open bounds, longitude 180° as −180°."""
    n = 1 << z
    lat = max(min(lat, 85.051128779806592), -85.051128779806592)
    x = (lon / 360 + 0.5) * n
    s = math.sin(math.radians(lat))
    y = (0.5 - math.log((1 + s) / (1 - s)) / (4 * math.pi)) * n
    return z, int(math.floor(x)) % n, min(int(math.floor(y)), n - 1)


def tile_features(server, z, x, y, query=""):
    status, headers, body = server.get(f"/tiles/{z}/{x}/{y}.mvt{query}")
    assert status == 200, body
    assert headers["Content-Type"] == "application/vnd.mapbox-vector-tile"
    layers = mapbox_vector_tile.decode(body, default_options={"y_coord_down": True})
    if not body:
        return []
    assert set(layers) == {"pins"} and layers["pins"]["extent"] == 4096
    return layers["pins"]["features"]


def tiles_around(pins, z):
    n = 1 << z
    out = set()
    for f in pins.values():
        lon, lat = f["geometry"]["coordinates"]
        _, x, y = owner(lon, lat, z)
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                if 0 <= y + dy < n:
                    out.add((z, (x + dx) % n, y + dy))
    return out


@pytest.mark.parametrize("zoom", [6, 9, 11, 13, 15])
def test_tiles_decode_to_the_cli_pins_each_inside_one_tile(served, zoom):
    server, folder, listings = served
    expected = cli_pins(folder, listings, zoom)
    inside = {}
    for z, x, y in sorted(tiles_around(expected, zoom)):
        for f in tile_features(server, z, x, y):
            pid = str(f["id"])
            assert pid in expected, f"tile {z}/{x}/{y} has a feature {pid} that `pins` does not write"
            u, v = f["geometry"]["coordinates"]
            if 0 <= u < 4096 and 0 <= v < 4096:
                inside.setdefault(pid, []).append((z, x, y))
                want = expected[pid]
                lon, lat = want["geometry"]["coordinates"]
                assert owner(lon, lat, z) == (z, x, y), f"pin {pid} at {lon},{lat} is inside {z}/{x}/{y}"
                p, q = f["properties"], want["properties"]
                assert p["count"] == q["count"] and p["kind"] == q["kind"]
                assert p.get("expansion_zoom") == q["expansion_zoom"]
                assert p["cluster"] == (q["kind"] == "cluster")
                assert p.get("point_count", 1) == q["count"]
                # Tiles carry the index's numbers; the GeoJSON rounds them for text (7 and 2 places).
                box = [p["bbox_west"], p["bbox_south"], p["bbox_east"], p["bbox_north"]]
                assert all(abs(a - b) <= 5.1e-8 for a, b in zip(box, q["bbox"])), (box, q["bbox"])
                if q["median_deposit"] is None:
                    assert "median_deposit" not in p
                else:
                    assert abs(p["median_deposit"] - q["median_deposit"]) <= 0.0051
                assert {k[len("category_"):]: v for k, v in p.items() if k.startswith("category_")} == q["categories"]
                if q["kind"] == "listing":
                    assert p["listing_id"] == q["listing_id"] and abs(p["deposit"] - q["deposit"]) <= 0.0051
    assert set(inside) == set(expected), f"zoom {zoom}: {len(set(expected) - set(inside))} pins in no tile"
    assert all(len(t) == 1 for t in inside.values()), "a pin inside two tiles"


def test_viewport_pins_and_filters_equal_the_cli(served):
    server, folder, listings = served
    for zoom, filters, query in [(10, (), ""), (12, ("--category", "apartment,villa", "--area", "..60"), "&category=apartment,villa&area=..60"),
                                 (14, ("--rent", "1..", "--deposit", "..20000"), "&rent=1..&deposit=..20000")]:
        expected = cli_pins(folder, listings, zoom, *filters)
        status, headers, body = server.get(f"/pins?zoom={zoom}{query}")
        assert status == 200 and headers["Content-Type"] == "application/geo+json"
        got = {f["properties"]["id"]: f for f in json.loads(body)["features"]}
        assert got == expected, f"zoom {zoom} {filters}: the server's pins differ from the CLI's"
        tile_ids = set()
        for z, x, y in tiles_around(expected, zoom):
            for f in tile_features(server, z, x, y, "?" + query[1:] if query else ""):
                u, v = f["geometry"]["coordinates"]
                if 0 <= u < 4096 and 0 <= v < 4096:
                    tile_ids.add(str(f["id"]))
        assert tile_ids == set(expected), f"zoom {zoom} {filters}: filtered tiles differ from the CLI's pins"


def test_leaves_nearby_and_errors(served):
    server, folder, listings = served
    pins = cli_pins(folder, listings, 9)
    big = max(pins.values(), key=lambda f: f["properties"]["count"])
    ids, cursor = [], None
    while True:
        status, _, body = server.get(f"/pins/{big['properties']['id']}/leaves?limit=500" + (f"&cursor={cursor}" if cursor else ""))
        assert status == 200
        page = json.loads(body)
        ids += [f["properties"]["listing_id"] for f in page["features"]]
        cursor = page["next"]
        if cursor is None:
            break
    assert len(ids) == len(set(ids)) == big["properties"]["count"]
    status, _, body = server.get("/nearby?lat=37.55&lon=126.98&radius=2000&limit=7")
    near = json.loads(body)
    assert status == 200 and len(near["features"]) <= 7 and near["total"] >= len(near["features"])
    distances = [f["properties"]["distance_m"] for f in near["features"]]
    assert distances == sorted(distances) and all(d % 100 == 0 for d in distances)
    for path, parameter in [("/pins?zoom=5&rent=abc", "rent"), ("/pins?zoom=5&unknown=1", "unknown"), ("/nearby?lat=1", "lon"),
                            ("/tiles/2/9/0.mvt", "tile"), ("/pins?zoom=5&bbox=200,0,10,10", "bbox")]:
        status, headers, body = server.get(path)
        assert status == 400 and json.loads(body)["parameter"] == parameter, (path, body)


def test_etag_gives_304_and_gzip_inflates_to_the_same_tile(served):
    server, _, _ = served
    path = "/tiles/11/1746/793.mvt"
    status, headers, body = server.get(path)
    assert status == 200
    status2, _, _ = server.get(path, {"If-None-Match": headers["ETag"]})
    assert status2 == 304
    _, zheaders, zbody = server.get(path, {"Accept-Encoding": "gzip"})
    if body:
        import gzip
        assert zheaders["Content-Encoding"] == "gzip" and gzip.decompress(zbody) == body


def test_a_reload_under_load_fails_no_request(served):
    server, _, _ = served
    failures, done, answered = [], threading.Event(), [0]

    def hammer(k):
        zooms = [8, 10, 12, 14]
        i = 0
        while not done.is_set():
            z = zooms[(i + k) % 4]
            _, x, y = owner(126.98 + 0.01 * (i % 7), 37.55 + 0.01 * (i % 5), z)
            status, _, body = server.get(f"/tiles/{z}/{x}/{y}.mvt")
            if status != 200:
                failures.append((status, body[:200]))
            answered[0] += 1
            i += 1

    threads = [threading.Thread(target=hammer, args=(k,)) for k in range(8)]
    for t in threads:
        t.start()
    time.sleep(0.5)
    before = json.loads(server.get("/health")[2])["version"]
    assert server.post("/admin/reload")[0] == 401
    status, body = server.post("/admin/reload", {"Authorization": "Bearer " + TOKEN})
    time.sleep(0.3)
    done.set()
    for t in threads:
        t.join()
    assert status == 200, body
    assert json.loads(server.get("/health")[2])["version"] == before + 1
    assert answered[0] > 50 and not failures, failures[:5]


def thread_cpu(pid):
    """Each thread of a process: its name and CPU time so far (user + system, in clock ticks)."""
    threads = {}
    for task in pathlib.Path(f"/proc/{pid}/task").iterdir():
        try:
            name = (task / "comm").read_text().strip()
            fields = (task / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        threads[task.name] = (name, int(fields[11]) + int(fields[12]))
    return threads


def test_handlers_run_on_the_event_loops(served):
    """The requests are answered on SwiftNIO's event-loop threads, the ones that read them:
    Swift concurrency's thread pool does none of the work (a hop to it and back for every
    request doubled the latency tail under load)."""
    server, _, _ = served
    before = thread_cpu(server.process.pid)
    deadline, i = time.time() + 3, 0
    while time.time() < deadline or i < 200:
        z = 8 + i % 5
        _, x, y = owner(126.98 + 0.01 * (i % 7), 37.55 + 0.01 * (i % 5), z)
        assert server.get(f"/tiles/{z}/{x}/{y}.mvt", {"Accept-Encoding": "gzip"})[0] == 200
        i += 1
    used = {}
    for tid, (name, ticks) in thread_cpu(server.process.pid).items():
        kind = "loops" if name.startswith("NIO-") else "others"
        used[kind] = used.get(kind, 0) + ticks - before.get(tid, (name, 0))[1]
    assert used.get("loops", 0) >= 20, used
    assert used.get("others", 0) <= 0.1 * used["loops"], used


class Browser:
    """Headless chromium driven over its DevTools protocol."""

    def __init__(self, width=1100, height=760):
        import websocket
        self.profile = tempfile.mkdtemp(prefix="geocluster-chromium-")
        port = 9300 + os.getpid() % 500
        self.process = subprocess.Popen([shutil.which("chromium") or "chromium", "--headless=new", "--no-sandbox",
                                         "--disable-dev-shm-usage", "--hide-scrollbars", "--force-device-scale-factor=1",
                                         "--user-data-dir=" + self.profile, f"--window-size={width},{height}",
                                         "--enable-unsafe-swiftshader", "--use-angle=swiftshader",
                                         f"--remote-debugging-port={port}", "about:blank"],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.time() + 30
        while True:
            try:
                tabs = json.load(urllib.request.urlopen(f"http://127.0.0.1:{port}/json", timeout=2))
                break
            except OSError:
                if time.time() > deadline:
                    raise
                time.sleep(0.1)
        tab = next(t for t in tabs if t["type"] == "page")
        self.ws = websocket.create_connection(tab["webSocketDebuggerUrl"], timeout=60)
        self.n = 0
        self.call("Page.enable")

    def call(self, method, **params):
        self.n += 1
        self.ws.send(json.dumps({"id": self.n, "method": method, "params": params}))
        while True:
            message = json.loads(self.ws.recv())
            if message.get("id") == self.n:
                assert "error" not in message, message
                return message.get("result", {})

    def evaluate(self, expression):
        r = self.call("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        assert "exceptionDetails" not in r, r
        return r["result"].get("value")

    def wait_for(self, expression, timeout=60):
        deadline = time.time() + timeout
        while time.time() < deadline:
            r = self.call("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
            if "exceptionDetails" not in r and r["result"].get("value"):
                return r["result"]["value"]
            time.sleep(0.2)
        status = self.evaluate("document.getElementById('status').textContent")
        raise AssertionError(f"timed out waiting for {expression}: status {status}")

    def screenshot(self, path):
        data = self.call("Page.captureScreenshot", format="png")["data"]
        pathlib.Path(path).write_bytes(base64.b64decode(data))

    def click(self, x, y):
        for kind in ("mousePressed", "mouseReleased"):
            self.call("Input.dispatchMouseEvent", type=kind, x=x, y=y, button="left", clickCount=1)

    def close(self):
        self.ws.close()
        self.process.kill()
        shutil.rmtree(self.profile, ignore_errors=True)


SCREENS = ROOT / ".build/serve-screens"


@pytest.mark.skipif(not shutil.which("chromium") and not os.environ.get("CI"), reason="no chromium (CI installs it)")
def test_map_page_shows_pins_and_zooms_into_a_clicked_cluster(served):
    server, folder, listings = served
    assert (ROOT / ".build/maplibre/maplibre-gl.js").exists(), "run scripts/serve/setup.sh (make python does)"
    SCREENS.mkdir(parents=True, exist_ok=True)
    # The view centred on the zoom-14 pin of the most listings.
    lon, lat = max(cli_pins(folder, listings, 14).values(), key=lambda f: f["properties"]["count"])["geometry"]["coordinates"]
    browser = Browser()
    try:
        for zoom in (11, 14):
            browser.call("Page.navigate", url=f"{server.base}/?zoom={zoom}&lat={lat}&lon={lon}")
            browser.wait_for(f"document.getElementById('status').dataset.zoom === '{zoom}'")
            shown = int(browser.evaluate("document.getElementById('status').dataset.pins"))
            assert shown > 0, f"no pin drawn at zoom {zoom}"
            browser.screenshot(SCREENS / f"map-zoom{zoom}.png")
        browser.call("Page.navigate", url=f"{server.base}/?zoom=11&lat={lat}&lon={lon}")
        browser.wait_for("document.getElementById('status').dataset.zoom === '11'")
        target = browser.evaluate("""(() => {
            const m = geocluster.map, r = m.getContainer().getBoundingClientRect();
            const fs = m.queryRenderedFeatures({layers: ['pins']}).filter(f => f.properties.expansion_zoom !== undefined);
            const f = fs.sort((a, b) => b.properties.count - a.properties.count)[0];
            const p = m.project(f.geometry.coordinates);
            return {x: r.left + p.x, y: r.top + p.y, zoom: f.properties.expansion_zoom};
        })()""")
        browser.click(target["x"], target["y"])
        browser.wait_for(f"Math.abs(geocluster.map.getZoom() - {target['zoom']}) < 1e-6", timeout=20)
        browser.wait_for(f"document.getElementById('status').dataset.zoom === '{target['zoom']}'")
        browser.screenshot(SCREENS / "map-after-click.png")
    finally:
        browser.close()


def test_standard_input_is_refused_and_a_gz_serves_the_same_pins(served):
    _, folder, listings = served
    refused = subprocess.run([SERVE, "-", "--key-file", str(folder / "pins.key")], capture_output=True, text=True)
    assert refused.returncode == 64 and "reads its listings again at every reload" in refused.stderr
    gz = folder / "listings.csv.gz"
    subprocess.run(f"gzip -c {listings} > {gz}", shell=True, check=True)
    plain_server, gz_server = served[0], Server(folder, str(gz))
    try:
        for path in ("/pins?zoom=12", "/tiles/11/1746/793.mvt"):
            assert plain_server.get(path)[2] == gz_server.get(path)[2], path
    finally:
        assert gz_server.stop() == 0
