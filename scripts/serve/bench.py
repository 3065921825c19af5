#!/usr/bin/env python3
"""`make serve-bench`: geocluster serve under load, as tile servers measure themselves.

Starts the release server on LISTINGS (a key made beside it once), writes a list of the tiles
that cover random 2560x1440 viewports over the listings' bounds at zooms 10-17 (about 20 tiles
a viewport), and runs wrk over it: tiles per second and latency percentiles at 64 connections
(every request computes its tile; the server keeps no tile cache), with gzip asked as browsers
ask and without; then the same load with a reload in the middle (failed requests counted), the
time to fill a viewport (its ~20 tiles requested at once), and the server's peak memory.
Prints a Markdown table; bounded in time (--duration seconds a run).
"""
import argparse
import concurrent.futures
import json
import math
import os
import pathlib
import random
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

ROOT = pathlib.Path(__file__).resolve().parents[2]
LUA = """
local urls = {}
for line in io.lines(os.getenv("GEOCLUSTER_URLS")) do urls[#urls + 1] = line end
local counter = 1
local threads = {}
function setup(thread)
  thread:set("id", counter)
  counter = counter + 1
end
function init(args)
  i = (id * 7919) % #urls
  if os.getenv("GEOCLUSTER_GZIP") == "1" then wrk.headers["Accept-Encoding"] = "gzip" end
end
function request()
  i = i % #urls + 1
  return wrk.format("GET", urls[i])
end
"""


def tile_xy(lon, lat, z):
    n = 1 << z
    s = math.sin(math.radians(max(min(lat, 85.05112878), -85.05112878)))
    return (lon / 360 + 0.5) * n, (0.5 - math.log((1 + s) / (1 - s)) / (4 * math.pi)) * n


def viewport_tiles(lon, lat, z, width=2560, height=1440):
    """The 512-pixel tiles of zoom z that a width x height view centred at lon, lat shows."""
    x, y = tile_xy(lon, lat, z)
    half_w, half_h = width / 2 / 512, height / 2 / 512
    n = 1 << z
    return [(z, tx % n, ty) for tx in range(math.floor(x - half_w), math.floor(x + half_w) + 1)
            for ty in range(max(0, math.floor(y - half_h)), min(n - 1, math.floor(y + half_h)) + 1)]


def start(serve, listings, key, token, threads):
    process = subprocess.Popen([serve, listings, "--key-file", key, "--port", "0", "--admin-token-file", token,
                                "--threads", str(threads), "--log-level", "warning"],
                               stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
    started = time.time()
    for line in process.stderr:
        if "listening on http://" in line:
            base = line.split("listening on ")[1].split("/ ")[0].rstrip("/")
            threading.Thread(target=lambda: [None for _ in process.stderr], daemon=True).start()
            return process, base, time.time() - started
        sys.stderr.write(line)
    raise SystemExit("the server did not start")


def wrk(base, urls, duration, connections, gzip, during=None):
    env = dict(os.environ, GEOCLUSTER_URLS=str(urls), GEOCLUSTER_GZIP="1" if gzip else "0")
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as f:
        f.write(LUA)
    command = ["wrk", "-t2", f"-c{connections}", f"-d{duration}s", "--latency", "--timeout", "10s", "-s", f.name, base]
    run = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, text=True)
    extra = during() if during else None
    out = run.communicate()[0]
    os.unlink(f.name)
    def latency(p):
        m = re.search(rf"^\s+{p}%\s+([\d.]+)(us|ms|s)\s*$", out, re.M)
        v, unit = float(m.group(1)), m.group(2)
        return v / 1000 if unit == "us" else v * 1000 if unit == "s" else v
    non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    errors = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", out)
    return {
        "rps": float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1)),
        "requests": int(re.search(r"(\d+) requests in", out).group(1)),
        "p50": latency(50), "p90": latency(90), "p99": latency(99),
        "failed": (int(non2xx.group(1)) if non2xx else 0) + (sum(map(int, errors.groups())) if errors else 0),
        "extra": extra, "raw": out,
    }


def fill_times(base, viewports):
    """Milliseconds to fetch each viewport's tiles, all at once (20 connections)."""
    times = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=24) as pool:
        for tiles in viewports:
            t0 = time.perf_counter()
            list(pool.map(lambda t: urllib.request.urlopen(f"{base}/tiles/{t[0]}/{t[1]}/{t[2]}.mvt", timeout=30).read(), tiles))
            times.append((time.perf_counter() - t0) * 1000)
    return times


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("listings")
    parser.add_argument("--serve", default=str(ROOT / ".build/release/geocluster-serve"))
    parser.add_argument("--cli", default=str(ROOT / ".build/release/geocluster"))
    parser.add_argument("--duration", type=int, default=20)
    parser.add_argument("--connections", type=int, default=64)
    parser.add_argument("--threads", type=int, default=2, help="index build threads")
    parser.add_argument("--viewports", type=int, default=150, help="viewports per zoom in the URL list")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    work = pathlib.Path(tempfile.mkdtemp(prefix="geocluster-serve-bench-"))
    key = str(pathlib.Path(args.listings).with_suffix(".bench.key"))
    if not os.path.exists(key):
        subprocess.run([args.cli, "pins-key", "-o", key], check=True, capture_output=True)
    token = work / "token"
    token.write_text("serve-bench-token-0123456789\n")
    server, base, startup = start(args.serve, args.listings, key, str(token), args.threads)
    try:
        bounds = json.load(urllib.request.urlopen(base + "/tiles.json"))["bounds"]
        rng = random.Random(args.seed)
        viewports = {z: [viewport_tiles(rng.uniform(bounds[0], bounds[2]), rng.uniform(bounds[1], bounds[3]), z)
                         for _ in range(args.viewports)] for z in range(10, 18)}
        urls = [f"/tiles/{z}/{x}/{y}.mvt" for z in viewports for vp in viewports[z] for (z, x, y) in vp]
        rng.shuffle(urls)
        url_file = work / "urls.txt"
        url_file.write_text("\n".join(urls) + "\n")
        tiles_per_view = statistics.median(len(vp) for z in viewports for vp in viewports[z])
        print(f"server up in {startup:.1f} s on {args.listings}; {len(urls)} tile requests in the list "
              f"({args.viewports} viewports of 2560x1440 px at each zoom 10-17, median {tiles_per_view:.0f} tiles each)")
        wrk(base, url_file, 5, args.connections, True)  # warm-up: page the index in
        rows = []
        for gzip in (True, False):
            r = wrk(base, url_file, args.duration, args.connections, gzip)
            rows.append((f"tiles, {'gzip' if gzip else 'identity'}", r))

        def reload():
            time.sleep(args.duration / 4)
            t0 = time.time()
            request = urllib.request.Request(base + "/admin/reload", method="POST", data=b"",
                                             headers={"Authorization": "Bearer serve-bench-token-0123456789"})
            status = urllib.request.urlopen(request, timeout=600).status
            return status, time.time() - t0
        r = wrk(base, url_file, args.duration, args.connections, True, during=reload)
        rows.append(("tiles, gzip, reload in the middle", r))
        fills = fill_times(base, [vp for z in viewports for vp in viewports[z][:15]])
        peak = re.search(r"VmHWM:\s+(\d+) kB", pathlib.Path(f"/proc/{server.pid}/status").read_text()).group(1)
    finally:
        server.terminate()
        server.wait(timeout=30)

    print(f"\n| load ({args.connections} connections, {args.duration} s) | tiles/s | p50 ms | p90 ms | p99 ms | requests | failed |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name, r in rows:
        print(f"| {name} | {r['rps']:,.0f} | {r['p50']:.2f} | {r['p90']:.2f} | {r['p99']:.2f} | {r['requests']:,} | {r['failed']} |")
    status, took = rows[-1][1]["extra"]
    print(f"\nreload during the load: HTTP {status} after {took:.1f} s")
    print(f"time to fill a viewport ({len(fills)} viewports, ~{tiles_per_view:.0f} tiles at once): "
          f"median {statistics.median(fills):.1f} ms, p90 {statistics.quantiles(fills, n=10)[-1]:.1f} ms")
    print(f"server peak memory (VmHWM): {int(peak) / 1024:.0f} MiB")


if __name__ == "__main__":
    main()
