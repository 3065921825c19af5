#!/usr/bin/env python3
"""The registry attack on geocluster's map pins, measured as an attacker would run it.

The attacker knows every building's true position (a public building registry: here the
coordinate-wise median of each location's listings in the input file), the mask's public rule
(the offset range, and --min-anonymity's K and cap when used) and what the pins publish: it
builds the pins at zoom 22 with `geocluster pins --leaves` (where every location is its own
building or listing pin) and reads only that GeoJSON. For each displayed point it lists the
buildings that lie in the point's ring of admissible offsets (min..max offset, or the ring the
public --min-anonymity rule gives the point: the first of the radii max, max*sqrt(2), ..., cap
holding K buildings with no 30 m spot holding more than 1/K of them) and names one: the candidate with the most candidates within 30 m of it
(the likeliest 30 m spot when every candidate is equally likely), ties to the one nearest the
displayed point. Its guess is scored against the truth through the listing ids the pins carry
(the only use of the truth besides the registry).

Printed: locations attacked, share recovered within 10 m and within 30 m, median error, and the
share alone in their ring (k = 1). Independent of geocluster's code: numpy and scipy only.

  scripts/privacy/attack.py LISTINGS.csv --geocluster .build/release/geocluster --key-file pins.key \
      [--min-anonymity 5] [--anonymity-cap 1500] [--sample 20000] [--seed 1]
"""
import argparse, csv, json, math, os, subprocess, sys, tempfile
from collections import defaultdict

import numpy as np
from scipy.spatial import cKDTree

A, E2 = 6378137.0, 6.69437999014e-3  # WGS 84


def metres_per_degree(lat_deg):
    """(north, east) metres per degree of latitude and of longitude at a latitude (WGS 84)."""
    phi = np.radians(lat_deg)
    w2 = 1 - E2 * np.sin(phi) ** 2
    m = A * (1 - E2) / (w2 * np.sqrt(w2))
    n = A / np.sqrt(w2)
    return np.pi / 180 * m, np.pi / 180 * n * np.cos(phi)


def read_registry(path, location_column):
    """Each location's true position (median of its listings) and each listing id's location."""
    groups, location_of = defaultdict(list), {}
    with open(path, newline="", encoding="utf-8") as f:
        for row in csv.DictReader(f):
            lat, lon = float(row["lat"]), float(row["lon"])
            key = row.get(location_column) or f"{round(lon * 1e6)},{round(lat * 1e6)}"
            groups[key].append((lon, lat))
            location_of[row["id"]] = key
    keys = sorted(groups)
    index = {k: i for i, k in enumerate(keys)}
    truth = np.array([np.median(np.array(groups[k]), axis=0) for k in keys])
    return truth, {lid: index[k] for lid, k in location_of.items()}


def published_points(args, workdir):
    """The zoom-22 building and listing pins: (displayed lon, lat, one listing id)."""
    out, mask = os.path.join(workdir, "pins.geojson"), os.path.join(workdir, "pins.mask")
    cmd = [args.geocluster, "pins", args.listings, "--zoom", "22", "--leaves", "--key-file", args.key_file,
           "--min-offset", str(args.min_offset), "--max-offset", str(args.max_offset), "-o", out]
    if args.min_anonymity:
        cmd += ["--min-anonymity", str(args.min_anonymity), "--anonymity-cap", str(args.anonymity_cap), "--mask", mask]
    subprocess.run(cmd, check=True, stderr=subprocess.DEVNULL)
    points = []
    for f in json.load(open(out))["features"]:
        p = f["properties"]
        if p["kind"] in ("building", "listing"):
            lon, lat = f["geometry"]["coordinates"]
            points.append((lon, lat, str(p["leaves"][0])))
    return points


def ring_radii(args):
    r = [args.max_offset]
    if args.min_anonymity:
        while r[-1] * math.sqrt(2) < args.anonymity_cap * (1 - 1e-9):
            r.append(r[-1] * math.sqrt(2))
        r.append(args.anonymity_cap)
    return r


class Registry:
    """Buildings in a local plane for search; exact distances as the mask measures them
    (east and north metres at the building's latitude)."""

    def __init__(self, truth):
        self.lon, self.lat = truth[:, 0], truth[:, 1]
        self.m_lat, self.m_lon = metres_per_degree(self.lat)
        lat0 = float(np.mean(self.lat))
        self.k_lat, self.k_lon = metres_per_degree(lat0)
        self.tree = cKDTree(np.column_stack([self.lon * self.k_lon, self.lat * self.k_lat]))
        self.pad = 1.02 * float(np.max(self.k_lon / self.m_lon)) + 0.01  # local-plane stretch bound

    def metres(self, idx, lon, lat):
        e = (lon - self.lon[idx]) * self.m_lon[idx]
        n = (lat - self.lat[idx]) * self.m_lat[idx]
        return np.hypot(e, n)

    def ring(self, lon, lat, inner, outer):
        near = np.array(self.tree.query_ball_point([lon * self.k_lon, lat * self.k_lat], outer * self.pad), dtype=int)
        if len(near) == 0:
            return near, near
        d = self.metres(near, lon, lat)
        keep = (d >= inner) & (d <= outer)
        return near[keep], d[keep]


def spot_counts(registry, cand, spot):
    """For each candidate, the candidates within `spot` metres of it (itself counted)."""
    xy = np.column_stack([registry.lon[cand] * registry.m_lon[cand], registry.lat[cand] * registry.m_lat[cand]])
    return cKDTree(xy).query_ball_point(xy, spot, return_length=True)


def attack(registry, lon, lat, radii, args):
    """The candidates of a displayed point and the attacker's guess (an index into the registry).

    The public ring is the first of `radii` that is anonymous at K: at least K buildings, and
    no 30 m spot around one of them holding more than 1/K of them (the --min-anonymity rule)."""
    K = args.min_anonymity
    for s, outer in enumerate(radii):
        cand, dist = registry.ring(lon, lat, args.min_offset, outer)
        if not K or s == len(radii) - 1:
            break
        if len(cand) >= K and spot_counts(registry, cand, args.spot).max() <= len(cand) // K:
            break
    if len(cand) == 0:
        return cand, None
    close = spot_counts(registry, cand, 30.0)
    best = np.flatnonzero(close == close.max())
    return cand, cand[best[np.argmin(dist[best])]]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("listings")
    ap.add_argument("--geocluster", required=True)
    ap.add_argument("--key-file", required=True)
    ap.add_argument("--min-offset", type=float, default=30)
    ap.add_argument("--max-offset", type=float, default=80)
    ap.add_argument("--min-anonymity", type=int, default=0)
    ap.add_argument("--anonymity-cap", type=float, default=1500)
    ap.add_argument("--anonymity-spot", dest="spot", type=float, default=30, help="the rule's spot radius, metres")
    ap.add_argument("--location-column", default="building_id")
    ap.add_argument("--sample", type=int, default=20000, help="attack at most this many locations (seeded sample)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    truth, location_of = read_registry(args.listings, args.location_column)
    registry = Registry(truth)
    with tempfile.TemporaryDirectory() as workdir:
        points = published_points(args, workdir)
    rng = np.random.default_rng(args.seed)
    if len(points) > args.sample:
        points = [points[i] for i in sorted(rng.choice(len(points), args.sample, replace=False))]
    radii = ring_radii(args)
    errors, alone = [], 0
    for lon, lat, listing in points:
        cand, guess = attack(registry, lon, lat, radii, args)
        alone += len(cand) == 1
        t = location_of[listing]
        errors.append(math.inf if guess is None else float(registry.metres(np.array([guess]), truth[t, 0], truth[t, 1])[0]))
    errors = np.array(errors)
    n = len(errors)
    setting = f"offsets {args.min_offset:g}-{args.max_offset:g} m" + (
        f", --min-anonymity {args.min_anonymity} (cap {args.anonymity_cap:g} m)" if args.min_anonymity else "")
    print(f"{args.listings}: {len(truth)} locations in the registry, {n} attacked; {setting}")
    print(f"recovered within 10 m: {100 * np.mean(errors <= 10):.1f} %; within 30 m: {100 * np.mean(errors <= 30):.1f} %; "
          f"median error {np.median(errors):.0f} m; alone in their ring (k = 1): {100 * alone / n:.1f} %")


if __name__ == "__main__":
    sys.exit(main())
