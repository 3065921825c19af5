#!/usr/bin/env python3
"""Time other HDBSCAN implementations ("peers") on a CSV of planar points.

Each peer runs in its own fresh subprocess, so its peak RSS is its own. The child reads the
CSV, imports the library, (for numba peers) does one untimed warm-up fit, then times
`--repeat` fits and reports the median. min_samples is given in scikit-learn's convention
(the point counts itself) and mapped to each library's own.

    python scripts/peers/run_peers.py --generate 20000 --seed 1 --input /tmp/estate.csv
    python scripts/peers/run_peers.py --input pts.csv --min-cluster-size 15 --min-samples 5 \
        --peers sklearn,hdbscan,fast_hdbscan,hdbscan_rs --repeat 3 \
        --labels-dir /tmp/labels --compare geocluster_labels.csv --json /tmp/peers.json

See scripts/peers/README.md.
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ALL_PEERS = ["sklearn", "hdbscan", "fast_hdbscan", "hdbscan_rs"]
NUMBA_PEERS = {"fast_hdbscan"}


# --------------------------------------------------------------------------------------
# min_samples conventions
# --------------------------------------------------------------------------------------


def map_min_samples(peer: str, ms_sklearn: int) -> tuple[int, str]:
    """The min_samples to pass to `peer` for scikit-learn's `ms_sklearn`, and a note.

    * sklearn, hdbscan_rs: core distance = distance to the ms-th nearest point, itself
      included (hdbscan_rs checked empirically: a group of exactly ms coincident points gets
      core distance 0 and probability 1, as in sklearn).
    * hdbscan: `k = min_samples + 1` neighbour query / `np.partition(D, ms)[ms]`, i.e. the
      ms-th *other* point, so sklearn's ms maps to ms - 1; it rejects 0.
    * fast_hdbscan: `k = min_samples + 1` query like hdbscan for min_samples > 1, but
      min_samples = 1 is special-cased to core distance 0 (= sklearn's 1).
    sklearn's 1 and 2 give the same MST (single linkage: the nearest-neighbour distance never
    exceeds the Euclidean MST edge at a point), so 1 stands in for both where needed.
    """
    if peer in ("sklearn", "hdbscan_rs"):
        return ms_sklearn, ""
    if peer == "hdbscan":
        if ms_sklearn >= 2:
            return ms_sklearn - 1, ""
        return 1, "sklearn ms=1 has no exact hdbscan equivalent (0 is rejected); 1 gives the same MST weights"
    if peer == "fast_hdbscan":
        if ms_sklearn >= 3:
            return ms_sklearn - 1, ""
        if ms_sklearn == 1:
            return 1, ""
        return 1, "fast_hdbscan's 1 means core distance 0 (= sklearn 1), same MST weights as sklearn 2"
    raise ValueError(peer)


# --------------------------------------------------------------------------------------
# CSV in / out
# --------------------------------------------------------------------------------------


def read_points(path: Path, columns=("x", "y"), with_ids: bool = True):
    """(ids, float64 array of shape (n, len(columns))) from a CSV with a header row.

    Column names are matched case-insensitively. The ids are the `id` column as strings if
    there is one, else the 0-based data row numbers. Fields must be unquoted (numpy's C
    reader, several times faster than the csv module: docs/performance.md).
    """
    import numpy as np

    with open(path, newline="") as handle:
        header = [h.strip().lower() for h in next(csv.reader(handle))]
    missing = [c for c in columns if c not in header]
    if missing:
        raise SystemExit(f"{path}: header must contain {', '.join(columns)} columns "
                         f"(missing {', '.join(missing)}), got {header}")
    values = np.loadtxt(path, delimiter=",", skiprows=1, ndmin=2, dtype=np.float64,
                        usecols=[header.index(c) for c in columns])
    if not with_ids:
        ids = None
    elif "id" in header:
        ids = np.loadtxt(path, delimiter=",", skiprows=1, ndmin=1, dtype=str,
                         usecols=header.index("id")).tolist()
    else:
        ids = [str(i) for i in range(len(values))]
    return ids, values


def read_labels(path: Path) -> dict[str, int]:
    with open(path, newline="") as handle:
        reader = csv.DictReader(handle)
        fields = [f.strip().lower() for f in reader.fieldnames or []]
        if not {"id", "label"} <= set(fields):
            raise SystemExit(f"{path}: expected columns id,label, got {reader.fieldnames}")
        key_id = reader.fieldnames[fields.index("id")]
        key_label = reader.fieldnames[fields.index("label")]
        return {row[key_id]: int(row[key_label]) for row in reader}


def write_labels(path: Path, ids, labels) -> None:
    with open(path, "w", newline="") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(["id", "label"])
        writer.writerows(zip(ids, (int(v) for v in labels)))


# --------------------------------------------------------------------------------------
# Estate-like test data
# --------------------------------------------------------------------------------------


def generate_estate_csv(path: Path, n: int, seed: int, extent: float = 30_000.0) -> dict:
    """Gaussian blobs (sigma 30-400 m), strips and 25 % uniform noise over ~30 km.

    Columns: id, x, y, kind (blob|strip|noise) and the generating group; 0.01 m grid.
    """
    import numpy as np

    rng = np.random.default_rng(seed)
    n_noise = int(round(0.25 * n))
    n_strip = int(round(0.25 * n))
    n_blob = n - n_noise - n_strip

    # Blobs: sizes from a log-normal, sigma log-uniform in [30, 400] m.
    n_blobs = max(3, n_blob // 400)
    weights = rng.lognormal(0.0, 0.8, n_blobs)
    sizes = np.maximum(1, np.floor(weights / weights.sum() * n_blob)).astype(int)
    sizes[np.argmax(sizes)] += n_blob - sizes.sum()
    parts, kinds, groups = [], [], []
    for g, size in enumerate(sizes):
        centre = rng.uniform(0.05 * extent, 0.95 * extent, 2)
        sigma = math.exp(rng.uniform(math.log(30.0), math.log(400.0)))
        parts.append(rng.normal(centre, sigma, (size, 2)))
        kinds += ["blob"] * size
        groups += [f"b{g}"] * size

    # Strips: 0.5-3 km long, 10-40 m half-width jitter, random orientation.
    n_strips = max(2, n_strip // 600)
    strip_sizes = np.full(n_strips, n_strip // n_strips)
    strip_sizes[0] += n_strip - strip_sizes.sum()
    for g, size in enumerate(strip_sizes):
        start = rng.uniform(0.1 * extent, 0.9 * extent, 2)
        length = rng.uniform(500.0, 3000.0)
        angle = rng.uniform(0.0, math.pi)
        half_width = rng.uniform(10.0, 40.0)
        along = rng.uniform(0.0, length, size)
        across = rng.uniform(-half_width, half_width, size)
        direction = np.array([math.cos(angle), math.sin(angle)])
        normal = np.array([-direction[1], direction[0]])
        parts.append(start + along[:, None] * direction + across[:, None] * normal)
        kinds += ["strip"] * size
        groups += [f"s{g}"] * size

    parts.append(rng.uniform(0.0, extent, (n_noise, 2)))
    kinds += ["noise"] * n_noise
    groups += ["noise"] * n_noise

    points = np.round(np.vstack(parts), 2) + 0.0
    order = rng.permutation(n)  # no structure in the row order
    with open(path, "w", newline="") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(["id", "x", "y", "kind", "group"])
        for row, i in enumerate(order):
            writer.writerow([f"p{row:07d}", repr(float(points[i, 0])), repr(float(points[i, 1])),
                             kinds[i], groups[i]])
    return {"n": n, "blobs": int(n_blobs), "strips": int(n_strips), "noise": n_noise}


# --------------------------------------------------------------------------------------
# Child: one peer, one process
# --------------------------------------------------------------------------------------


def status_kb(field: str) -> int:
    """A /proc/self/status field in KiB (VmHWM: peak resident set so far; VmRSS: now); -1 if absent."""
    with open("/proc/self/status") as handle:
        for line in handle:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    return -1


def _reset_peak_rss() -> bool:
    try:
        with open("/proc/self/clear_refs", "w") as handle:
            handle.write("5")  # resets VmHWM to the current RSS (Linux >= 4.0)
        return True
    except OSError:
        return False


def make_fit(peer: str, params: dict, threads: int):
    """Return (fit function X -> labels, version, settings string). Imports happen here."""
    mcs, ms = params["min_cluster_size"], params["min_samples_mapped"]
    if peer == "sklearn":
        import sklearn
        from sklearn.cluster import HDBSCAN

        def fit(x):
            return HDBSCAN(min_cluster_size=mcs, min_samples=ms, n_jobs=threads, copy=False).fit(x).labels_
        return fit, sklearn.__version__, f"algorithm=auto (kd_tree + Prim), n_jobs={threads} (only the k-NN core distances are parallel)"
    if peer == "hdbscan":
        import hdbscan
        from importlib.metadata import version

        def fit(x):
            return hdbscan.HDBSCAN(min_cluster_size=mcs, min_samples=ms, core_dist_n_jobs=threads).fit(x).labels_
        return fit, version("hdbscan"), f"algorithm=best (boruvka_kdtree, approx_min_span_tree=True), core_dist_n_jobs={threads} (joblib processes, only above 16384 points)"
    if peer == "fast_hdbscan":
        import fast_hdbscan
        import numba
        from importlib.metadata import version

        numba.set_num_threads(threads)

        def fit(x):
            return fast_hdbscan.HDBSCAN(min_cluster_size=mcs, min_samples=ms).fit(x).labels_
        return fit, version("fast_hdbscan"), f"numba threads={numba.get_num_threads()}, parallel Boruvka, float32 KD-tree"
    if peer == "hdbscan_rs":
        import hdbscan_rs
        from importlib.metadata import version

        def fit(x):
            return hdbscan_rs.HDBSCAN(min_cluster_size=mcs, min_samples=ms).fit(x).labels_
        return fit, version("hdbscan-rs"), "no thread setting exposed (runs single-threaded: CPU time = wall time)"
    raise ValueError(peer)


def child_main(args) -> int:
    import numpy as np

    ids, x = read_points(Path(args.input))
    del ids
    if args.shift:
        # Translate so the minimum is 0: exact HDBSCAN is translation invariant, and this keeps
        # float32 peers (fast_hdbscan) from losing precision on projected coordinates.
        x = x - x.min(axis=0)
    x = np.ascontiguousarray(x)

    params = json.loads(args.child_params)
    start = time.perf_counter()
    fit, version, settings = make_fit(args.child, params, args.threads)
    import_s = time.perf_counter() - start
    warmup_s = None
    if args.child in NUMBA_PEERS or args.warmup_all:
        start = time.perf_counter()
        fit(x)  # untimed: JIT compilation (numba) happens here
        warmup_s = time.perf_counter() - start

    base_rss_kb = status_kb("VmRSS")
    setup_peak_kb = status_kb("VmHWM")  # interpreter + imports + CSV + warm-up
    reset_ok = _reset_peak_rss()
    times, cpu_times, labels = [], [], None
    for _ in range(args.repeat):
        cpu0, t0 = time.process_time(), time.perf_counter()
        labels = fit(x)
        times.append(time.perf_counter() - t0)
        cpu_times.append(time.process_time() - cpu0)
    fit_peak_kb = status_kb("VmHWM") if reset_ok else -1
    process_peak_kb = max(setup_peak_kb, status_kb("VmHWM"))

    labels = np.asarray(labels, dtype=np.int64)
    np.save(args.child_labels, labels)

    # Untimed: how much do this peer's own labels move when only the row order changes?
    # (Ties in the mutual-reachability MST are broken by row order in every peer.)
    shuffle_aris = []
    if args.shuffles:
        from sklearn.metrics import adjusted_rand_score
        for k in range(args.shuffles):
            perm = np.random.default_rng(1000 + k).permutation(len(x))
            shuffled = np.empty_like(labels)
            shuffled[perm] = np.asarray(fit(x[perm]), dtype=np.int64)
            shuffle_aris.append(float(adjusted_rand_score(labels, shuffled)))

    report = {
        "peer": args.child,
        "version": version,
        "settings": settings,
        "n": int(len(x)),
        "fit_times_s": times,
        "fit_cpu_s": cpu_times,
        "import_s": import_s,
        "warmup_s": warmup_s,
        "base_rss_mb": base_rss_kb / 1024.0,
        "fit_peak_rss_mb": fit_peak_kb / 1024.0 if fit_peak_kb >= 0 else None,
        "process_peak_rss_mb": process_peak_kb / 1024.0,
        "shuffle_aris": shuffle_aris,
        "clusters": int(len(set(labels.tolist()) - {-1})),
        "noise": int((labels == -1).sum()),
    }
    print("PEER_REPORT " + json.dumps(report))
    return 0


# --------------------------------------------------------------------------------------
# Parent
# --------------------------------------------------------------------------------------


def _descendants_rss_kb(root: int) -> int:
    """Summed VmRSS of all processes below `root` (not root itself), e.g. joblib workers."""
    parent_of = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as handle:
                    fields = handle.read().rsplit(")", 1)[1].split()
                parent_of[int(entry)] = int(fields[1])
            except (OSError, IndexError, ValueError):
                continue
    total = 0
    for pid in parent_of:
        ancestor = parent_of.get(pid)
        while ancestor and ancestor != root:
            ancestor = parent_of.get(ancestor)
        if ancestor == root:
            try:
                with open(f"/proc/{pid}/status") as handle:
                    for line in handle:
                        if line.startswith("VmRSS:"):
                            total += int(line.split()[1])
            except OSError:
                pass
    return total


def run_child(peer: str, args, params: dict, labels_file: Path) -> dict:
    cmd = [sys.executable, os.path.abspath(__file__), "--child", peer, "--input", str(args.input),
           "--repeat", str(args.repeat), "--threads", str(args.threads),
           "--shuffles", str(args.shuffles),
           "--child-params", json.dumps(params), "--child-labels", str(labels_file)]
    if not args.shift:
        cmd.append("--no-shift")
    if args.warmup_all:
        cmd.append("--warmup-all")
    out_path, err_path = labels_file.with_suffix(".out"), labels_file.with_suffix(".err")
    with open(out_path, "w") as out_handle, open(err_path, "w") as err_handle:
        proc = subprocess.Popen(cmd, stdout=out_handle, stderr=err_handle)
        # Peak RSS comes from the child's own /proc/self/status (VmHWM). Not from
        # wait4/RUSAGE_CHILDREN: Linux folds the parent's RSS at fork time into the child's
        # ru_maxrss, which inflated the numbers once this parent had loaded labels.
        worker_peak_kb = 0
        while proc.poll() is None:
            worker_peak_kb = max(worker_peak_kb, _descendants_rss_kb(proc.pid))
            time.sleep(0.05)
    out, err = out_path.read_text(), err_path.read_text()
    for line in out.splitlines():
        if line.startswith("PEER_REPORT "):
            report = json.loads(line[len("PEER_REPORT "):])
            report["worker_peak_rss_mb"] = worker_peak_kb / 1024.0 if worker_peak_kb else None
            report["stderr_tail"] = err.strip().splitlines()[-3:] if err.strip() else []
            return report
    tail = (err.strip().splitlines() or ["(no output)"])[-1]
    return {"peer": peer, "error": f"exit {proc.returncode}: {tail}"}


def run_geocluster(binary: Path, args, labels_csv: Path) -> dict:
    """Times `geocluster cluster` on the same file, as whole processes: `repeat` runs after one
    untimed warm-up (file cache), each reporting its stage times and peak memory (--timings)."""
    cmd = [str(binary), "cluster", str(args.input), "--min-cluster-size", str(args.min_cluster_size),
           "--min-samples", str(args.min_samples), "--threads", str(args.threads),
           "--output", str(labels_csv), "--timings"]
    runs = []
    for i in range(args.repeat + 1):
        start = time.perf_counter()
        proc = subprocess.run(cmd, capture_output=True, text=True)
        wall = time.perf_counter() - start
        if proc.returncode != 0:
            return {"peer": "geocluster", "error": f"exit {proc.returncode}: {proc.stderr.strip()[-300:]}"}
        stages, peak = {}, None
        for line in proc.stderr.splitlines():
            parts = line.rsplit(None, 2)
            if len(parts) == 3 and parts[2] == "s":
                stages[parts[0].strip()] = float(parts[1])
            elif len(parts) == 3 and parts[2] == "MB" and parts[0].strip() == "peak memory":
                peak = float(parts[1])
        if i > 0:
            runs.append({"wall": wall, "stages": stages, "peak": peak})
    version = subprocess.run([str(binary), "--version"], capture_output=True, text=True).stdout.strip()
    # "fit": the clustering stages alone, comparable to the peers' fit(); "process - reading":
    # the whole process wall time minus reading the CSV, the figure the targets are set on.
    fit = [sum(v for k, v in r["stages"].items() if k not in ("reading", "writing", "total")) for r in runs]
    minus_reading = [r["wall"] - r["stages"].get("reading", 0.0) for r in runs]
    import numpy as np
    labels = []
    with open(labels_csv) as handle:
        next(handle)
        for row in handle:
            labels.append(int(row.split(",")[1]))
    labels = np.asarray(labels)
    return {"peer": "geocluster", "version": version, "fit_times_s": fit, "fit_cpu_s": fit,
            "process_minus_reading_s": minus_reading, "process_peak_rss_mb": max(r["peak"] or 0 for r in runs),
            "fit_peak_rss_mb": None, "base_rss_mb": None,
            "clusters": int(labels.max() + 1) if len(labels) else 0, "noise": int((labels == -1).sum()),
            "import_s": 0.0, "labels": labels,
            "settings": f"threads={args.threads}; process wall minus reading (median): "
                        f"{statistics.median(minus_reading):.3f} s; CPU/wall column not measured"}


def adjusted_rand(a, b) -> float:
    from sklearn.metrics import adjusted_rand_score
    return float(adjusted_rand_score(a, b))


def fmt(value, digits=3):
    if value is None:
        return "–"
    if isinstance(value, float):
        return f"{value:.{digits}f}"
    return str(value)


def print_table(results: list[dict], compare: bool, shuffles: int = 0) -> None:
    header = ["peer", "version", "min_samples", "fit s (median)", "min–max s", "CPU/wall",
              "peak RSS MB", "fit peak MB", "base MB", "clusters", "noise"]
    if compare:
        header.append("ARI vs --compare")
    if shuffles:
        header.append(f"min self-ARI, {shuffles} row shuffles")
    header.append("notes")
    print("| " + " | ".join(header) + " |")
    print("|" + "|".join("---" for _ in header) + "|")
    for r in results:
        if "error" in r or "skipped" in r:
            cells = [r["peer"]] + ["–"] * (len(header) - 2) + [r.get("error") or r.get("skipped")]
            print("| " + " | ".join(cells) + " |")
            continue
        times = r["fit_times_s"]
        median = statistics.median(times)
        cpu_ratio = statistics.median(c / t for c, t in zip(r["fit_cpu_s"], times) if t > 0)
        peak = r["process_peak_rss_mb"]
        if r.get("worker_peak_rss_mb"):
            peak_cell = f"{peak:.0f} (+{r['worker_peak_rss_mb']:.0f} in workers)"
        else:
            peak_cell = f"{peak:.0f}"
        cells = [r["peer"], r["version"], str(r["min_samples_passed"]), f"{median:.3f}",
                 f"{min(times):.3f}–{max(times):.3f}", f"{cpu_ratio:.2f}", peak_cell,
                 fmt(r["fit_peak_rss_mb"], 0), fmt(r["base_rss_mb"], 0),
                 str(r["clusters"]), str(r["noise"])]
        if compare:
            cells.append(fmt(r.get("ari_vs_compare"), 4))
        if shuffles:
            cells.append(fmt(min(r["shuffle_aris"]), 4) if r.get("shuffle_aris") else "–")
        notes = list(filter(None, [r.get("mapping_note")]))
        notes.append(f"import {r['import_s']:.1f} s")
        if r.get("warmup_s") is not None:
            notes.append(f"untimed warm-up fit {r['warmup_s']:.2f} s (JIT)")
        print("| " + " | ".join(cells + ["; ".join(notes)]) + " |")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--input", type=Path, help="CSV with header containing x,y (planar metres); optional id column")
    parser.add_argument("--generate", type=int, metavar="N", help="first write N estate-like points to --input")
    parser.add_argument("--seed", type=int, default=1, help="seed for --generate")
    parser.add_argument("--generate-only", action="store_true", help="write the CSV and stop")
    parser.add_argument("--min-cluster-size", type=int, default=15)
    parser.add_argument("--min-samples", type=int, default=5,
                        help="sklearn convention: the point itself counts (default 5); mapped per peer")
    parser.add_argument("--peers", default=",".join(ALL_PEERS))
    parser.add_argument("--sklearn-max-n", type=int, default=150_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--threads", type=int, default=os.cpu_count() or 1, help="threads/jobs for peers that take one (default: all cores)")
    parser.add_argument("--shuffles", type=int, default=0, metavar="K",
                        help="also fit each peer on K row permutations (untimed) and report the lowest ARI against its own unpermuted labels")
    parser.add_argument("--warmup-all", action="store_true", help="untimed warm-up fit for every peer, not just numba ones")
    parser.add_argument("--no-shift", dest="shift", action="store_false", help="do not translate coordinates to start at 0")
    parser.add_argument("--labels-dir", type=Path, help="write <peer>.csv (id,label) here")
    parser.add_argument("--compare", type=Path, help="CSV id,label (e.g. from geocluster): print each peer's ARI against it")
    parser.add_argument("--json", type=Path, help="write all results here")
    parser.add_argument("--geocluster", type=Path, metavar="BIN",
                        help="also time this geocluster binary (release build) on the same file, first, "
                             "and compare every peer against its labels")
    # internal, for the per-peer subprocess
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--child-params", help=argparse.SUPPRESS)
    parser.add_argument("--child-labels", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)

    if args.child:
        return child_main(args)
    if args.input is None:
        parser.error("--input is required")
    if args.generate:
        info = generate_estate_csv(args.input, args.generate, args.seed)
        print(f"generated {args.input}: {info}", file=sys.stderr)
        if args.generate_only:
            return 0

    peers = [p.strip() for p in args.peers.split(",") if p.strip()]
    unknown = set(peers) - set(ALL_PEERS)
    if unknown:
        parser.error(f"unknown peers {sorted(unknown)}; choose from {ALL_PEERS}")
    ms = args.min_samples
    if ms < 1 or args.min_cluster_size < 2:
        parser.error("need --min-samples >= 1 and --min-cluster-size >= 2")
    ids, _ = read_points(args.input)
    n = len(ids)
    reference = read_labels(args.compare) if args.compare else None
    if args.labels_dir:
        args.labels_dir.mkdir(parents=True, exist_ok=True)

    results = []
    with tempfile.TemporaryDirectory() as tmp:
        if args.geocluster:
            print(f"running geocluster on n={n} ...", file=sys.stderr)
            report = run_geocluster(args.geocluster, args, Path(tmp) / "geocluster.csv")
            report["min_samples_passed"] = ms
            report["mapping_note"] = "sklearn convention"
            if "error" not in report:
                labels = report.pop("labels")
                if args.labels_dir:
                    write_labels(args.labels_dir / "geocluster.csv", ids, labels)
                if reference is None:
                    reference = {key: int(labels[i]) for i, key in enumerate(ids)}
                    args.compare = Path("(geocluster labels)")
            results.append(report)
        for peer in peers:
            if peer == "sklearn" and n > args.sklearn_max_n:
                results.append({"peer": peer, "skipped": f"skipped: n = {n} > --sklearn-max-n {args.sklearn_max_n}"})
                continue
            mapped, note = map_min_samples(peer, ms)
            params = {"min_cluster_size": args.min_cluster_size, "min_samples_mapped": mapped}
            print(f"running {peer} (min_samples={mapped}) on n={n} ...", file=sys.stderr)
            labels_file = Path(tmp) / f"{peer}.npy"
            report = run_child(peer, args, params, labels_file)
            report["min_samples_passed"] = mapped
            report["mapping_note"] = note
            if "error" not in report:
                import numpy as np
                labels = np.load(labels_file)
                if args.labels_dir:
                    write_labels(args.labels_dir / f"{peer}.csv", ids, labels)
                if reference is not None:
                    common = [i for i, key in enumerate(ids) if key in reference]
                    report["compare_common_ids"] = len(common)
                    report["ari_vs_compare"] = adjusted_rand(
                        [reference[ids[i]] for i in common], labels[common]) if common else None
            results.append(report)

    print(f"\nn = {n}, min_cluster_size = {args.min_cluster_size}, min_samples = {ms} (sklearn convention), "
          f"repeat = {args.repeat}, threads = {args.threads}, input = {args.input}\n")
    print_table(results, reference is not None, args.shuffles)
    base = next((r for r in results if r.get("peer") == "geocluster" and "error" not in r), None)
    if base:
        g_fit = statistics.median(base["fit_times_s"])
        g_proc = statistics.median(base["process_minus_reading_s"])
        print(f"\nRatios in this run (peer fit time / geocluster): geocluster fit {g_fit:.3f} s, "
              f"process minus reading {g_proc:.3f} s")
        for r in results:
            if r is base or "error" in r or "skipped" in r:
                continue
            t = statistics.median(r["fit_times_s"])
            print(f"- {r['peer']}: {t:.3f} s = {t / g_fit:.1f}x geocluster's fit, {t / g_proc:.1f}x its whole process minus reading")
    for r in results:
        if "settings" in r:
            print(f"- {r['peer']}: {r['settings']}")
    if reference is not None:
        matched = next((r["compare_common_ids"] for r in results if "compare_common_ids" in r), 0)
        print(f"- --compare {args.compare}: {matched} of {n} ids matched ({len(reference)} rows in that file)")
    if args.json:
        payload = {"input": str(args.input), "n": n, "min_cluster_size": args.min_cluster_size,
                   "min_samples_sklearn": ms, "repeat": args.repeat, "threads": args.threads,
                   "shift": args.shift, "peers": results}
        args.json.write_text(json.dumps(payload, indent=2, sort_keys=True) + "\n")
    return 0 if all("error" not in r for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
