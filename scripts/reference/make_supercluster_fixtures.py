#!/usr/bin/env python3
"""Writes Tests/Fixtures/supercluster/<case>.json: small point sets and what the
`pysupercluster-problematy` package (a C++ port of mapbox/supercluster) returns for them at
several zooms. PinsTests/SuperclusterFixtureTests compares the Swift baseline (Sources/Pins/
Supercluster.swift) with these files: the same items, count and position within 1e-6 degrees.

Install (see README.md): pip install wheel; pip install --no-build-isolation pysupercluster-problematy==0.7.8
Run:     python3 scripts/reference/make_supercluster_fixtures.py [--out-dir DIR]

Output is deterministic (seeded numpy generators, sorted items, fixed layout).
"""
import argparse
import json
import os
import sys

import numpy
import pysupercluster

PACKAGE_VERSION = "0.7.8"


def cases():
    rng = numpy.random.default_rng(13)
    out = {}
    # Dense blobs around Seoul plus scattered points.
    blobs = [numpy.column_stack([c[0] + s * rng.standard_normal(60), c[1] + s * rng.standard_normal(60)])
             for c, s in [((127.0, 37.5), 0.01), ((127.05, 37.55), 0.003), ((126.9, 37.45), 0.02)]]
    scatter = numpy.column_stack([126.7 + 0.6 * rng.random(80), 37.3 + 0.4 * rng.random(80)])
    out["seoul_blobs"] = numpy.vstack(blobs + [scatter])
    # Same-location points: five buildings with 2-9 units each, plus singles near them.
    rows = []
    for b in range(5):
        lon, lat = 127.0 + 0.01 * rng.random(), 37.5 + 0.01 * rng.random()
        rows += [(lon, lat)] * int(rng.integers(2, 10))
    rows += [(127.0 + 0.01 * rng.random(), 37.5 + 0.01 * rng.random()) for _ in range(30)]
    out["same_location"] = numpy.array(rows)
    # Points over the world (several continents, both hemispheres).
    out["world"] = numpy.column_stack([-179 + 358 * rng.random(150), -80 + 160 * rng.random(150)])
    return out


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out-dir", default=os.path.join(os.path.dirname(__file__), "../../Tests/Fixtures/supercluster"))
    args = parser.parse_args()
    os.makedirs(args.out_dir, exist_ok=True)
    options = [dict(min_zoom=0, max_zoom=16, radius=40, extent=512), dict(min_zoom=2, max_zoom=12, radius=60, extent=256)]
    for name, points in cases().items():
        points = numpy.ascontiguousarray(points, dtype=numpy.float64)
        runs = []
        for o in options:
            index = pysupercluster.SuperCluster(points, **o)
            zooms = {}
            for z in [0, 3, 6, 9, 11, 13, 15, o["max_zoom"] + 1]:
                items = index.getClusters(top_left=(-180, 90), bottom_right=(180, -90), zoom=z)
                items = sorted(([int(c["count"]), float(c["longitude"]), float(c["latitude"])] for c in items))
                zooms[str(z)] = items
            runs.append({"options": o, "zooms": zooms})
        doc = {"package": "pysupercluster-problematy " + PACKAGE_VERSION,
               "longitudes": points[:, 0].tolist(), "latitudes": points[:, 1].tolist(), "runs": runs}
        path = os.path.join(args.out_dir, name + ".json")
        with open(path, "w") as f:
            json.dump(doc, f, indent=1, sort_keys=True)
            f.write("\n")
        print(f"{path}: {len(points)} points", file=sys.stderr)


if __name__ == "__main__":
    main()
