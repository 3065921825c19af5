#!/usr/bin/env python3
"""The exact mutual-reachability MST of points on the sphere by quitefastmst, for a side-by-side
figure against geocluster's index + core distances + MST stages on the same file.

quitefastmst (PyPI, 0.9.2) computes Euclidean MSTs; on unit vectors times the Earth's radius
the chord is a monotone function of the great-circle distance, so its tree over
`mst_euclid(X, M=min_samples - 1)` is the great-circle mutual-reachability MST that
`geocluster cluster --metric geodesic --min-samples min_samples` builds.

    pip install quitefastmst==0.9.2
    OMP_NUM_THREADS=1 python3 scripts/bench/quitefastmst_sphere.py world.csv --min-samples 5 --repeat 3
    geocluster cluster world.csv -o /dev/null --min-samples 5 --threads 1 --timings   # index, core distances, MST

Prints the median wall time of the fit (reading and the unit vectors are not timed).
"""
import argparse
import csv
import statistics
import time

import numpy as np

R = 6371008.8  # the mean Earth radius geocluster measures on


def unit_vectors(path):
    with open(path, newline="") as f:
        rows = csv.DictReader(f)
        lat_lon = np.array([(float(r["lat"]), float(r["lon"])) for r in rows])
    lat, lon = np.radians(lat_lon[:, 0]), np.radians(lat_lon[:, 1])
    return np.ascontiguousarray(np.column_stack([np.cos(lat) * np.cos(lon), np.cos(lat) * np.sin(lon), np.sin(lat)]) * R)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("input", help="CSV with lat and lon columns (degrees)")
    parser.add_argument("--min-samples", type=int, default=5, help="scikit-learn's min_samples (the point itself counted)")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    import quitefastmst
    X = unit_vectors(args.input)
    times = []
    for _ in range(args.repeat):
        start = time.perf_counter()
        quitefastmst.mst_euclid(X, M=args.min_samples - 1)
        times.append(time.perf_counter() - start)
    print(f"quitefastmst {quitefastmst.__version__}: {len(X)} points, M={args.min_samples - 1}, "
          f"median {statistics.median(times):.3f} s of {args.repeat}")


if __name__ == "__main__":
    main()
