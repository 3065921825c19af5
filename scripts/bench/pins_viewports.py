#!/usr/bin/env python3
"""Map pins as a phone app shows them, scored per viewport, from a `bench --pins-zooms` run.

Reads the cells folder `bench --pins-zooms` wrote (OUT/cells/DATASET/pins: viewports.csv,
displayed.csv, and each implementation's pins.csv and labels.i32) and the listing file's truth
column. For every phone viewport (390 x 844 pt) of every zoom it takes the listings whose
displayed position is in view and the pins drawn there, and scores:
- ARI of the listings' pins against the generator's truth, over the listings in view (with the
  truth's noise as one group, and over clustered listings only), averaged over viewports;
- overlap: the share of drawn pins whose disc overlaps another's when discs are sized as map
  apps size them, 25-50 pt by the square root of the count relative to the largest count in
  view (`relative`), and by geocluster's own rule, the square root of the count up to 1,000
  (`absolute`, the diameter every pin carries).
With --geocluster and --key-file it first runs the PinIndex cell again with
`--disc-sizing view` (into `pinindex-view`), so both of geocluster's cuts are scored.
The last rows per zoom, `truth, drawable at D pt`, are the generator's clusters with every two
whose centres lie closer than D joined (25 pt, the smallest disc; 50 pt, the spacing that discs
sized by the view need): two such clusters cannot both keep a non-overlapping disc of their own
at their centres, so this is what keeping every cluster whole scores without overlap (a
reference, not a bound: a cut that splits clusters may score more).
Prints a Markdown table per zoom and implementation. numpy and scikit-learn only.
"""
import argparse
import csv
import math
import pathlib
import subprocess

import numpy as np
from sklearn.metrics import adjusted_rand_score


def mercator(lon, lat, zoom, tile=256):
    world = tile * 2.0 ** zoom
    s = np.sin(np.radians(np.clip(lat, -85.05112878, 85.05112878)))
    return (lon / 360 + 0.5) * world, (0.5 - np.log((1 + s) / (1 - s)) / (4 * math.pi)) * world


def overlap_share(x, y, d):
    """Share of discs (centres x, y, diameters d in pt) that overlap another."""
    n = len(x)
    if n < 2:
        return 0.0
    dx = x[:, None] - x[None, :]
    dy = y[:, None] - y[None, :]
    need = (d[:, None] + d[None, :]) / 2
    hit = (dx * dx + dy * dy < need * need)
    np.fill_diagonal(hit, False)
    return float(hit.any(axis=1).mean())


def drawable_truth(truth, lon, lat, zoom, disc=25.0):
    """The truth with clusters whose centres are closer than `disc` pt at `zoom` joined."""
    ids = np.unique(truth[truth >= 0])
    cx, cy = mercator(np.array([lon[truth == c].mean() for c in ids]), np.array([lat[truth == c].mean() for c in ids]), zoom)
    parent = list(range(len(ids)))
    def root(i):
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i
    for i in range(len(ids)):
        for j in range(i + 1, len(ids)):
            if (cx[i] - cx[j]) ** 2 + (cy[i] - cy[j]) ** 2 < disc * disc:
                parent[root(i)] = root(j)
    joined = {c: root(k) for k, c in enumerate(ids)}
    return np.array([joined[t] if t >= 0 else -1 for t in truth])


def run_view_cell(geocluster, key, listings, cells, zooms):
    folder = cells / "pinindex-view"
    folder.mkdir(exist_ok=True)
    subprocess.run([geocluster, "pins-cell", listings, "--implementation", "pinindex", "--disc-sizing", "view",
                    "--zooms", f"{zooms[0]}-{zooms[-1]}", "--viewports", str(cells / "viewports.csv"),
                    "--pins", str(folder / "pins.csv"), "--labels", str(folder / "labels.i32"),
                    "--report", str(folder / "report.json"), "--key-file", key], check=True, capture_output=True)


def read_csv(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("cells", help="OUT/cells/DATASET/pins of a bench --pins-zooms run")
    parser.add_argument("listings", help="the listing file with its truth column")
    parser.add_argument("--implementations", default="pinindex,supercluster")
    parser.add_argument("--geocluster", help="the geocluster executable, to run the PinIndex cell with --disc-sizing view")
    parser.add_argument("--key-file", help="the bench's pins key (with --geocluster)")
    args = parser.parse_args()
    cells = pathlib.Path(args.cells)
    truth = np.array([int(r["truth"]) for r in read_csv(args.listings)])
    shown = read_csv(cells / "displayed.csv")
    lon = np.array([float(r["lon"]) for r in shown])
    lat = np.array([float(r["lat"]) for r in shown])
    viewports = read_csv(cells / "viewports.csv")
    zooms = sorted({int(v["zoom"]) for v in viewports})
    n = len(truth)
    names = args.implementations.split(",")
    if args.geocluster and args.key_file:
        run_view_cell(args.geocluster, args.key_file, args.listings, cells, zooms)
        names.insert(1, "pinindex-view")
    print("| zoom | implementation | pins in view | ARI in view | ARI in view, clustered only | overlap, relative discs | overlap, absolute discs |")
    print("|---:|---|---:|---:|---:|---:|---:|")
    for zoom in zooms:
        boxes = [v for v in viewports if int(v["zoom"]) == zoom]
        for name in names:
            folder = cells / name
            pins = [r for r in read_csv(folder / "pins.csv") if int(r["zoom"]) == zoom]
            plon = np.array([float(r["longitude"]) for r in pins])
            plat = np.array([float(r["latitude"]) for r in pins])
            count = np.array([int(r["count"]) for r in pins])
            finished = sorted({int(r["zoom"]) for r in read_csv(folder / "pins.csv")})
            block = finished.index(zoom)
            labels = np.fromfile(folder / "labels.i32", dtype="<i4")[block * n:(block + 1) * n]
            px, py = mercator(plon, plat, zoom)
            stats = {"pins": [], "ari": [], "ari_c": [], "rel": [], "abs": []}
            for b in boxes:
                lo, la = (float(b["min_lon"]), float(b["min_lat"])), (float(b["max_lon"]), float(b["max_lat"]))
                inside = (lon >= lo[0]) & (lon <= la[0]) & (lat >= lo[1]) & (lat <= la[1])
                seen = (plon >= lo[0]) & (plon <= la[0]) & (plat >= lo[1]) & (plat <= la[1])
                if inside.sum() >= 2:
                    stats["ari"].append(adjusted_rand_score(truth[inside], labels[inside]))
                    c = inside & (truth >= 0)
                    if c.sum() >= 2:
                        stats["ari_c"].append(adjusted_rand_score(truth[c], labels[c]))
                stats["pins"].append(seen.sum())
                if seen.sum() >= 2:
                    k = count[seen]
                    rel = 25 + 25 * np.sqrt(k / k.max())
                    ab = 25 + 25 * np.sqrt((np.minimum(k, 1000) - 1) / 999)
                    stats["rel"].append(overlap_share(px[seen], py[seen], rel))
                    stats["abs"].append(overlap_share(px[seen], py[seen], ab))
            mean = lambda v: float(np.mean(v)) if v else float("nan")
            print(f"| {zoom} | {name} | {mean(stats['pins']):.1f} | {mean(stats['ari']):.3f} | {mean(stats['ari_c']):.3f} "
                  f"| {mean(stats['rel']):.3f} | {mean(stats['abs']):.3f} |")
        for disc in (25, 50):
            joined = drawable_truth(truth, lon, lat, zoom, disc)
            scores = []
            for b in boxes:
                inside = ((lon >= float(b["min_lon"])) & (lon <= float(b["max_lon"])) & (lat >= float(b["min_lat"]))
                          & (lat <= float(b["max_lat"])) & (truth >= 0))
                if inside.sum() >= 2:
                    scores.append(adjusted_rand_score(truth[inside], joined[inside]))
            print(f"| {zoom} | truth, drawable at {disc} pt | | | {float(np.mean(scores)):.3f} | | |")


if __name__ == "__main__":
    main()
