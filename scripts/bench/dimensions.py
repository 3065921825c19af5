#!/usr/bin/env python3
"""HDBSCAN in d dimensions, side by side: geocluster against fast_hdbscan, hdbscan and
quitefastmst on the same arrays, in one run (docs/performance.md, "Beyond two dimensions").

Usage (from the repository root, after `swift build -c release --product GeoclusterCAPI` and
scripts/peers/install.sh into .venv-peers):

    .venv-peers/bin/python scripts/bench/dimensions.py                  # d = 3, 5, 10 at 1M
    .venv-peers/bin/python scripts/bench/dimensions.py --n 20000 --dims 3 --repeat 1   # a quick check

Options: --n (default 1000000), --dims (default 3,5,10), --data (default blobs,manifold),
--repeat R (default 3: geocluster's figure a median of R fits; each peer is fit once, most of
them taking minutes), --threads (default 2), --timeout
seconds for one peer fit (default 900; a peer that takes longer is reported as not finished
and not run again on that data), --peers (default fast_hdbscan,hdbscan,quitefastmst),
--library (default .build/release/libGeoclusterCAPI.so), --seed (default 1), --json FILE,
--csv DIR (write the data sets as CSV files for `geocluster bench --input FILE --features
f0,… --scale none`, with x,y repeating the first two features as the position every input
file needs, and a truth column; nothing is fitted).

Data sets, generated here from the seed (float64, C order):
  blobs     20 Gaussian clusters in [0, 100]^d with standard deviations 1 to 4, and 10 %
            uniform noise over the box.
  manifold  an embedding-like set: 15 Gaussian clusters in a 2-D latent plane, mapped into d
            dimensions by a fixed smooth map (a random linear map of the latent point and of
            sines and cosines of it), plus Gaussian noise of 0.05 in every dimension: clusters
            along a curved sheet, as UMAP/PCA outputs of real data look.

What is fit: every library with min_cluster_size 100 and min_samples 10 (their own
conventions: hdbscan's and fast_hdbscan's min_samples count the point itself as scikit-learn's
does), --threads threads where the library has a setting: geocluster `HDBSCAN(n_jobs=T)`,
fast_hdbscan under numba.set_num_threads(T), hdbscan `core_dist_n_jobs=T` (its
`algorithm="best"`: Borůvka on a KD-tree), quitefastmst's `mst_euclid(X, M=9)` (the exact
mutual-reachability MST only, no labels; its M counts neighbours without the point itself;
`quitefastmst.omp_set_num_threads(T)`). Each fit runs
in its own process (so memory and JIT state do not leak between them), the data passed as a
.npy file and loaded before the clock starts; fast_hdbscan gets an untimed warm-up fit on 2000
points first. Reported per (data, d, library): the median fit seconds, its ratio to
geocluster's from this run, the cluster count and the ARI of the labels against geocluster's
(quitefastmst: the MST's total weight against geocluster's, relative difference).
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent.parent
MIN_CLUSTER_SIZE, MIN_SAMPLES = 100, 10


def blobs(n: int, d: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """The points and their truth: the blob each was drawn from, -1 for the noise."""
    centres = rng.uniform(0, 100, size=(20, d))
    spread = rng.uniform(1, 4, size=20)
    noise = n // 10
    which = rng.integers(0, 20, size=n - noise)
    x = centres[which] + rng.normal(size=(n - noise, d)) * spread[which, None]
    return np.vstack([x, rng.uniform(0, 100, size=(noise, d))]), np.concatenate([which, np.full(noise, -1)])


def manifold(n: int, d: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """The points and their truth: the latent cluster each was drawn from."""
    centres = rng.uniform(-3, 3, size=(15, 2))
    which = rng.integers(0, 15, size=n)
    t = centres[which] + rng.normal(size=(n, 2)) * rng.uniform(0.1, 0.4, size=15)[which, None]
    w = rng.normal(size=(2, 4))
    lifted = np.hstack([t, np.sin(t @ w), np.cos(t @ w)])
    a = rng.normal(size=(lifted.shape[1], d))
    return lifted @ a + rng.normal(scale=0.05, size=(n, d)), which


def write_csv(path: Path, X: np.ndarray, truth: np.ndarray) -> None:
    """`id,x,y,f0,…,truth` for `geocluster bench --input FILE --features f0,… --scale none`:
    x,y repeat the first two features, as the position every input file needs."""
    d = X.shape[1]
    header = ",".join(["id", "x", "y"] + [f"f{a}" for a in range(d)] + ["truth"])
    table = np.column_stack([np.arange(len(X)), X[:, 0], X[:, 1 % d], X, truth])
    formats = ["%d"] + ["%.6f"] * (d + 2) + ["%d"]
    np.savetxt(path, table, delimiter=",", header=header, comments="", fmt=formats)


FIT = r'''
import json, sys, time
import numpy as np
library, path, threads, out = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
X = np.load(path)
result = {}
if library == "geocluster":
    from geocluster_hdbscan import HDBSCAN
    model = HDBSCAN(min_cluster_size=%(mcs)d, min_samples=%(ms)d, n_jobs=threads)
    start = time.perf_counter(); model.fit(X); seconds = time.perf_counter() - start
    labels = model.labels_
elif library == "fast_hdbscan":
    import numba, fast_hdbscan
    numba.set_num_threads(threads)
    fast_hdbscan.HDBSCAN(min_cluster_size=%(mcs)d, min_samples=%(ms)d).fit(X[:2000])
    model = fast_hdbscan.HDBSCAN(min_cluster_size=%(mcs)d, min_samples=%(ms)d)
    start = time.perf_counter(); model.fit(X); seconds = time.perf_counter() - start
    labels = model.labels_
elif library == "hdbscan":
    import hdbscan
    model = hdbscan.HDBSCAN(min_cluster_size=%(mcs)d, min_samples=%(ms)d, core_dist_n_jobs=threads)
    start = time.perf_counter(); model.fit(X); seconds = time.perf_counter() - start
    labels = model.labels_
elif library == "quitefastmst":
    import quitefastmst
    quitefastmst.omp_set_num_threads(threads)
    start = time.perf_counter(); found = quitefastmst.mst_euclid(X, M=%(ms)d - 1); seconds = time.perf_counter() - start
    labels = None
    result["mst_weight"] = float(np.sum(found[0]))
if labels is not None:
    np.save(out + ".labels.npy", np.asarray(labels, dtype=np.int64))
    result["clusters"] = int(np.max(labels)) + 1 if len(labels) else 0
result["seconds"] = seconds
with open(out, "w") as f:
    json.dump(result, f)
''' % {"mcs": MIN_CLUSTER_SIZE, "ms": MIN_SAMPLES}


def fit(library: str, data: Path, threads: int, timeout: float, work: Path, env: dict) -> dict | None:
    """One fit in its own process; None when it did not finish within `timeout`."""
    out = work / f"{library}-{data.stem}.json"
    try:
        subprocess.run([sys.executable, "-c", FIT, library, str(data), str(threads), str(out)],
                       check=True, timeout=timeout, env=env)
    except subprocess.TimeoutExpired:
        return None
    result = json.loads(out.read_text())
    labels = Path(str(out) + ".labels.npy")
    if labels.exists():
        result["labels"] = np.load(labels)
    return result


def geocluster_mst_weight(data: Path, env: dict) -> float:
    code = ("import sys, numpy as np; from geocluster_hdbscan import HDBSCAN; "
            f"m = HDBSCAN(min_cluster_size={MIN_CLUSTER_SIZE}, min_samples={MIN_SAMPLES}, gen_min_span_tree=True)"
            ".fit(np.load(sys.argv[1])); print(repr(float(np.sort(m.minimum_spanning_tree_['distance']).sum())))")
    done = subprocess.run([sys.executable, "-c", code, str(data)], check=True, env=env, capture_output=True, text=True)
    return float(done.stdout.strip())


def ari(a: np.ndarray, b: np.ndarray) -> float:
    from sklearn.metrics import adjusted_rand_score
    return float(adjusted_rand_score(a, b))


def measure(args, name: str, d: int, X: np.ndarray, work: Path, env: dict) -> list[dict]:
    path = work / f"{name}-{d}.npy"
    np.save(path, X)
    rows = []
    base = None
    for library in ["geocluster"] + args.peers:
        runs = []
        for _ in range(args.repeat if library == "geocluster" else 1):
            r = fit(library, path, args.threads, args.timeout, work, env)
            if r is None:
                break
            runs.append(r)
        row = {"data": name, "d": d, "n": len(X), "library": library}
        if not runs:
            row["seconds"] = None
            print(f"{name} d={d} {library}: did not finish in {args.timeout:.0f} s", flush=True)
            rows.append(row)
            continue
        row["seconds"] = statistics.median(r["seconds"] for r in runs)
        row["runs"] = len(runs)
        if library == "geocluster":
            base = {"seconds": row["seconds"], "labels": runs[0]["labels"]}
            row["clusters"] = runs[0]["clusters"]
        elif "labels" in runs[0]:
            row["clusters"] = runs[0]["clusters"]
            row["ari"] = ari(base["labels"], runs[0]["labels"])
        else:
            ours = geocluster_mst_weight(path, env)
            row["mst_relative_difference"] = abs(runs[0]["mst_weight"] - ours) / ours
        row["ratio"] = row["seconds"] / base["seconds"]
        print(json.dumps({k: v for k, v in row.items()}), flush=True)
        rows.append(row)
    path.unlink()
    return rows


def markdown(rows: list[dict]) -> str:
    lines = ["| data | d | n | library | fit (s, median) | × geocluster | clusters | agreement |",
             "| --- | ---: | ---: | --- | ---: | ---: | ---: | --- |"]
    for r in rows:
        seconds = "not finished" if r["seconds"] is None else f"{r['seconds']:.2f}"
        ratio = "" if r["seconds"] is None else f"{r['ratio']:.1f}"
        agree = (f"ARI {r['ari']:.3f}" if "ari" in r else
                 f"MST weight ±{r['mst_relative_difference']:.1e}" if "mst_relative_difference" in r else "")
        lines.append(f"| {r['data']} | {r['d']} | {r['n']:,} | {r['library']} | {seconds} | {ratio} | "
                     f"{r.get('clusters', '')} | {agree} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--n", type=int, default=1_000_000)
    parser.add_argument("--dims", default="3,5,10")
    parser.add_argument("--data", default="blobs,manifold")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--timeout", type=float, default=900)
    parser.add_argument("--peers", default="fast_hdbscan,hdbscan,quitefastmst")
    parser.add_argument("--library", default=str(ROOT / ".build/release/libGeoclusterCAPI.so"))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json")
    parser.add_argument("--csv", help="write each data set as DIR/NAME-dD-N.csv (id,x,y,f0,…,truth) and fit nothing")
    args = parser.parse_args()
    args.peers = [p for p in args.peers.split(",") if p]
    env = dict(os.environ, PYTHONPATH=str(ROOT / "python"), GEOCLUSTER_CAPI_LIBRARY=args.library)
    rows = []
    started = time.time()
    with tempfile.TemporaryDirectory() as tmp:
        for name in args.data.split(","):
            for d in (int(v) for v in args.dims.split(",")):
                X, truth = {"blobs": blobs, "manifold": manifold}[name](args.n, d, np.random.default_rng([args.seed, d]))
                if args.csv:
                    path = Path(args.csv) / f"{name}-d{d}-{args.n}.csv"
                    write_csv(path, X, truth)
                    print(f"wrote {path}", flush=True)
                    continue
                rows += measure(args, name, d, X, Path(tmp), env)
    if args.csv:
        return
    print(markdown(rows))
    print(f"\n{time.time() - started:.0f} s in all; {args.threads} threads; {os.cpu_count()} processors")
    if args.json:
        Path(args.json).write_text(json.dumps([{k: v for k, v in r.items()} for r in rows], indent=1))


if __name__ == "__main__":
    main()
