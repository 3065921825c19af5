#!/usr/bin/env python3
"""The averaging attack: what several draws of one location give away (why the mask file exists).

Without a mask file, every change of key draws every location anew. An observer who keeps each
published version of the pins sees several displayed positions of one location and averages
them. This script plays that observer: it writes K keys (`geocluster pins-key`), builds the
zoom-22 pins (`geocluster pins --zoom 22 --leaves`, where every location is its own pin) once
per key without a mask file, and for k = 1..K averages each location's first k displayed
positions two ways: their mean, and the centre of the region where all k rings of admissible
offsets (min..max offset around each displayed position) overlap (on a 2 m grid). It prints,
per k, the share of locations whose estimate lies within 10 m and within 30 m of the truth
(the coordinate-wise median of the location's listings in the input), and the median error. Independent of
geocluster's code: numpy only (and attack.py's registry reader).

  scripts/privacy/averaging.py LISTINGS.csv --geocluster .build/release/geocluster [--keys 10]
"""
import argparse, json, os, subprocess, sys, tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from attack import metres_per_degree, read_registry  # noqa: E402


def displayed(args, key, workdir):
    """Each location's displayed (lon, lat) under one key, by location index."""
    out = os.path.join(workdir, "pins.geojson")
    subprocess.run([args.geocluster, "pins", args.listings, "--zoom", "22", "--leaves", "--key-file", key,
                    "--min-offset", str(args.min_offset), "--max-offset", str(args.max_offset), "-o", out],
                   check=True, stderr=subprocess.DEVNULL)
    shown = {}
    for f in json.load(open(out))["features"]:
        p = f["properties"]
        if p["kind"] in ("building", "listing"):
            shown[args.location_of[str(p["leaves"][0])]] = f["geometry"]["coordinates"]
    return shown


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("listings")
    ap.add_argument("--geocluster", required=True)
    ap.add_argument("--keys", type=int, default=10, help="how many keys (published versions) the observer sees")
    ap.add_argument("--min-offset", type=float, default=30)
    ap.add_argument("--max-offset", type=float, default=80)
    ap.add_argument("--location-column", default="building_id")
    args = ap.parse_args()
    truth, args.location_of = read_registry(args.listings, args.location_column)
    north, east = metres_per_degree(truth[:, 1])
    offsets = []  # per key: (locations, 2) east/north metres from the truth; NaN where not shown
    with tempfile.TemporaryDirectory() as workdir:
        for k in range(args.keys):
            key = os.path.join(workdir, f"k{k}.key")
            subprocess.run([args.geocluster, "pins-key", "-o", key], check=True,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            d = np.full(truth.shape, np.nan)
            for i, (lon, lat) in displayed(args, key, workdir).items():
                d[i] = ((lon - truth[i, 0]) * east[i], (lat - truth[i, 1]) * north[i])
            offsets.append(d)
    offsets = np.array(offsets)
    # Locations that are their own pin at zoom 22 under every key (two buildings a few metres
    # apart can share a cluster pin there; their positions are not published).
    seen = ~np.isnan(offsets).any(axis=(0, 2))
    offsets = offsets[:, seen]
    print(f"{args.listings}: {len(truth)} locations, {int(seen.sum())} shown on their own under every key; "
          f"offsets {args.min_offset:g}-{args.max_offset:g} m, no mask file")
    def line(error):
        return (f"within 10 m {100 * np.mean(error <= 10):5.1f} %, within 30 m {100 * np.mean(error <= 30):5.1f} %, "
                f"median error {np.median(error):5.1f} m")
    for k in range(1, args.keys + 1):
        mean = np.hypot(*offsets[:k].mean(axis=0).T)
        rings = np.hypot(*ring_centres(offsets[:k], args.min_offset, args.max_offset).T)
        print(f"{k:2d} draws: mean {line(mean)}; rings {line(rings)}")


def ring_centres(offsets, lo, hi, step=2.0):
    """Per location, the centre of the grid points (relative to the truth's frame, metres) that
    lie within lo..hi of every displayed offset: where the truth can be, given k draws. The
    grid spans ±hi around the first displayed point, which holds the truth."""
    g = np.arange(-hi, hi + step, step)
    gx, gy = np.meshgrid(g, g)
    out = np.empty((offsets.shape[1], 2))
    for i in range(offsets.shape[1]):
        # Candidate truths t (offset frame: truth at 0) = first displayed - grid; displayed d_j
        # is admissible when lo <= |d_j - t| <= hi for every draw j.
        tx, ty = offsets[0, i, 0] - gx, offsets[0, i, 1] - gy
        ok = np.ones(gx.shape, dtype=bool)
        for d in offsets[:, i]:
            r = np.hypot(d[0] - tx, d[1] - ty)
            ok &= (r >= lo) & (r <= hi)
        # A sliver thinner than the grid holds no grid point: fall back to the mean.
        out[i] = (tx[ok].mean(), ty[ok].mean()) if ok.any() else offsets[:, i].mean(axis=0)
    return out


if __name__ == "__main__":
    sys.exit(main())
