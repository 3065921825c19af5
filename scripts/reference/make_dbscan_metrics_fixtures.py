#!/usr/bin/env python3
"""Write the DBSCAN and clustering-metric reference fixtures.

Tests/Fixtures/dbscan/<case>.json: small planar point sets (metres), each with several
(eps, min_samples) runs of scikit-learn 1.9.1's sklearn.cluster.DBSCAN: labels and core flags.

Tests/Fixtures/metrics/<case>.json: pairs of label arrays with scikit-learn's scores (ARI,
AMI, NMI, homogeneity, completeness, V-measure, Fowlkes-Mallows, mutual information, expected
mutual information, entropies) under three noise modes, and point sets with the hdbscan
library 0.8.44's DBCV (hdbscan.validity.validity_index) and relative validity
(HDBSCAN.relative_validity_, computed on its minimum spanning tree).

Every DBSCAN run is cross-checked against an O(n^2) DBSCAN written here; the script stops if
they disagree or if a pair of points lies in the 1-ulp band where scikit-learn's KD-tree
answers depend on its node layout (see README.md).

Run from anywhere:  python scripts/reference/make_dbscan_metrics_fixtures.py
See scripts/reference/README.md for the environment and the file formats.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import sys
import warnings
from dataclasses import dataclass
from pathlib import Path

import numpy as np

REPO_ROOT = Path(__file__).resolve().parents[2]
DEFAULT_OUT_DIR = REPO_ROOT / "Tests" / "Fixtures"

PINNED_VERSIONS = {
    "numpy": "2.3.5",
    "scipy": "1.17.1",
    "scikit-learn": "1.9.1",
    "hdbscan": "0.8.44",
}

NOISE_MODES = ("as-cluster", "singletons", "excluded")


# --------------------------------------------------------------------------------------
# Deterministic JSON (same conventions as make_hdbscan_fixtures.py)
# --------------------------------------------------------------------------------------


def to_json(value, indent: int = 0) -> str:
    """Sorted keys, one key per line, arrays on one line; floats as repr (round-trip exact);
    NaN written as null (the only non-finite value a fixture may hold)."""
    pad = "  " * indent
    if isinstance(value, dict):
        if not value:
            return "{}"
        items = [f'{pad}  {json.dumps(k)}: {to_json(value[k], indent + 1)}' for k in sorted(value)]
        return "{\n" + ",\n".join(items) + "\n" + pad + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(to_json(v, indent + 1) for v in value) + "]"
    if isinstance(value, (float, np.floating)):
        value = float(value)
        if math.isnan(value):
            return "null"
        if not math.isfinite(value):
            raise ValueError(f"infinite float {value!r} in fixture")
        return repr(value)
    if isinstance(value, (np.integer,)):
        return json.dumps(int(value))
    if isinstance(value, (bool, int, str)) or value is None:
        return json.dumps(value)
    raise TypeError(f"cannot serialise {type(value)}")


def check_versions(allow_mismatch: bool) -> None:
    from importlib.metadata import version

    wrong = {pkg: version(pkg) for pkg, want in PINNED_VERSIONS.items() if version(pkg) != want}
    if wrong and not allow_mismatch:
        raise SystemExit(
            "Version mismatch (fixtures are pinned to "
            + ", ".join(f"{k}=={v}" for k, v in PINNED_VERSIONS.items())
            + f"); installed: {wrong}. Use scripts/reference/requirements.txt, or pass "
            "--allow-version-mismatch to experiment (do not commit the result).")


def _grid(points, decimals: int = 2) -> np.ndarray:
    return np.round(np.asarray(points, dtype=np.float64), decimals) + 0.0


# --------------------------------------------------------------------------------------
# DBSCAN
# --------------------------------------------------------------------------------------


@dataclass
class DBSCANCase:
    name: str
    description: str
    seed: int
    points: np.ndarray
    runs: list  # [(eps, min_samples), ...]


def exact_neighbourhoods(points: np.ndarray, eps: float) -> list[np.ndarray]:
    """Neighbours by the per-point test of sklearn's KD-tree leaves: dx*dx + dy*dy <= eps*eps."""
    out = []
    for i in range(len(points)):
        dx = points[:, 0] - points[i, 0]
        dy = points[:, 1] - points[i, 1]
        out.append(np.nonzero(dx * dx + dy * dy <= eps * eps)[0])
    return out


def ambiguous_pairs(points: np.ndarray, eps: float) -> int:
    """Pairs where sklearn's two tests disagree: dx*dx+dy*dy > eps*eps but sqrt(...) <= eps.

    The KD-tree applies the squared test to single points in a leaf but accepts a whole node
    when the sqrt-based distance to its farthest corner is <= eps, so for such a pair the
    answer depends on the tree's layout."""
    count = 0
    for i in range(len(points)):
        dx = points[:, 0] - points[i, 0]
        dy = points[:, 1] - points[i, 1]
        s = dx * dx + dy * dy
        count += int(np.sum((s > eps * eps) & (np.sqrt(s) <= eps)))
    return count // 2


def brute_dbscan(points: np.ndarray, eps: float, min_samples: int):
    """DBSCAN written out: sklearn's dbscan_inner on exact neighbourhoods."""
    hoods = exact_neighbourhoods(points, eps)
    core = np.array([len(h) >= min_samples for h in hoods])
    labels = np.full(len(points), -1, dtype=np.int64)
    label = 0
    for i in range(len(points)):
        if labels[i] != -1 or not core[i]:
            continue
        stack = [i]
        while stack:
            v = stack.pop()
            if labels[v] != -1:
                continue
            labels[v] = label
            if core[v]:
                stack.extend(int(u) for u in hoods[v] if labels[u] == -1)
        label += 1
    return labels, core


def lowest_label_rule(points: np.ndarray, eps: float, core: np.ndarray, labels: np.ndarray) -> np.ndarray:
    """The rule geocluster implements: border = lowest cluster label among core neighbours."""
    hoods = exact_neighbourhoods(points, eps)
    out = labels.copy()
    for i in range(len(points)):
        if core[i]:
            continue
        near = [labels[j] for j in hoods[i] if core[j]]
        out[i] = min(near) if near else -1
    return out


def run_dbscan_case(case: DBSCANCase) -> dict:
    from sklearn.cluster import DBSCAN
    from sklearn.neighbors import NearestNeighbors

    runs = []
    for eps, min_samples in case.runs:
        amb = ambiguous_pairs(case.points, eps)
        if amb:
            raise SystemExit(f"{case.name} eps={eps}: {amb} pair(s) in the ambiguous 1-ulp band; change the data")
        est = DBSCAN(eps=eps, min_samples=min_samples).fit(case.points)
        core = np.zeros(len(case.points), dtype=bool)
        core[est.core_sample_indices_] = True
        labels = est.labels_.astype(np.int64)
        b_labels, b_core = brute_dbscan(case.points, eps, min_samples)
        if not (np.array_equal(b_core, core) and np.array_equal(b_labels, labels)):
            raise SystemExit(f"{case.name} eps={eps} min_samples={min_samples}: sklearn differs from the O(n^2) DBSCAN")
        if not np.array_equal(lowest_label_rule(case.points, eps, core, labels), labels):
            raise SystemExit(f"{case.name}: border points do not follow the lowest-label rule")
        fit_method = NearestNeighbors(radius=eps).fit(case.points)._fit_method
        border = (~core) & (labels >= 0)
        contested = sum(
            1 for i in np.nonzero(border)[0]
            if len({int(labels[j]) for j in exact_neighbourhoods(case.points, eps)[i] if core[j]}) > 1)
        runs.append({
            "eps": float(eps),
            "min_samples": int(min_samples),
            "labels": [int(v) for v in labels],
            "core": [int(v) for v in core],
            "n_clusters": int(labels.max() + 1) if len(labels) else 0,
            "n_core": int(core.sum()),
            "n_noise": int((labels == -1).sum()),
            "n_contested_border": int(contested),
            "neighbors_fit_method": fit_method,
        })
    return {
        "name": case.name,
        "description": case.description,
        "seed": case.seed,
        "n": int(len(case.points)),
        "points": [[float(x), float(y)] for x, y in case.points],
        "runs": runs,
    }


def dbscan_cases() -> list[DBSCANCase]:
    cases = []

    rng = np.random.default_rng(2001)
    pts = np.vstack([
        rng.normal((0, 0), 8, (150, 2)), rng.normal((120, 40), 25, (200, 2)),
        rng.normal((-80, 150), 4, (80, 2)), rng.uniform(-200, 250, (120, 2)),
    ])
    cases.append(DBSCANCase(
        "blobs_noise", "Gaussian blobs (sigma 8, 25, 4 m) plus 120 uniform noise points; 0.01 m grid.",
        2001, _grid(pts), [(5.0, 5), (10.0, 5), (25.0, 10), (12.5, 1), (60.0, 30)]))

    rng = np.random.default_rng(2002)
    sites = rng.uniform(0, 600, (30, 2))
    reps = rng.integers(1, 41, 30)
    pts = np.vstack([np.repeat(sites[i:i + 1], reps[i], axis=0) for i in range(30)] + [rng.uniform(0, 600, (40, 2))])
    pts = pts[rng.permutation(len(pts))]
    cases.append(DBSCANCase(
        "heavy_duplicates", "30 sites each repeated 1-40 times (exact duplicates) plus 40 uniform points, shuffled.",
        2002, _grid(pts), [(0.5, 5), (0.5, 20), (30.0, 5), (80.0, 40), (1.0, 1)]))

    # A 10 m lattice with holes: neighbours at exactly 10 m and (with eps 14.2) 10*sqrt(2).
    rng = np.random.default_rng(2003)
    lattice = np.array([(10.0 * i, 10.0 * j) for i in range(25) for j in range(12)])
    keep = rng.uniform(size=len(lattice)) > 0.3
    pts = lattice[keep]
    pts = pts[rng.permutation(len(pts))]
    cases.append(DBSCANCase(
        "lattice_exact_eps", "A 10 m integer lattice with 30 % holes: many pairs exactly eps = 10 m apart (inclusive).",
        2003, pts, [(10.0, 5), (10.0, 3), (9.999999999999998, 2), (14.2, 7), (20.0, 13)]))

    # 3-4-5 triangles: distance 5 exactly, with non-axis offsets.
    rng = np.random.default_rng(2004)
    base = rng.integers(0, 40, (60, 2)) * 7.0
    offsets = np.array([(3.0, 4.0), (-4.0, 3.0), (4.0, -3.0), (-3.0, -4.0), (0.0, 5.0)])
    pts = np.vstack([base + offsets[k] for k in range(5)] + [base])
    pts = pts[rng.permutation(len(pts))]
    cases.append(DBSCANCase(
        "pythagorean_exact_eps", "Integer points with 3-4-5 offsets: distances of exactly 5 m off the axes.",
        2004, pts, [(5.0, 3), (5.0, 6), (4.999, 2)]))

    # Border points within eps of cores of two clusters, rows arranged so the cluster seeded
    # first is not always the nearer or the larger one.
    rng = np.random.default_rng(2005)
    groups = []
    for k in range(6):
        cx = 40.0 * k
        a = np.column_stack([cx + np.arange(0, 10, 1.0), np.zeros(10)])
        b = np.column_stack([cx + 22 + np.arange(0, 10, 1.0), np.zeros(10)])
        border = np.array([[cx + 15.5, 0.0], [cx + 15.5, 0.5]])
        groups += [b, border, a] if k % 2 else [a, border, b]
    pts = np.vstack(groups)
    pts = np.vstack([pts, pts[rng.permutation(len(pts))][:40] + [0.0, 50.0]])
    cases.append(DBSCANCase(
        "border_contention", "Pairs of 10-point rows 12 m apart with border points 6.5 m from both: "
                             "each border point is reachable from two clusters; row order varies.",
        2005, pts, [(6.5, 3), (6.5, 5), (7.0, 4)]))

    rng = np.random.default_rng(2006)
    t = rng.uniform(0, 800, 300)
    strip = np.column_stack([t, 3 * np.sin(t / 40) + rng.uniform(-2, 2, 300)])
    diag = np.column_stack([t[:150] / math.sqrt(2), 300 + t[:150] / math.sqrt(2) + rng.uniform(-2, 2, 150)])
    pts = np.vstack([strip, diag, rng.uniform(0, 800, (60, 2))])
    pts = pts[rng.permutation(len(pts))]
    cases.append(DBSCANCase(
        "strips", "A wavy 800 m strip, a diagonal strip and 60 noise points: long chains across many cells.",
        2006, _grid(pts), [(4.0, 4), (8.0, 5), (15.0, 8)]))

    rng = np.random.default_rng(2007)
    pts = _grid(rng.uniform(0, 1000, (200, 2)))
    d = np.sqrt(((pts[:, None, :] - pts[None, :, :]) ** 2).sum(-1))
    gap = d[d > 0].min()
    cases.append(DBSCANCase(
        "eps_below_every_gap", f"200 uniform points; eps is half the smallest gap ({gap / 2!r} m): no neighbours.",
        2007, pts, [(float(gap / 2), 2), (float(gap / 2), 1)]))

    rng = np.random.default_rng(2008)
    pts = _grid(rng.normal((5000, -3000), 50, (150, 2)))
    cases.append(DBSCANCase(
        "eps_above_extent", "150 points of one blob; eps 10 km, larger than the whole extent.",
        2008, pts, [(10000.0, 5), (10000.0, 150), (10000.0, 151), (10000.0, 1)]))

    rng = np.random.default_rng(2009)
    pts = np.vstack([rng.integers(0, 6, (8, 2)).astype(np.float64)])
    cases.append(DBSCANCase(
        "tiny_brute", "8 integer points: scikit-learn uses its brute-force neighbours below 12 points "
                      "(exact here: integer coordinates).",
        2009, pts, [(1.0, 2), (2.0, 3)]))

    # Estate-like: the generator of /tmp/perf in miniature (blobs of Pareto sizes, strips, noise).
    rng = np.random.default_rng(2010)
    side, n = 3000.0, 1500
    n_noise, n_strip = n // 4, n // 8
    n_blob = n - n_noise - n_strip
    sizes = rng.pareto(1.5, 12) + 1
    sizes = (sizes / sizes.sum() * n_blob).astype(int)
    sizes[0] += n_blob - sizes.sum()
    parts = [rng.normal(rng.uniform(0, side, 2), rng.uniform(10, 120), (s, 2)) for s in sizes]
    a = rng.uniform(0, side, 2)
    ang = rng.uniform(0, math.pi)
    tt = rng.uniform(0, 1200, n_strip)
    parts.append(np.column_stack([a[0] + tt * math.cos(ang), a[1] + tt * math.sin(ang)]) + rng.normal(0, 8, (n_strip, 2)))
    parts.append(rng.uniform(0, side, (n_noise, 2)))
    pts = np.vstack(parts)
    pts = _grid(pts[rng.permutation(len(pts))])
    cases.append(DBSCANCase(
        "estate_like", "1,500 estate-like points over 3 km: Pareto-sized blobs (sigma 10-120 m), a strip, 25 % noise.",
        2010, pts, [(30.0, 5), (60.0, 10), (15.0, 3)]))
    return cases


# --------------------------------------------------------------------------------------
# External scores
# --------------------------------------------------------------------------------------


def apply_noise_mode(truth: np.ndarray, pred: np.ndarray, mode: str):
    """as-cluster: unchanged (-1 is one more label, sklearn's behaviour); singletons: every -1
    becomes a label of its own (in each labelling separately); excluded: points that are -1 in
    either labelling are dropped."""
    truth = truth.astype(np.int64)
    pred = pred.astype(np.int64)
    if mode == "as-cluster":
        return truth, pred
    if mode == "singletons":
        t, p = truth.copy(), pred.copy()
        base_t = (t.max() if len(t) else 0) + 1
        base_p = (p.max() if len(p) else 0) + 1
        nt, np_ = t == -1, p == -1
        t[nt] = base_t + np.arange(nt.sum())
        p[np_] = base_p + np.arange(np_.sum())
        return t, p
    keep = (truth != -1) & (pred != -1)
    return truth[keep], pred[keep]


def sklearn_scores(truth: np.ndarray, pred: np.ndarray) -> dict:
    from sklearn import metrics
    from sklearn.metrics.cluster import contingency_matrix
    from sklearn.metrics.cluster._supervised import _entropy as entropy  # public `entropy` is deprecated in 1.8
    from sklearn.metrics.cluster._expected_mutual_info_fast import expected_mutual_information

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        h, c, v = metrics.homogeneity_completeness_v_measure(truth, pred)
        out = {
            "adjusted_rand": metrics.adjusted_rand_score(truth, pred),
            "adjusted_mutual_info": metrics.adjusted_mutual_info_score(truth, pred),
            "normalized_mutual_info": metrics.normalized_mutual_info_score(truth, pred),
            "homogeneity": h,
            "completeness": c,
            "v_measure": v,
            "fowlkes_mallows": metrics.fowlkes_mallows_score(truth, pred),
            # sklearn raises "math domain error" on empty labellings here (log of 0); null then.
            "mutual_info": metrics.mutual_info_score(truth, pred) if len(truth) else None,
            "entropy_truth": float(entropy(truth)),
            "entropy_predicted": float(entropy(pred)),
            "n": int(len(truth)),
            "truth_labels": int(len(np.unique(truth))),
            "predicted_labels": int(len(np.unique(pred))),
        }
        if len(truth):
            cont = contingency_matrix(truth, pred, sparse=True)
            out["expected_mutual_info"] = float(expected_mutual_information(cont, len(truth)))
        else:
            out["expected_mutual_info"] = 0.0
    return {k: (float(v) if isinstance(v, (float, np.floating)) else v) for k, v in out.items()}


def metric_pairs() -> list[tuple[str, str, int, np.ndarray, np.ndarray]]:
    out = []

    def add(name, description, seed, truth, pred):
        out.append((name, description, seed, np.asarray(truth, dtype=np.int64), np.asarray(pred, dtype=np.int64)))

    rng = np.random.default_rng(3001)
    add("random_small", "200 points: 5 classes + noise against 7 clusters + noise, independent uniform.",
        3001, rng.integers(-1, 5, 200), rng.integers(-1, 7, 200))

    rng = np.random.default_rng(3002)
    truth = rng.integers(-1, 40, 5000)
    pred = np.where(rng.uniform(size=5000) < 0.7, truth * 3 % 61, rng.integers(-1, 60, 5000))
    add("random_correlated", "5,000 points: 40 classes + noise; 70 % of predictions a relabelling of the truth.",
        3002, truth, pred)

    rng = np.random.default_rng(3003)
    sizes = (rng.pareto(1.2, 300) * 20 + 1).astype(int)
    truth = np.repeat(np.arange(300), sizes)[:20000]
    truth = np.concatenate([truth, np.full(20000 - len(truth), -1)]) if len(truth) < 20000 else truth
    rng.shuffle(truth)
    pred = truth.copy()
    flip = rng.uniform(size=len(pred)) < 0.2
    pred[flip] = rng.integers(-1, 400, flip.sum())
    add("skewed_sizes", "20,000 points in ~300 classes of Pareto sizes; 20 % of predictions replaced at random "
        "(many distinct cluster sizes: the expected mutual information's hard case).", 3003, truth, pred)

    rng = np.random.default_rng(3004)
    truth = rng.integers(-1, 6, 300)
    add("all_one_cluster", "Predictions: everything in cluster 0.", 3004, truth, np.zeros(300, dtype=int))
    add("both_one_cluster", "Both labellings put everything in one cluster (different names).", 3004,
        np.full(50, 3), np.full(50, 0))
    add("all_noise", "Predictions: everything noise (-1).", 3004, truth, np.full(300, -1))
    add("identical", "Predictions equal the truth.", 3004, truth, truth.copy())
    perm = rng.permutation(10)
    add("permuted", "Predictions are the truth with cluster names permuted (noise kept -1).", 3004,
        truth, np.where(truth >= 0, perm[np.maximum(truth, 0)] + 100, -1))
    one = truth.copy()
    one[17] = 999
    add("one_singleton", "Predictions are the truth except one point moved to a cluster of its own.", 3004, truth, one)
    add("all_singletons", "Every point its own cluster in the predictions.", 3004, truth, np.arange(300))
    add("two_points", "Two points, two clusters against one.", 3004, np.array([0, 1]), np.array([5, 5]))
    add("large_label_values", "Label values far from 0..k (sparse ids); noise -1.", 3004,
        np.where(truth >= 0, truth * 1_000_003 + 7, -1), np.where(one >= 0, one * 99_991, -1))
    return out


def run_metric_case(name, description, seed, truth, pred) -> dict:
    return {
        "name": name,
        "description": description,
        "seed": seed,
        "truth": [int(v) for v in truth],
        "predicted": [int(v) for v in pred],
        "scores": {mode: sklearn_scores(*apply_noise_mode(truth, pred, mode)) for mode in NOISE_MODES},
    }


# --------------------------------------------------------------------------------------
# DBCV and relative validity
# --------------------------------------------------------------------------------------


def validity_cases() -> list[tuple[str, str, int, np.ndarray, np.ndarray | None, dict]]:
    """(name, description, seed, integer points, labels or None (use hdbscan's), hdbscan params)."""
    out = []
    rng = np.random.default_rng(4001)
    pts = np.vstack([rng.normal((0, 0), 12, (60, 2)), rng.normal((150, 20), 20, (80, 2)),
                     rng.normal((60, 160), 6, (40, 2)), rng.uniform(-60, 220, (25, 2))])
    out.append(("validity_blobs", "Three blobs (sigma 12, 20, 6 m) plus noise, integer metres; hdbscan's labels.",
                4001, np.round(pts), None, {"min_cluster_size": 10, "min_samples": 5}))
    rng = np.random.default_rng(4002)
    pts = np.vstack([rng.normal((0, 0), 15, (70, 2)), rng.normal((45, 0), 15, (70, 2)), rng.uniform(-50, 100, (15, 2))])
    out.append(("validity_touching", "Two touching blobs (centres 45 m apart, sigma 15 m) plus noise; hdbscan's labels.",
                4002, np.round(pts), None, {"min_cluster_size": 8, "min_samples": 4}))
    rng = np.random.default_rng(4003)
    sites = rng.integers(0, 300, (12, 2))
    pts = np.vstack([np.repeat(sites[i:i + 1], 3 + i, axis=0) + rng.integers(-1, 2, (3 + i, 2)) for i in range(12)]
                    + [rng.integers(0, 300, (10, 2))])
    out.append(("validity_duplicates", "12 tight sites with exact duplicates plus noise; hdbscan's labels.",
                4003, pts.astype(np.float64), None, {"min_cluster_size": 5, "min_samples": 3}))
    rng = np.random.default_rng(4004)
    pts = np.round(np.vstack([rng.normal((0, 0), 10, (40, 2)), rng.normal((100, 0), 10, (40, 2)),
                              rng.normal((50, 90), 10, (40, 2))]))
    labels = np.repeat([0, 1, 2], 40)
    labels[::7] = -1
    labels[3] = 1  # one point assigned to the wrong, distant cluster
    out.append(("validity_given_labels", "Three blobs with hand-set labels: every 7th point noise, one misassigned.",
                4004, pts, labels, {"min_cluster_size": 10, "min_samples": 5}))
    rng = np.random.default_rng(4005)
    pts = np.round(rng.normal((0, 0), 20, (60, 2)))
    out.append(("validity_one_cluster", "One blob, one cluster: DBCV is NaN in the hdbscan library (no other cluster).",
                4005, pts, np.zeros(60, dtype=int), {"min_cluster_size": 10, "min_samples": 5,
                                                     "allow_single_cluster": True}))
    out.append(("validity_all_noise", "Every point noise: DBCV 0 (no cluster contributes).",
                4005, pts, np.full(60, -1), {"min_cluster_size": 100, "min_samples": 5}))
    rng = np.random.default_rng(4006)
    pts = np.round(np.vstack([rng.normal((0, 0), 5, (30, 2)), [[200, 200], [203, 204]]]))
    out.append(("validity_pair_cluster", "A blob and a cluster of exactly two points (the smallest DBCV accepts).",
                4006, pts, np.array([0] * 30 + [1, 1]), {"min_cluster_size": 2, "min_samples": 2}))
    return out


def run_validity_case(name, description, seed, points, labels, params) -> dict:
    import hdbscan
    from hdbscan.validity import validity_index
    from sklearn.metrics import pairwise_distances

    points = np.asarray(points, dtype=np.float64)
    direct = np.sqrt(((points[:, None, :] - points[None, :, :]) ** 2).sum(-1))
    if not np.array_equal(pairwise_distances(points), direct):
        raise SystemExit(f"{name}: sklearn's pairwise_distances is not exact here; use integer coordinates")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        est = hdbscan.HDBSCAN(gen_min_span_tree=True, **params).fit(points)
        rel = float(est.relative_validity_)
        lib_labels = est.labels_.astype(np.int64)
        mst = est._min_spanning_tree
        use = lib_labels if labels is None else np.asarray(labels, dtype=np.int64)
        dbcv = float(validity_index(points, use))
    return {
        "name": name,
        "description": description,
        "seed": seed,
        "n": int(len(points)),
        "points": [[float(x), float(y)] for x, y in points],
        "labels": [int(v) for v in use],
        "dbcv": dbcv,
        "hdbscan_params": params,
        "hdbscan_labels": [int(v) for v in lib_labels],
        "mst_from": [int(v) for v in mst[:, 0]],
        "mst_to": [int(v) for v in mst[:, 1]],
        "mst_weight": [float(v) for v in mst[:, 2]],
        "relative_validity": rel,
    }


# --------------------------------------------------------------------------------------


def write(path: Path, value: dict) -> int:
    text = to_json(value) + "\n"
    json.loads(text)
    path.write_text(text, encoding="utf-8")
    size = len(text.encode())
    shown = path.relative_to(REPO_ROOT) if path.is_relative_to(REPO_ROOT) else path
    print(f"wrote {shown} ({size} bytes, sha256 {hashlib.sha256(text.encode()).hexdigest()[:12]})", file=sys.stderr)
    return size


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out-dir", type=Path, default=DEFAULT_OUT_DIR,
                        help="folder receiving dbscan/ and metrics/ (default: Tests/Fixtures)")
    parser.add_argument("--only", help="comma-separated case names (default: all)")
    parser.add_argument("--allow-version-mismatch", action="store_true")
    args = parser.parse_args(argv)

    check_versions(args.allow_version_mismatch)
    wanted = set(args.only.split(",")) if args.only else None
    (args.out_dir / "dbscan").mkdir(parents=True, exist_ok=True)
    (args.out_dir / "metrics").mkdir(parents=True, exist_ok=True)
    files, total = 0, 0

    print(f"{'dbscan case':24} {'n':>5} {'eps':>10} {'ms':>4} {'clusters':>8} {'core':>5} {'noise':>5} {'contested':>9} method")
    for case in dbscan_cases():
        if wanted and case.name not in wanted:
            continue
        result = run_dbscan_case(case)
        total += write(args.out_dir / "dbscan" / f"{case.name}.json", result)
        files += 1
        for r in result["runs"]:
            print(f"{case.name:24} {result['n']:5} {r['eps']:10.6g} {r['min_samples']:4} {r['n_clusters']:8} "
                  f"{r['n_core']:5} {r['n_noise']:5} {r['n_contested_border']:9} {r['neighbors_fit_method']}")

    print(f"\n{'metrics case':22} {'mode':11} {'n':>6} {'ARI':>9} {'AMI':>9} {'NMI':>9} {'FMI':>9}")
    for name, description, seed, truth, pred in metric_pairs():
        if wanted and name not in wanted:
            continue
        result = run_metric_case(name, description, seed, truth, pred)
        total += write(args.out_dir / "metrics" / f"{name}.json", result)
        files += 1
        for mode, s in result["scores"].items():
            print(f"{name:22} {mode:11} {s['n']:6} {s['adjusted_rand']:9.5f} {s['adjusted_mutual_info']:9.5f} "
                  f"{s['normalized_mutual_info']:9.5f} {s['fowlkes_mallows']:9.5f}")

    print(f"\n{'validity case':24} {'n':>4} {'DBCV':>10} {'relative':>10}")
    for case in validity_cases():
        if wanted and case[0] not in wanted:
            continue
        result = run_validity_case(*case)
        total += write(args.out_dir / "metrics" / f"{case[0]}.json", result)
        files += 1
        print(f"{case[0]:24} {result['n']:4} {result['dbcv']:10.6f} {result['relative_validity']:10.6f}")

    print(f"\n{files} fixtures, {total} bytes in total")
    return 0


if __name__ == "__main__":
    sys.exit(main())
