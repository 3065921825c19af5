#!/usr/bin/env python3
"""Prediction speed: geocluster's fit with and without prediction data, `geocluster predict`,
and the hdbscan library's approximate_predict beside geocluster's on the same arrays.

Usage: prediction.py FIT.csv NEW.csv BINARY [--runs 5] [--side-by-side N] [--membership MIN_CLUSTER_SIZE]

1. `BINARY cluster FIT.csv --min-cluster-size 15 --min-samples 5 --threads 1 --timings`, with
   and without `--save-model`, interleaved RUNS times: the process's wall time less its
   reading, projecting and writing stages (the model is built inside the fit, in no stage of
   its own; writing includes writing the model file).
2. `BINARY predict MODEL NEW.csv --threads 1 --timings`, RUNS times: the predicting stage.
3. With --side-by-side N: the first N rows of FIT.csv fitted by hdbscan 0.8.44
   (boruvka_kdtree with approx_min_span_tree=False, prediction_data=True, min_samples 4: the
   same clustering as geocluster's min_samples 5, ties aside) and by geocluster_hdbscan (prediction_data=True), then approximate_predict of
   every row of NEW.csv by both, one thread, timed in this process; and how many labels agree
   (up to the numbering of clusters: hdbscan's cluster for each of ours, from the fitted rows).

4. With --membership MCS: all_points_membership_vectors of FIT.csv and membership_vector of
   NEW.csv (geocluster_hdbscan, one thread), fitted with min_cluster_size MCS.

x,y columns (metres), or lat,lon columns (degrees) for points on the sphere: the CLI then
clusters by great-circle distance (`--metric auto` picks it for world data) and the side by side
fits both libraries with metric="haversine" ([latitude, longitude] in radians, C-ordered: hdbscan
misreads other layouts in its soft clustering). Prints medians; run it on a quiet machine.
"""
import argparse
import csv
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from process_times import parse_timings  # noqa: E402

OUTSIDE_THE_FIT = ("reading", "projecting", "writing")


def cluster(binary, path, out, save_model=None):
    command = [binary, "cluster", path, "--min-cluster-size", "15", "--min-samples", "5", "--threads", "1",
               "--output", str(out), "--timings"] + (["--save-model", str(save_model)] if save_model else [])
    start = time.perf_counter()
    r = subprocess.run(command, capture_output=True, text=True)
    wall = time.perf_counter() - start
    if r.returncode != 0:
        sys.exit(f"{' '.join(command)} failed:\n{r.stderr}")
    stages = parse_timings(r.stderr)
    return wall - sum(stages.get(s, 0) for s in OUTSIDE_THE_FIT)


def predict(binary, model, path, out):
    command = [binary, "predict", str(model), path, "--threads", "1", "--output", str(out), "--timings"]
    r = subprocess.run(command, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"{' '.join(command)} failed:\n{r.stderr}")
    stages = parse_timings(r.stderr)
    return stages["predicting"], stages["loading model"]


def xy(path, limit=None):
    """The file's points: (x, y), or [latitude, longitude] in radians when it has lat,lon columns
    (then also True)."""
    import numpy as np

    with open(path, newline="") as f:
        rows = csv.DictReader(f)
        sphere = "x" not in rows.fieldnames
        names = ("lat", "lon") if sphere else ("x", "y")
        points = [(float(r[names[0]]), float(r[names[1]])) for _, r in zip(range(limit or 10**12), rows)]
    points = np.array(points)
    return (np.ascontiguousarray(np.radians(points)), True) if sphere else (points, False)


def side_by_side(fit_path, new_path, n, ties):
    import hdbscan
    import geocluster_hdbscan

    (fitted, sphere), (new, _) = xy(fit_path, n), xy(new_path)
    metric = "haversine" if sphere else "euclidean"
    theirs = hdbscan.HDBSCAN(min_cluster_size=15, min_samples=4, prediction_data=True, core_dist_n_jobs=1,
                             approx_min_span_tree=False, metric=metric).fit(fitted)
    ours = geocluster_hdbscan.HDBSCAN(min_cluster_size=15, min_samples=5, prediction_data=True, n_jobs=1,
                                      ties=ties, metric=metric).fit(fitted)
    start = time.perf_counter()
    their_labels, _ = hdbscan.approximate_predict(theirs, new)
    their_seconds = time.perf_counter() - start
    start = time.perf_counter()
    our_labels, _ = geocluster_hdbscan.approximate_predict(ours, new)
    our_seconds = time.perf_counter() - start
    votes = {}
    for o, t in zip(ours.labels_, theirs.labels_):
        if o >= 0:
            votes.setdefault(int(o), Counter())[int(t)] += 1
    to_theirs = {o: c.most_common(1)[0][0] for o, c in votes.items()}
    agree = sum((to_theirs.get(int(o), -2) if o >= 0 else -1) == int(t) for o, t in zip(our_labels, their_labels))
    fitted_agree = sum((to_theirs.get(int(o), -2) if o >= 0 else -1) == int(t) for o, t in zip(ours.labels_, theirs.labels_))
    print(f"side by side, {len(fitted)} fitted, {len(new)} new points, {metric}, one thread, geocluster ties={ties}:")
    print(f"  hdbscan approximate_predict      {their_seconds:8.3f} s")
    print(f"  geocluster approximate_predict   {our_seconds:8.3f} s   ({their_seconds / our_seconds:.0f}x)")
    print(f"  same label on {agree} of {len(new)} new points ({100 * agree / len(new):.2f} %); "
          f"the fits agree on {100 * fitted_agree / len(fitted):.2f} % of the fitted points")


def membership(fit_path, new_path, min_cluster_size):
    import geocluster_hdbscan

    (fitted, sphere), (new, _) = xy(fit_path), xy(new_path)
    model = geocluster_hdbscan.HDBSCAN(min_cluster_size=min_cluster_size, min_samples=5, prediction_data=True,
                                       n_jobs=1, metric="haversine" if sphere else "euclidean").fit(fitted)
    for name, call in (("all_points_membership_vectors", lambda: geocluster_hdbscan.all_points_membership_vectors(model)),
                       ("membership_vector of the new points", lambda: geocluster_hdbscan.membership_vector(model, new))):
        times, shape = [], None
        for _ in range(3):
            # The previous answer is dropped first: each call then starts with the same memory
            # free (holding two 1.2 GB answers at once makes the kernel compact memory to find
            # huge pages for the second, which costs seconds here and is not the call's work).
            result = None
            start = time.perf_counter()
            result = call()
            times.append(time.perf_counter() - start)
            shape = result.shape
        print(f"{name}: {shape[0]} x {shape[1]} clusters (min_cluster_size {min_cluster_size}), "
              f"one thread, median of 3: {statistics.median(times):.3f} s (all: {', '.join(f'{t:.3f}' for t in times)})")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("fit")
    parser.add_argument("new")
    parser.add_argument("binary")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--side-by-side", type=int, default=0, metavar="N")
    parser.add_argument("--membership", type=int, default=0, metavar="MIN_CLUSTER_SIZE",
                        help="also time the soft memberships of every fitted point and of the new points, fitted "
                             "with this min_cluster_size (the matrix is points x clusters: keep the clusters few)")
    parser.add_argument("--ties", default="one-at-a-time", choices=["one-at-a-time", "all-at-once"],
                        help="geocluster's tie rule in the side-by-side fit (hdbscan's is one at a time)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        folder = Path(folder)
        plain, kept, predicting, loading = [], [], [], []
        for _ in range(args.runs):
            plain.append(cluster(args.binary, args.fit, folder / "a.csv"))
            kept.append(cluster(args.binary, args.fit, folder / "b.csv", save_model=folder / "m.gcm"))
        for _ in range(args.runs):
            p, l = predict(args.binary, folder / "m.gcm", args.new, folder / "p.csv")
            predicting.append(p)
            loading.append(l)
        fit, fit_kept = statistics.median(plain), statistics.median(kept)
        print(f"fit (process less reading and writing, one thread), median of {args.runs}: {fit:.3f} s; "
              f"with prediction data {fit_kept:.3f} s ({fit_kept / fit:.2f}x)")
        print(f"predict {args.new}, one thread: predicting {statistics.median(predicting):.3f} s, "
              f"loading the model {statistics.median(loading):.3f} s (medians of {args.runs})")
    if args.side_by_side:
        side_by_side(args.fit, args.new, args.side_by_side, args.ties)
    if args.membership:
        membership(args.fit, args.new, args.membership)


if __name__ == "__main__":
    main()
