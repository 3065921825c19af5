"""Time all_points_membership_vectors (and membership_vector of new points) on the first rows
of a fitted file: one fit, then one call each (one thread unless --threads); prints the seconds and a SHA-256 of
each answer, so that two builds of the library can be compared for speed and for identical
values (run it with GEOCLUSTER_CAPI_LIBRARY pointing at each).

Usage: membership.py FIT.csv NEW.csv [--rows N] [--min-cluster-size M] [--threads T]
(x,y columns; --min-cluster-size defaults to 2000 scaled by N over the file's rows.)"""

import argparse
import hashlib
import time

import numpy as np
import pandas as pd

import geocluster_hdbscan


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("fit")
    parser.add_argument("new")
    parser.add_argument("--rows", type=int, default=0, help="fit the first N rows (default: all)")
    parser.add_argument("--min-cluster-size", type=int, default=0)
    parser.add_argument("--threads", type=int, default=1, help="workers for the calls (n_jobs)")
    args = parser.parse_args()
    fitted = pd.read_csv(args.fit, usecols=["x", "y"]).to_numpy()
    new = pd.read_csv(args.new, usecols=["x", "y"]).to_numpy()
    n = args.rows or len(fitted)
    mcs = args.min_cluster_size or 2000 * n // len(fitted)
    model = geocluster_hdbscan.HDBSCAN(min_cluster_size=mcs, min_samples=5, prediction_data=True,
                                       n_jobs=args.threads).fit(fitted[:n])
    for name, call in (("all_points_membership_vectors", lambda: geocluster_hdbscan.all_points_membership_vectors(model)),
                       ("membership_vector", lambda: geocluster_hdbscan.membership_vector(model, new[: n // 10]))):
        start = time.perf_counter()
        result = call()
        seconds = time.perf_counter() - start
        digest = hashlib.sha256(np.ascontiguousarray(result).tobytes()).hexdigest()[:16]
        print(f"{name}: {result.shape[0]} x {result.shape[1]} (min_cluster_size {mcs}), {args.threads} thread(s): {seconds:.3f} s, "
              f"sha256 {digest}")


if __name__ == "__main__":
    main()
