#!/usr/bin/env python3
"""Write the HDBSCAN reference fixtures in Tests/Fixtures/hdbscan/.

Each case is a small planar point set (metres) plus HDBSCAN parameters. For each one
this script records what scikit-learn 1.9.1 (sklearn.cluster.HDBSCAN) and the hdbscan
library 0.8.44 produce, the mutual-reachability MST weights, and whether the results
survive row shuffles (they do not when ties are broken by input order). It cross-checks
the MST weights of sklearn, the hdbscan library and a brute-force O(n^2) Prim written
here, and fails loudly if they disagree by more than 1e-9.

Run from anywhere:  python scripts/reference/make_hdbscan_fixtures.py
See scripts/reference/README.md for the environment and the file format.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import sys
import warnings
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

REPO_ROOT = Path(__file__).resolve().parents[2]
DEFAULT_OUT_DIR = REPO_ROOT / "Tests" / "Fixtures" / "hdbscan"

# The fixtures are only meaningful for these versions (see requirements.txt).
PINNED_VERSIONS = {
    "numpy": "2.3.5",
    "scipy": "1.17.1",
    "scikit-learn": "1.9.1",
    "hdbscan": "0.8.44",
}

N_SHUFFLES = 64  # row permutations per case: the *_shuffle_stable flags, min_shuffle_ari, unstable_points
# (16 under-sampled scikit-learn's own spread: on `leaf`, 32 shuffles already reached ARI 0.978 where 16 stopped at 0.983)
MST_TOLERANCE = 1e-9  # metres; MST weights of the three implementations must agree this well
SCORE_TOLERANCE = 1e-12  # probabilities / outlier scores "identical" across shuffles
GRID = 2  # points are rounded to 10**-GRID metres (0.01 m) unless a case says otherwise


# --------------------------------------------------------------------------------------
# Cases
# --------------------------------------------------------------------------------------


@dataclass
class Case:
    name: str
    description: str
    points: np.ndarray  # (n, 2) float64, planar metres
    min_cluster_size: int
    min_samples: int | None  # sklearn convention; None = unset (defaults to min_cluster_size)
    seed: int
    cluster_selection_method: str = "eom"
    cluster_selection_epsilon: float = 0.0
    allow_single_cluster: bool = False
    max_cluster_size: int | None = None
    # Optional sanity check on the sklearn result: (case, sklearn labels) -> error message or None.
    check: object = None
    extra_notes: list[str] = field(default_factory=list)

    def params(self) -> dict:
        return {
            "min_cluster_size": self.min_cluster_size,
            "min_samples": self.min_samples,
            "cluster_selection_method": self.cluster_selection_method,
            "cluster_selection_epsilon": float(self.cluster_selection_epsilon),
            "allow_single_cluster": self.allow_single_cluster,
            "max_cluster_size": self.max_cluster_size,
        }

    @property
    def effective_min_samples(self) -> int:
        return self.min_cluster_size if self.min_samples is None else self.min_samples


def _grid(points: np.ndarray, decimals: int = GRID) -> np.ndarray:
    """Round to a fixed grid so the JSON stays short and every value round-trips exactly."""
    return np.round(np.asarray(points, dtype=np.float64), decimals) + 0.0  # +0.0 turns -0.0 into 0.0


def _blob(rng: np.random.Generator, centre, sigma: float, n: int) -> np.ndarray:
    return rng.normal(loc=centre, scale=sigma, size=(n, 2))


def _uniform(rng: np.random.Generator, n: int, lo: float, hi: float) -> np.ndarray:
    return rng.uniform(lo, hi, size=(n, 2))


def _n_clusters(labels) -> int:
    return len(set(int(v) for v in labels) - {-1})


def _sklearn_labels(case: Case, **overrides) -> np.ndarray:
    """sklearn labels for the case's points with some parameters changed (for sanity checks)."""
    params = dict(
        min_cluster_size=case.min_cluster_size,
        min_samples=case.min_samples,
        cluster_selection_method=case.cluster_selection_method,
        cluster_selection_epsilon=float(case.cluster_selection_epsilon),
        allow_single_cluster=case.allow_single_cluster,
        max_cluster_size=case.max_cluster_size,
    )
    params.update(overrides)
    return fit_sklearn(case.points, params)[0].labels_


def case_blobs_varying_density() -> Case:
    rng = np.random.default_rng(1001)
    pts = np.vstack([
        _blob(rng, (500.0, 500.0), 5.0, 60),
        _blob(rng, (1500.0, 600.0), 50.0, 120),
        _blob(rng, (1300.0, 2200.0), 300.0, 200),
        _uniform(rng, 40, 0.0, 3000.0),
    ])
    return Case("blobs_varying_density",
                "Gaussian blobs with sigma 5 m (60 pts), 50 m (120 pts) and 300 m (200 pts) "
                "plus 40 uniform noise points over 3 km; points on a 0.01 m grid.",
                _grid(pts), 15, 5, 1001)


def case_strips() -> Case:
    rng = np.random.default_rng(1002)
    t = rng.uniform(0.0, 2000.0, size=(3, 120))
    jitter = rng.uniform(-20.0, 20.0, size=(3, 120))
    horizontal = np.column_stack([200.0 + t[0], 300.0 + jitter[0]])
    vertical = np.column_stack([2600.0 + jitter[1], 400.0 + t[1]])
    diag = t[2] / math.sqrt(2.0)
    diagonal = np.column_stack([300.0 + diag - jitter[2] / math.sqrt(2.0),
                                800.0 + diag + jitter[2] / math.sqrt(2.0)])
    pts = np.vstack([horizontal, vertical, diagonal, _uniform(rng, 40, 0.0, 3000.0)])
    return Case("strips",
                "Three 2 km long strips (horizontal, vertical, diagonal; 120 pts each, uniform "
                "+-20 m jitter across the strip) plus 40 uniform noise points over 3 km.",
                _grid(pts), 10, 5, 1002)


def case_uniform_noise() -> Case:
    rng = np.random.default_rng(1003)
    return Case("uniform_noise",
                "300 uniform points in a 2 km square: no real structure.",
                _grid(_uniform(rng, 300, 0.0, 2000.0)), 15, 5, 1003)


def case_duplicates() -> Case:
    rng = np.random.default_rng(1004)
    centres = [(600.0, 600.0), (1800.0, 700.0), (1200.0, 1900.0)]
    groups = []
    for centre in centres:
        for _ in range(12):
            location = _grid(_blob(rng, centre, 40.0, 1))
            size = int(rng.integers(1, 41))  # 1..40 coincident points
            groups.append(np.repeat(location, size, axis=0))
    pts = np.vstack(groups + [_grid(_uniform(rng, 30, 0.0, 2500.0))])
    pts = pts[rng.permutation(len(pts))]  # interleave the copies
    return Case("duplicates",
                "Heavy duplicates: 36 locations around 3 centres (sigma 40 m), each repeated "
                "1..40 times (exactly the same coordinates), plus 30 uniform noise points; rows "
                "shuffled. Core distances are 0 for groups of >= min_samples copies, so many MST "
                "weights are 0 and the corresponding lambdas are infinite.",
                pts, 10, 5, 1004)


def case_n_below_mcs() -> Case:
    rng = np.random.default_rng(1005)
    return Case("n_below_mcs",
                "n = 8 < min_cluster_size = 15 (min_samples = 3 explicitly, since sklearn "
                "raises ValueError when min_samples > n): everything is noise.",
                _grid(_blob(rng, (100.0, 100.0), 10.0, 8)), 15, 3, 1005,
                check=lambda c, lab: None if _n_clusters(lab) == 0 else "expected all noise")


def _n_equals_mcs_points() -> np.ndarray:
    rng = np.random.default_rng(1006)
    return _grid(_blob(rng, (100.0, 100.0), 10.0, 15))


def case_n_equals_mcs() -> Case:
    return Case("n_equals_mcs",
                "n = min_cluster_size = 15 (one blob, sigma 10 m): the root can never split "
                "into two clusters of >= 15 and the root is not selectable, so all noise.",
                _n_equals_mcs_points(), 15, 5, 1006,
                check=lambda c, lab: None if _n_clusters(lab) == 0 else "expected all noise")


def case_n_equals_mcs_single() -> Case:
    return Case("n_equals_mcs_single",
                "Same 15 points as n_equals_mcs but allow_single_cluster=True: the root is "
                "selectable.",
                _n_equals_mcs_points(), 15, 5, 1006, allow_single_cluster=True,
                check=lambda c, lab: None if _n_clusters(lab) == 1 else "expected one cluster")


def _nested_blobs_points(seed: int) -> np.ndarray:
    """3 groups 1 km apart, each made of 3 sub-blobs (sigma 12 m) 70 m apart, plus noise."""
    rng = np.random.default_rng(seed)
    parts = []
    for gx, gy in [(500.0, 500.0), (1500.0, 500.0), (1000.0, 1400.0)]:
        for dx, dy in [(0.0, 0.0), (70.0, 0.0), (35.0, 60.0)]:
            parts.append(_blob(rng, (gx + dx, gy + dy), 12.0, 45))
    parts.append(_uniform(rng, 40, 0.0, 2000.0))
    return _grid(np.vstack(parts))


def case_leaf() -> Case:
    def check(c, lab):
        eom = _sklearn_labels(c, cluster_selection_method="eom")
        if _n_clusters(lab) <= _n_clusters(eom):
            return f"leaf should give more clusters than eom ({_n_clusters(lab)} vs {_n_clusters(eom)})"
        return None
    return Case("leaf",
                "3 groups 1 km apart, each of 3 sub-blobs (45 pts, sigma 12 m) 70 m apart, plus "
                "40 noise points; leaf selection (finds the sub-blobs where eom finds fewer, larger "
                "clusters).",
                _nested_blobs_points(1007), 15, 5, 1007, cluster_selection_method="leaf",
                check=check)


def case_epsilon() -> Case:
    rng = np.random.default_rng(1008)
    pts = np.vstack([
        _blob(rng, (400.0, 400.0), 15.0, 60), _blob(rng, (500.0, 400.0), 15.0, 60),  # 100 m apart
        _blob(rng, (1400.0, 400.0), 15.0, 60), _blob(rng, (1400.0, 520.0), 15.0, 60),  # 120 m apart
        _blob(rng, (900.0, 1500.0), 20.0, 80),  # alone
        _uniform(rng, 40, 0.0, 2000.0),
    ])
    def check(c, lab):
        plain = _sklearn_labels(c, cluster_selection_epsilon=0.0)
        if _n_clusters(lab) >= _n_clusters(plain):
            return f"epsilon should merge clusters ({_n_clusters(lab)} vs {_n_clusters(plain)})"
        return None
    return Case("epsilon",
                "Two pairs of blobs (sigma 15 m, 60 pts) 100 m and 120 m apart, one lone blob, "
                "40 noise points; eom with cluster_selection_epsilon = 150 m merges each pair.",
                _grid(pts), 15, 5, 1008, cluster_selection_epsilon=150.0, check=check)


def _single_blob_points(seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    pts = np.vstack([_blob(rng, (1000.0, 1000.0), 40.0, 200), _uniform(rng, 60, 0.0, 2000.0)])
    return _grid(pts)


def case_allow_single_cluster() -> Case:
    return Case("allow_single_cluster",
                "One dense blob (200 pts, sigma 40 m) plus 60 uniform noise points over 2 km; "
                "allow_single_cluster=True.",
                _single_blob_points(1009), 15, 5, 1009, allow_single_cluster=True,
                check=lambda c, lab: None if _n_clusters(lab) == 1 else "expected one cluster")


def case_allow_single_cluster_epsilon() -> Case:
    return Case("allow_single_cluster_epsilon",
                "Same points as allow_single_cluster, with cluster_selection_epsilon = 60 m: when "
                "only the root is selected sklearn keeps a point iff its lambda >= 1/epsilon.",
                _single_blob_points(1009), 15, 5, 1009, allow_single_cluster=True,
                cluster_selection_epsilon=60.0)


def case_min_samples_unset() -> Case:
    rng = np.random.default_rng(1010)
    pts = np.vstack([
        _blob(rng, (300.0, 300.0), 20.0, 80), _blob(rng, (900.0, 300.0), 60.0, 100),
        _blob(rng, (600.0, 1000.0), 30.0, 70), _uniform(rng, 40, 0.0, 1500.0),
    ])
    return Case("min_samples_unset",
                "Three blobs (sigma 20, 60, 30 m) plus 40 noise points; min_samples unset (null), "
                "so sklearn uses min_samples = min_cluster_size = 12.",
                _grid(pts), 12, None, 1010)


def case_max_cluster_size() -> Case:
    rng = np.random.default_rng(1011)
    pts = np.vstack([
        _blob(rng, (500.0, 500.0), 20.0, 150), _blob(rng, (590.0, 500.0), 20.0, 150),  # one big
        _blob(rng, (1500.0, 1200.0), 25.0, 100),
        _uniform(rng, 40, 0.0, 2000.0),
    ])
    def check(c, lab):
        plain = _sklearn_labels(c, max_cluster_size=None)
        if _n_clusters(lab) <= _n_clusters(plain):
            return f"max_cluster_size should split ({_n_clusters(lab)} vs {_n_clusters(plain)})"
        return None
    return Case("max_cluster_size",
                "A big cluster made of two touching blobs (150 pts each, sigma 20 m, 90 m apart), "
                "another blob of 100 and 40 noise points; eom with max_cluster_size = 200 forces "
                "the big one to be split.",
                _grid(pts), 15, 5, 1011, max_cluster_size=200, check=check)


def _ms_small_points() -> np.ndarray:
    rng = np.random.default_rng(1012)
    pts = np.vstack([
        _blob(rng, (300.0, 300.0), 15.0, 60), _blob(rng, (700.0, 350.0), 40.0, 80),
        _blob(rng, (500.0, 900.0), 25.0, 60), _uniform(rng, 50, 0.0, 1200.0),
    ])
    return _grid(pts)


def case_min_samples_1() -> Case:
    return Case("min_samples_1",
                "Three blobs plus 50 noise points, sklearn min_samples = 1: every core distance "
                "is 0, so the hierarchy is plain single linkage (MST = Euclidean MST). The hdbscan "
                "library's equivalent would be min_samples = 0, which it rejects "
                "('Min samples and Min cluster size must be positive integers'), so hdbscan_lib "
                "is null.",
                _ms_small_points(), 10, 1, 1012)


def case_min_samples_2() -> Case:
    return Case("min_samples_2",
                "Same points as min_samples_1 with sklearn min_samples = 2 (hdbscan library "
                "min_samples = 1). Core distance = nearest-neighbour distance, which never exceeds "
                "the Euclidean MST edge at a point, so the MST weights equal those of "
                "min_samples_1 (single linkage again).",
                _ms_small_points(), 10, 2, 1012)


def case_epsilon_leaf() -> Case:
    def check(c, lab):
        plain = _sklearn_labels(c, cluster_selection_epsilon=0.0)
        if _n_clusters(lab) >= _n_clusters(plain):
            return f"epsilon should merge leaves ({_n_clusters(lab)} vs {_n_clusters(plain)})"
        return None
    return Case("epsilon_leaf",
                "Points of the leaf case with leaf selection and cluster_selection_epsilon = 100 m: "
                "leaves born below 100 m are replaced by their ancestor born above it.",
                _nested_blobs_points(1007), 15, 5, 1007, cluster_selection_method="leaf",
                cluster_selection_epsilon=100.0, check=check)


def case_integer_grid() -> Case:
    rng = np.random.default_rng(1014)
    pts = np.vstack([
        _blob(rng, (300.0, 300.0), 40.0, 120), _blob(rng, (900.0, 400.0), 25.0, 100),
        _blob(rng, (600.0, 900.0), 60.0, 120), _uniform(rng, 40, 0.0, 1200.0),
    ])
    pts = np.round(pts / 10.0) * 10.0 + 0.0  # 10 m grid: exact integers, many coincident points
    return Case("integer_grid",
                "Three blobs (sigma 40, 25, 60 m) plus noise snapped to a 10 m grid: coordinates "
                "are exact integers, distances are square roots of integers (computed exactly "
                "the same everywhere), many points coincide and many MST weights tie.",
                pts, 10, 5, 1014)


def case_lattice_ties() -> Case:
    rng = np.random.default_rng(1015)
    a = np.array([(100.0 + 10 * i, 100.0 + 10 * j) for i in range(12) for j in range(12)])
    b = np.array([(400.0 + 10 * i, 150.0 + 10 * j) for i in range(8) for j in range(8)])
    noise = np.round(_uniform(rng, 12, 0.0, 600.0) / 10.0) * 10.0
    pts = np.vstack([a, b, noise]) + 0.0
    return Case("lattice_ties",
                "Two perfect square lattices with 10 m spacing (12x12 and 8x8) 150 m apart plus 12 "
                "grid-snapped noise points: almost every MST weight is exactly 10 m, so the "
                "hierarchy inside a lattice depends only on tie-breaking.",
                pts, 10, 5, 1015)


CASE_GENERATORS = [
    case_blobs_varying_density,
    case_strips,
    case_uniform_noise,
    case_duplicates,
    case_n_below_mcs,
    case_n_equals_mcs,
    case_n_equals_mcs_single,
    case_leaf,
    case_epsilon,
    case_allow_single_cluster,
    case_allow_single_cluster_epsilon,
    case_min_samples_unset,
    case_max_cluster_size,
    case_min_samples_1,
    case_min_samples_2,
    case_epsilon_leaf,
    case_integer_grid,
    case_lattice_ties,
]


# --------------------------------------------------------------------------------------
# Running the libraries
# --------------------------------------------------------------------------------------


def fit_sklearn(points: np.ndarray, params: dict):
    """Fit sklearn.cluster.HDBSCAN; return (estimator, list of warning strings).

    algorithm='auto' is kept (for 2-D euclidean it is _hdbscan_prims with a KD-tree: exact
    core distances from KDTree.kneighbors, then an exact dense Prim in mst_from_data_matrix).
    copy=True is passed only to silence 1.9's FutureWarning about the default of `copy`.
    """
    from sklearn.cluster import HDBSCAN

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        est = HDBSCAN(
            min_cluster_size=params["min_cluster_size"],
            min_samples=params["min_samples"],
            cluster_selection_method=params["cluster_selection_method"],
            cluster_selection_epsilon=params["cluster_selection_epsilon"],
            allow_single_cluster=params["allow_single_cluster"],
            max_cluster_size=params["max_cluster_size"],
            copy=True,
        ).fit(points)
    messages = sorted({f"{w.category.__name__}: {w.message}" for w in caught})
    return est, messages


def fit_hdbscan_lib(points: np.ndarray, params: dict, min_samples: int):
    """Fit hdbscan.HDBSCAN with the hdbscan-library min_samples; return (estimator, warnings).

    algorithm='generic' with metric='minkowski', p=2 is the exact choice:
      * the default algorithm ('best' -> boruvka_kdtree for 2-D) uses approx_min_span_tree=True,
        which is allowed to return a non-minimal spanning tree;
      * 'generic' with metric='euclidean' builds the distance matrix with sklearn's
        euclidean_distances (|x|^2 + |y|^2 - 2 x.y), whose cancellation error (~1e-10 m at
        km-scale coordinates) turns exact ties and coincident points into near-ties;
      * 'generic' with metric='minkowski', p=2 goes through scipy's pdist, i.e. the direct
        sqrt(dx^2 + dy^2), and then an exact dense Prim (mst_linkage_core).
    """
    import hdbscan

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        est = hdbscan.HDBSCAN(
            min_cluster_size=params["min_cluster_size"],
            min_samples=min_samples,
            cluster_selection_method=params["cluster_selection_method"],
            cluster_selection_epsilon=float(params["cluster_selection_epsilon"]),
            allow_single_cluster=params["allow_single_cluster"],
            max_cluster_size=params["max_cluster_size"] or 0,
            algorithm="generic",
            metric="minkowski",
            p=2,
            gen_min_span_tree=True,
        ).fit(points)
        outlier_scores = np.asarray(est.outlier_scores_, dtype=np.float64)
    messages = sorted({f"{w.category.__name__}: {w.message}" for w in caught})
    return est, outlier_scores, messages


# --------------------------------------------------------------------------------------
# Independent checks
# --------------------------------------------------------------------------------------


def exact_distance_matrix(points: np.ndarray) -> np.ndarray:
    diff = points[:, None, :] - points[None, :, :]
    return np.sqrt((diff * diff).sum(axis=-1))


def brute_core_distances(dist: np.ndarray, min_samples_sklearn: int) -> np.ndarray:
    """Distance to the min_samples-th nearest point, the point itself included (sklearn)."""
    return np.sort(dist, axis=1)[:, min_samples_sklearn - 1]


def brute_prim_weights(dist: np.ndarray, core: np.ndarray) -> np.ndarray:
    """Sorted MST weights of the mutual reachability graph, by a plain O(n^2) Prim."""
    mreach = np.maximum(dist, np.maximum(core[:, None], core[None, :]))
    n = len(core)
    in_tree = np.zeros(n, dtype=bool)
    best = np.full(n, np.inf)
    best[0] = 0.0
    weights = []
    for _ in range(n):
        i = int(np.argmin(np.where(in_tree, np.inf, best)))
        in_tree[i] = True
        weights.append(best[i])
        best = np.minimum(best, mreach[i])
    return np.sort(np.array(weights[1:]))


def sklearn_core_and_mst(points: np.ndarray, min_samples_sklearn: int):
    """Core distances and sorted MST weights from sklearn's own private pipeline.

    This is what sklearn.cluster._hdbscan.hdbscan._hdbscan_prims does before building the
    single-linkage tree (it returns only the tree, so it is replayed here).
    """
    from sklearn.cluster._hdbscan._linkage import mst_from_data_matrix
    from sklearn.metrics import DistanceMetric
    from sklearn.neighbors import NearestNeighbors

    x = np.ascontiguousarray(points, dtype=np.float64)
    nbrs = NearestNeighbors(n_neighbors=min_samples_sklearn, algorithm="kd_tree", leaf_size=40).fit(x)
    dists, _ = nbrs.kneighbors(x, min_samples_sklearn, return_distance=True)
    core = np.ascontiguousarray(dists[:, -1])
    mst = mst_from_data_matrix(x, core, DistanceMetric.get_metric("euclidean"), 1.0)
    return core, np.sort(mst["distance"])


def assert_close(name: str, case: str, a: np.ndarray, b: np.ndarray, tol: float = MST_TOLERANCE):
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    if a.shape != b.shape:
        raise SystemExit(f"[{case}] {name}: shapes differ {a.shape} vs {b.shape}")
    diff = float(np.max(np.abs(a - b))) if a.size else 0.0
    if not diff <= tol:
        raise SystemExit(f"[{case}] {name}: max abs difference {diff!r} > {tol!r}")


# --------------------------------------------------------------------------------------
# Shuffle stability
# --------------------------------------------------------------------------------------


def canonical_partition(labels) -> tuple:
    """Relabel clusters by first appearance (noise stays -1) so equal partitions compare equal."""
    mapping, out = {}, []
    for v in labels:
        v = int(v)
        if v == -1:
            out.append(-1)
        else:
            out.append(mapping.setdefault(v, len(mapping)))
    return tuple(out)


def permutations_for(case: Case) -> list[np.ndarray]:
    n = len(case.points)
    rng = np.random.default_rng(case.seed + 500_000)
    perms = [np.arange(n)[::-1].copy()]  # reversed order first, then random ones
    while len(perms) < N_SHUFFLES:
        perms.append(rng.permutation(n))
    return perms


def moved_points(base: np.ndarray, other: np.ndarray) -> set[int]:
    """Rows whose label in `other` differs from `base` once each cluster of `other` is
    renamed to the `base` label (noise included) it overlaps most; -1 maps only to -1."""
    rename = {}
    for lab in set(int(v) for v in other):
        members = base[other == lab]
        if lab == -1:
            rename[lab] = -1
            continue
        values, counts = np.unique(members, return_counts=True)
        rename[lab] = int(values[np.argmax(counts)])
    mapped = np.array([rename[int(v)] for v in other], dtype=np.int64)
    return set(int(i) for i in np.nonzero(mapped != base)[0])


def unshuffle(values: np.ndarray, perm: np.ndarray) -> np.ndarray:
    """Values computed on points[perm] back into the original row order."""
    out = np.empty_like(values)
    out[perm] = values
    return out


def same_scores(a: np.ndarray, b: np.ndarray) -> bool:
    """Equal within SCORE_TOLERANCE, with NaN only matching NaN."""
    nan_a, nan_b = np.isnan(a), np.isnan(b)
    if not np.array_equal(nan_a, nan_b):
        return False
    finite = ~nan_a
    return bool(np.all(np.abs(a[finite] - b[finite]) < SCORE_TOLERANCE))


# --------------------------------------------------------------------------------------
# One case
# --------------------------------------------------------------------------------------


def run_case(case: Case) -> dict:
    from sklearn.metrics import adjusted_rand_score

    points = case.points
    params = case.params()
    ms_sk = case.effective_min_samples
    n = len(points)

    # --- sklearn, unshuffled
    est, sk_warnings = fit_sklearn(points, params)
    labels = np.asarray(est.labels_, dtype=np.int64)
    probabilities = np.asarray(est.probabilities_, dtype=np.float64)
    slt_weights = np.sort(est._single_linkage_tree_["value"])

    # --- MST cross-checks: sklearn tree vs sklearn pipeline vs brute force
    dist = exact_distance_matrix(points)
    core_brute = brute_core_distances(dist, ms_sk)
    core_sk, mst_sk = sklearn_core_and_mst(points, ms_sk)
    assert_close("core distances sklearn vs brute force", case.name, core_sk, core_brute)
    assert_close("MST sklearn tree vs sklearn mst_from_data_matrix", case.name, slt_weights, mst_sk, 0.0)
    assert_close("MST sklearn vs brute-force Prim", case.name, slt_weights,
                 brute_prim_weights(dist, core_brute))

    if case.check is not None:
        problem = case.check(case, labels)
        if problem:
            raise SystemExit(f"[{case.name}] sanity check failed: {problem}")

    # --- sklearn, shuffled
    perms = permutations_for(case)
    base_partition = canonical_partition(labels)
    sk_stable, sk_prob_stable, min_ari = True, True, 1.0
    sk_unstable: set[int] = set()
    for perm in perms:
        shuffled, _ = fit_sklearn(points[perm], params)
        lab = unshuffle(np.asarray(shuffled.labels_, dtype=np.int64), perm)
        prob = unshuffle(np.asarray(shuffled.probabilities_, dtype=np.float64), perm)
        sk_stable &= canonical_partition(lab) == base_partition
        sk_unstable |= moved_points(labels, lab) | moved_points(lab, labels)
        sk_prob_stable &= same_scores(prob, probabilities)
        min_ari = min(min_ari, float(adjusted_rand_score(labels, lab)))

    sklearn_block = {
        "labels": [int(v) for v in labels],
        "probabilities": [float(v) for v in probabilities],
        "mst_weights_sorted": [float(v) for v in slt_weights],
        "shuffle_stable": bool(sk_stable),
        "min_shuffle_ari": min_ari,
        "probabilities_shuffle_stable": bool(sk_prob_stable),
        "unstable_points": sorted(sk_unstable),
    }

    # --- hdbscan library (min_samples does not count the point itself)
    ms_lib = ms_sk - 1
    notes = list(case.extra_notes) + sk_warnings
    hdbscan_block = None
    if ms_lib >= 1:
        h_est, h_scores, h_warnings = fit_hdbscan_lib(points, params, ms_lib)
        notes += [f"hdbscan library: {m}" for m in h_warnings]
        h_mst = np.sort(h_est.minimum_spanning_tree_._mst[:, 2])
        assert_close("MST hdbscan library vs sklearn", case.name, h_mst, slt_weights)
        h_labels = np.asarray(h_est.labels_, dtype=np.int64)
        h_base = canonical_partition(h_labels)
        h_stable, h_scores_stable = True, True
        h_unstable: set[int] = set()
        for perm in perms:
            shuffled, scores, _ = fit_hdbscan_lib(points[perm], params, ms_lib)
            lab = unshuffle(np.asarray(shuffled.labels_, dtype=np.int64), perm)
            h_stable &= canonical_partition(lab) == h_base
            h_unstable |= moved_points(h_labels, lab) | moved_points(lab, h_labels)
            h_scores_stable &= same_scores(unshuffle(scores, perm), h_scores)
        hdbscan_block = {
            "min_samples": ms_lib,
            "labels": [int(v) for v in h_labels],
            # NaN (GLOSH 0/0 or inf/inf, e.g. for duplicates) is written as null.
            "outlier_scores": [None if math.isnan(v) else float(v) for v in h_scores],
            "shuffle_stable": bool(h_stable),
            "outlier_scores_shuffle_stable": bool(h_scores_stable),
            "ari_vs_sklearn": float(adjusted_rand_score(labels, h_labels)),
            "unstable_points": sorted(h_unstable),
        }

    # MST edges whose weight is shared with another edge: where tie-breaking can matter.
    _, counts = np.unique(slt_weights, return_counts=True)
    tied = int(counts[counts > 1].sum())
    return {
        "name": case.name,
        "description": case.description,
        "seed": case.seed,
        "n": n,
        "params": params,
        "points": [[float(x), float(y)] for x, y in points],
        "mst_tied_weights": tied,
        "notes": notes,
        "sklearn": sklearn_block,
        "hdbscan_lib": hdbscan_block,
    }


# --------------------------------------------------------------------------------------
# Output
# --------------------------------------------------------------------------------------


def to_json(value, indent: int = 0) -> str:
    """Deterministic JSON: sorted keys, one key per line, arrays on one line.

    Floats use Python's repr (shortest string that round-trips), so Swift's Double parser
    reads back the very same doubles. NaN/inf are never written (null instead).
    """
    pad = "  " * indent
    if isinstance(value, dict):
        if not value:
            return "{}"
        items = [f'{pad}  {json.dumps(k)}: {to_json(value[k], indent + 1)}' for k in sorted(value)]
        return "{\n" + ",\n".join(items) + "\n" + pad + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(to_json(v, indent + 1) for v in value) + "]"
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError(f"non-finite float {value!r} in fixture")
        return repr(float(value))
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


def print_summary(results: list[dict]) -> None:
    header = ["case", "n", "clusters", "noise", "shuffle_stable", "min_shuffle_ari",
              "prob_stable", "unstable_pts", "tied_mst", "hdbscan_lib ARI", "lib_stable"]
    rows = []
    for r in results:
        sk = r["sklearn"]
        lib = r["hdbscan_lib"]
        rows.append([
            r["name"], str(r["n"]), str(_n_clusters(sk["labels"])),
            str(sum(1 for v in sk["labels"] if v == -1)),
            str(sk["shuffle_stable"]), f'{sk["min_shuffle_ari"]:.4f}',
            str(sk["probabilities_shuffle_stable"]), str(len(sk["unstable_points"])),
            str(r["mst_tied_weights"]),
            "n/a (null)" if lib is None else f'{lib["ari_vs_sklearn"]:.4f}',
            "n/a" if lib is None else str(lib["shuffle_stable"]),
        ])
    widths = [max(len(h), *(len(row[i]) for row in rows)) for i, h in enumerate(header)]
    print("| " + " | ".join(h.ljust(w) for h, w in zip(header, widths)) + " |")
    print("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    for row in rows:
        print("| " + " | ".join(c.ljust(w) for c, w in zip(row, widths)) + " |")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out-dir", type=Path, default=DEFAULT_OUT_DIR)
    parser.add_argument("--only", help="comma-separated case names (default: all)")
    parser.add_argument("--allow-version-mismatch", action="store_true")
    args = parser.parse_args(argv)

    check_versions(args.allow_version_mismatch)
    wanted = set(args.only.split(",")) if args.only else None
    args.out_dir.mkdir(parents=True, exist_ok=True)

    results, total_bytes = [], 0
    for generator in CASE_GENERATORS:
        case = generator()
        if wanted and case.name not in wanted:
            continue
        result = run_case(case)
        text = to_json(result) + "\n"
        json.loads(text)  # must be strict JSON
        path = args.out_dir / f"{case.name}.json"
        path.write_text(text, encoding="utf-8")
        total_bytes += len(text.encode())
        results.append(result)
        print(f"wrote {path.relative_to(REPO_ROOT) if path.is_relative_to(REPO_ROOT) else path} "
              f"({len(text.encode())} bytes, sha256 {hashlib.sha256(text.encode()).hexdigest()[:12]})",
              file=sys.stderr)

    print_summary(results)
    print(f"\n{len(results)} fixtures, {total_bytes} bytes in total")
    return 0


if __name__ == "__main__":
    sys.exit(main())
