#!/usr/bin/env python3
"""geocluster_hdbscan.HDBSCAN().fit from Python against the CLI's fit stage and the Python peers, on the
same planar points, in one run; prints medians and ratios. A benchmark, not a timed test.

    .build/release/geocluster generate --count 1000000 --seed 1 -o f.csv     # seoul listings
    .build/release/geocluster project f.csv -o xy.csv                        # + x,y in metres
    python scripts/python/bench.py xy.csv --cli .build/release/geocluster --repeat 3 --threads 1

Run it with a Python that has geocluster installed (pip install ./python) and, for the peers,
scripts/peers/install.sh's libraries. Every fit gets scikit-learn's min_samples meaning (the
peers' own convention is mapped as scripts/peers/run_peers.py does). The CLI's figure is the
sum of the HDBSCAN stages its --timings prints (index ... label: the fit without reading,
projecting or writing), its process tuned as the CLI always is (docs/process.md).
"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HDBSCAN_STAGES = ("index", "core distances", "MST", "linkage", "condense", "select", "label")


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("points", type=Path, help="CSV with x,y columns (geocluster project's output)")
    parser.add_argument("--cli", type=Path, help="the geocluster binary (release build) to time too")
    parser.add_argument("--peers", default="fast_hdbscan,hdbscan_rs", help="comma-separated; '' for none")
    parser.add_argument("--repeat", type=int, default=3, help="fits per library (the median is reported)")
    parser.add_argument("--peer-repeat", type=int, default=None, help="fits per peer (default: --repeat)")
    parser.add_argument("--threads", type=int, default=1, help="threads for geocluster, the CLI and fast_hdbscan")
    parser.add_argument("--min-cluster-size", type=int, default=5, help="HDBSCAN()'s default")
    parser.add_argument("--min-samples", type=int, default=None, help="scikit-learn's meaning; default: min_cluster_size")
    return parser.parse_args()


def read_xy(path):
    import numpy as np

    with open(path) as handle:
        header = [h.strip().lower() for h in handle.readline().split(",")]
    return np.loadtxt(path, delimiter=",", skiprows=1, usecols=[header.index("x"), header.index("y")],
                      dtype=np.float64, ndmin=2)


def timed(fit, repeat):
    """(median seconds, every time, the last result)."""
    times, result = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        result = fit()
        times.append(time.perf_counter() - start)
    return statistics.median(times), times, result


def fingerprint(labels):
    import numpy as np

    labels = np.asarray(labels)
    return f"{len(set(labels[labels >= 0].tolist()))} clusters, {int((labels < 0).sum())} noise"


def cli_fit_seconds(cli, points, mcs, ms, threads):
    with tempfile.TemporaryDirectory() as folder:
        run = subprocess.run([str(cli), "cluster", str(points), "-o", str(Path(folder) / "labels.csv"), "--timings",
                              "--min-cluster-size", str(mcs), "--min-samples", str(ms), "--threads", str(threads)],
                             capture_output=True, text=True, check=True)
    stages = {}
    for line in run.stderr.splitlines():
        name = line[:20].strip()
        if name in HDBSCAN_STAGES and line.rstrip().endswith(" s"):
            stages[name] = float(line[20:].split()[0])
    missing = set(HDBSCAN_STAGES) - set(stages)
    if missing:
        raise SystemExit(f"CLI --timings printed no {', '.join(sorted(missing))}:\n{run.stderr}")
    return sum(stages.values())


def peer_fit(name, mcs, ms, threads, X):
    if name == "fast_hdbscan":
        import fast_hdbscan
        import numba

        numba.set_num_threads(min(threads, numba.config.NUMBA_NUM_THREADS))
        peer_ms = ms - 1 if ms >= 3 else 1  # its k counts the point's own neighbour query
        fast_hdbscan.HDBSCAN(min_cluster_size=mcs, min_samples=peer_ms).fit(X[:2000])  # JIT warm-up, untimed
        return lambda: fast_hdbscan.HDBSCAN(min_cluster_size=mcs, min_samples=peer_ms).fit(X).labels_
    if name == "hdbscan_rs":
        import hdbscan_rs

        return lambda: hdbscan_rs.HDBSCAN(min_cluster_size=mcs, min_samples=ms).fit(X).labels_
    raise SystemExit(f"unknown peer {name}")


def main():
    import numpy as np

    import geocluster_hdbscan

    args = parse_args()
    mcs = args.min_cluster_size
    ms = args.min_samples or mcs
    X = read_xy(args.points)
    print(f"{len(X)} points from {args.points}; min_cluster_size={mcs}, min_samples={ms} (scikit-learn's), "
          f"threads={args.threads}, repeat={args.repeat}; {os.cpu_count()} CPUs")
    # Python and CLI runs alternate, so that load from elsewhere on the machine falls on both.
    fit = lambda: geocluster_hdbscan.HDBSCAN(min_cluster_size=mcs, min_samples=ms, n_jobs=args.threads).fit(X).labels_
    python_times, cli_times, labels = [], [], None
    for _ in range(args.repeat):
        _, times, labels = timed(fit, 1)
        python_times += times
        if args.cli:
            cli_times.append(cli_fit_seconds(args.cli, args.points, mcs, ms, args.threads))
    rows = [("geocluster_hdbscan.HDBSCAN().fit (Python)", statistics.median(python_times), python_times, fingerprint(labels))]
    if args.cli:
        rows.append(("geocluster CLI, fit stages", statistics.median(cli_times), cli_times, ""))
    split, _, _ = timed(lambda: (np.array(X[:, 0]), np.array(X[:, 1])), max(args.repeat, 5))
    for name in filter(None, args.peers.split(",")):
        median, times, labels = timed(peer_fit(name, mcs, ms, args.threads, X), args.peer_repeat or args.repeat)
        rows.append((name, median, times, fingerprint(labels)))
    base = rows[0][1]
    print(f"{'':36} {'median s':>9} {'x geocluster':>13}  runs; result")
    for name, median, times, note in rows:
        runs = " ".join(f"{t:.3f}" for t in times)
        print(f"{name:36} {median:9.3f} {median / base:13.2f}  {runs}; {note}")
    print(f"column split (numpy copy of X[:, 0] and X[:, 1], what the library's read of the two strided "
          f"columns does): {split * 1000:.1f} ms median, {100 * split / base:.1f} % of the Python fit")


if __name__ == "__main__":
    sys.exit(main())
