#!/usr/bin/env python3
"""Write the d-dimensional reference fixtures in Tests/Fixtures/features/.

Each case is a small point set in d = 1, 3, 5, 8 or 16 dimensions (feature vectors: no unit,
Euclidean distances) with what scikit-learn 1.9.1 produces on it: HDBSCAN's labels and
probabilities for three parameter sets (eom and leaf), the core distances and the sorted
mutual-reachability MST weights for each min_samples, and DBSCAN's labels and core flags for
a few (eps, min_samples), one of them with sample_weight. The data: Gaussian blobs with noise,
a noisy low-dimensional manifold embedded in d dimensions (embedding-like), exact duplicate
rows, and integer coordinates (ties everywhere). Issue 44 (clustering beyond two columns).

Checks (the script stops with an error otherwise):
  * core distances (scikit-learn's KD-tree kneighbors, the point itself counted) equal a sort
    of the exact distance matrix within 1e-9 relative; the MST weights of scikit-learn's
    single-linkage tree are exactly those of its private pipeline
    (`_linkage.mst_from_data_matrix`) and equal a brute-force O(n^2) Prim within 1e-9 relative;
  * the hdbscan library 0.8.44 (`algorithm="generic", metric="minkowski", p=2`, min_samples one
    less) gives the same MST weights within 1e-9 relative; its labels are recorded as an ARI
    against scikit-learn's;
  * every DBSCAN run equals an O(n^2) DBSCAN written here (neighbours by the squared distance
    summed over the dimensions in order, `<= eps*eps`; scikit-learn's `dbscan_inner`
    expansion; with sample_weight, core when the neighbours' weights add up to min_samples), and
    no pair of points lies within 1e-9 (relative) of eps unless its squared distance is exact
    (integer data), so any summation order and scikit-learn's brute-force path (d = 16) agree;
  * every row that moves under row shuffles is a `tie_points` row (see below); the
    all-at-once labels and probabilities equal scikit-learn's on every other row, and its
    partition equals scikit-learn's wherever scikit-learn is shuffle-stable.

Ties. `ties_decide` is a conservative structural test on the MST: for every weight carried by
two or more edges, the components below that weight that those edges join form groups; a group
of three or more components is harmless when at most one of them has min_cluster_size points or
more and the others together have fewer (whatever the order, they all leave the one big
component, or stay below min_cluster_size, at that same lambda); otherwise the order of the tied
merges can make or unmake a cluster and `ties_decide` is true (`decisive_tie_weights` lists the
weights, `tie_points` the rows). Independently, `shuffle_stable` / `unstable_points` record what
32 row shuffles do to scikit-learn's partition (renaming each shuffled cluster to the original
one it overlaps most). `all_at_once` is the order-free answer geocluster defines
(`TieRule.allAtOnce`), computed here from the same MST (see `all_at_once`).

Run:  python scripts/reference/make_features_fixtures.py [--only d03_blobs,d16_ties] [--out-dir DIR]
Environment: scripts/reference/requirements.txt (numpy 2.3.5, scipy 1.17.1, scikit-learn
1.9.1, hdbscan 0.8.44). Deterministic: two runs give byte-identical files.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import sys
import warnings
from dataclasses import dataclass
from pathlib import Path

# Single-threaded BLAS/OpenMP: deterministic and kind to a shared 2-core machine.
for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from make_hdbscan_fixtures import (  # noqa: E402  (the planar fixtures' helpers)
    brute_prim_weights, canonical_partition, moved_points, same_scores, to_json, unshuffle)

REPO_ROOT = Path(__file__).resolve().parents[2]
DEFAULT_OUT_DIR = REPO_ROOT / "Tests" / "Fixtures" / "features"
PINNED_VERSIONS = {"numpy": "2.3.5", "scipy": "1.17.1", "scikit-learn": "1.9.1", "hdbscan": "0.8.44"}
N_SHUFFLES = 32
TOLERANCE = 1e-9  # relative: core distances and MST weights against the brute force
EPS_BAND = 1e-9  # relative: no pair's squared distance this close to eps^2 (unless exact)
DECIMALS = 4  # continuous coordinates are rounded to 1e-4 (short JSON, exact duplicates stay exact)
DIGITS = 12  # significant digits of the derived floats written (distances, probabilities): the tests allow 1e-9

# HDBSCAN parameter sets run on every case: (min_cluster_size, min_samples or None, method).
HDBSCAN_RUNS = [(15, 5, "eom"), (10, 5, "leaf"), (12, None, "eom")]


# --- cases -----------------------------------------------------------------------------------

@dataclass
class Case:
    name: str
    description: str
    seed: int
    points: np.ndarray  # (n, d) float64
    dbscan: list  # [(eps, min_samples, weighted)]
    integer: bool = False  # integer coordinates: every squared distance is exact


def _short(values):
    """Derived floats to DIGITS significant digits (the JSON stays small; the tests compare
    within 1e-9): core distances, MST weights, probabilities."""
    return [float(f"{float(v):.{DIGITS}g}") for v in values]


def _round(points):
    return np.round(np.asarray(points, dtype=np.float64), DECIMALS) + 0.0  # +0.0: no -0.0


def _sizes(d):
    """Rows per case: a few hundred to ~1,500, fewer in high d (the JSON grows with d)."""
    return {1: 500, 3: 900, 5: 750, 8: 600, 16: 420}[d]


def _blobs(rng, d, n, noise_fraction=0.08):
    """Gaussian blobs of different spreads and sizes in [-10, 10]^d, plus uniform noise."""
    k = 5
    centres = rng.uniform(-7, 7, (k, d))
    sigmas = np.array([0.3, 0.6, 1.0, 0.45, 0.8])
    shares = np.array([0.3, 0.25, 0.2, 0.15, 0.1])
    n_noise = int(round(n * noise_fraction))
    counts = np.floor(shares * (n - n_noise)).astype(int)
    counts[0] += n - n_noise - counts.sum()
    parts = [rng.normal(centres[i], sigmas[i], (counts[i], d)) for i in range(k)]
    parts.append(rng.uniform(-10, 10, (n_noise, d)))
    return np.vstack(parts)


def case_blobs(d, seed):
    rng = np.random.default_rng(seed)
    pts = _round(_blobs(rng, d, _sizes(d)))
    return Case(f"d{d:02d}_blobs", f"{d}-D: five Gaussian blobs (sigma 0.3-1.0, 30 % to 10 % of the rows) "
                f"in [-7, 7]^{d} plus 8 % uniform noise in [-10, 10]^{d}; coordinates on a 1e-4 grid.",
                seed, pts, [], integer=False)


def case_manifold(d, seed):
    """Clusters on a curved m-dimensional sheet (m = 2, or 3 from d = 5 on) embedded in d
    dimensions by x = A z + 0.8 sin(B z + c), with isotropic noise: UMAP/PCA-embedding-like."""
    rng = np.random.default_rng(seed)
    n = _sizes(d)
    m = 2 if d <= 3 else 3
    n_noise = int(round(0.06 * n))
    n_arc = int(round(0.14 * n))
    n_blobs = n - n_noise - n_arc
    centres = rng.uniform(-3, 3, (6, m))
    sig = np.array([0.15, 0.25, 0.35, 0.2, 0.3, 0.5])
    which = rng.choice(6, n_blobs, p=[0.25, 0.2, 0.2, 0.15, 0.12, 0.08])
    z_blobs = centres[which] + rng.normal(0, 1, (n_blobs, m)) * sig[which][:, None]
    t = rng.uniform(0, 1, n_arc)  # a curved filament between two blob centres
    z_arc = (centres[0][None, :] * (1 - t)[:, None] + centres[1][None, :] * t[:, None]
             + 0.8 * np.sin(np.pi * t)[:, None] * np.ones(m)[None, :] + rng.normal(0, 0.05, (n_arc, m)))
    z_noise = rng.uniform(-4, 4, (n_noise, m))
    z = np.vstack([z_blobs, z_arc, z_noise])
    a = rng.normal(0, 1, (d, m)) / math.sqrt(m)
    b = rng.normal(0, 1.2, (d, m))
    c = rng.uniform(0, 2 * np.pi, d)
    x = z @ a.T + 0.8 * np.sin(z @ b.T + c[None, :]) + rng.normal(0, 0.03, (n, d))
    pts = _round(x[rng.permutation(n)])
    return Case(f"d{d:02d}_manifold", f"{d}-D: six clusters (sigma 0.15-0.5) and a curved filament on a "
                f"{m}-D latent sheet, plus latent uniform noise, embedded by x = A z + 0.8 sin(B z + c) with "
                f"N(0, 0.03) noise in every dimension; rows shuffled; 1e-4 grid.", seed, pts, [])


def case_duplicates(d, seed):
    rng = np.random.default_rng(seed)
    n_sites = 45 if d > 1 else 40
    centres = rng.uniform(-6, 6, (3, d))
    sites = centres[rng.integers(0, 3, n_sites)] + rng.normal(0, 0.7, (n_sites, d))
    reps = rng.integers(1, 31, n_sites)  # 1..30 exact copies of each site
    pts = np.vstack([np.repeat(_round(sites), reps, axis=0), _round(rng.uniform(-10, 10, (40, d)))])
    cap = {1: 500, 3: 700, 5: 600, 8: 550, 16: 420}[d]
    pts = pts[rng.permutation(len(pts))][:cap] if len(pts) > cap else pts[rng.permutation(len(pts))]
    return Case(f"d{d:02d}_duplicates", f"{d}-D: {n_sites} sites around 3 centres (sigma 0.7), each repeated "
                f"1-30 times with exactly equal coordinates, plus 40 uniform noise rows; rows shuffled "
                f"(at most {cap} kept). Groups of >= min_samples copies have core distance 0.", seed, pts, [])


def case_ties(d, seed):
    """Integer coordinates: blobs snapped to the integer lattice (many coincident points and
    equal distances), a perfect lattice patch, integer noise."""
    rng = np.random.default_rng(seed)
    n = {1: 450, 3: 700, 5: 600, 8: 550, 16: 420}[d]
    centres = np.round(rng.uniform(-12, 12, (3, d)))
    sig = np.array([1.2, 2.0, 1.5])
    n_lat = 100
    n_noise = 40
    n_blob = n - n_lat - n_noise
    which = rng.choice(3, n_blob, p=[0.4, 0.35, 0.25])
    blob = np.round(centres[which] + rng.normal(0, 1, (n_blob, d)) * sig[which][:, None])
    # A 10 x 10 patch of the lattice in the first two dimensions (the others fixed at 20):
    # exactly equal nearest-neighbour distances (1) everywhere; in 1-D a run of 100 integers.
    if d == 1:
        lat = (30.0 + np.arange(n_lat, dtype=np.float64))[:, None]
    else:
        ij = np.array([(i, j) for i in range(10) for j in range(10)], dtype=np.float64)
        lat = np.full((n_lat, d), 20.0)
        lat[:, :2] = 20.0 + ij
    noise = np.round(rng.uniform(-25, 25, (n_noise, d)))
    pts = np.vstack([blob, lat, noise]) + 0.0
    pts = pts[rng.permutation(len(pts))]
    return Case(f"d{d:02d}_ties", f"{d}-D integer coordinates: three blobs (sigma 1.2, 2.0, 1.5) rounded to "
                f"the integer lattice, a perfect 10 x 10 lattice patch (a run of 100 integers in 1-D), 40 integer "
                f"noise rows; rows shuffled. Squared distances are exact integers: many equal distances, "
                f"coincident points, equal MST weights.", seed, pts, [], integer=True)


def _knn_quantile(points, k, q):
    """The q-quantile over points of the distance to the k-th nearest point (itself counted)."""
    kth = np.sort(np.sqrt(squared_distances(points)), axis=1)[:, k - 1]
    return float(np.quantile(kth[kth > 0], q))  # duplicates aside


def _nice(x):
    """x rounded to 3 significant digits (an eps a person would type)."""
    e = math.floor(math.log10(x))
    return round(x, 2 - e)


def with_dbscan_runs(case: Case, weighted: bool) -> Case:
    """Two DBSCAN runs at eps taken from the data: the median 5th- and the 85th-percentile
    10th-neighbour distance (over distinct rows, nearest other row, for the duplicates), as a
    person would type them (integers on integer data: distances equal to eps then count,
    exactly); plus, with `weighted`, the first again with sample_weight."""
    pts = case.points
    distinct = np.unique(pts, axis=0)
    if case.name.endswith("duplicates"):
        picks = [(distinct, 2, 0.3, 5), (distinct, 2, 0.8, 10)]
    else:
        picks = [(pts, 5, 0.5, 5), (pts, 10, 0.85, 10)]
    sq = squared_distances(pts)
    runs = []
    for where, k, q, ms in picks:
        raw = _knn_quantile(where, k, q)
        if case.integer:
            eps = float(max(1, round(raw)))
        else:
            eps = _nice(raw)
            # Off every pair's distance (on a 1e-4 grid, 1-D distances are multiples of 1e-4):
            # half a grid step further until no squared distance is within EPS_BAND of eps^2.
            while np.any(np.abs(sq - eps * eps) <= EPS_BAND * eps * eps):
                eps = round(eps + 0.5 * 10.0 ** -DECIMALS, DECIMALS + 1)
        runs.append((eps, ms, False))
    if weighted:
        eps, ms, _ = runs[0]
        runs.append((eps, ms, True))
    case.dbscan = runs
    return case


def all_cases() -> list[tuple[str, object]]:
    """(name, maker) for every case; a maker builds the case with its DBSCAN runs."""
    out = []
    for d in (1, 3, 5, 8, 16):
        base = 4400 + 10 * d
        kinds = [case_blobs, case_duplicates, case_ties] if d == 1 else [case_blobs, case_manifold, case_duplicates, case_ties]
        for i, make in enumerate(kinds):
            name = f"d{d:02d}_{make.__name__.removeprefix('case_')}"
            weighted = make is case_blobs or make is case_ties
            out.append((name, lambda make=make, d=d, seed=base + i, w=weighted: with_dbscan_runs(make(d, seed), w)))
    return out


# --- exact distances and brute-force references ----------------------------------------------

def squared_distances(points: np.ndarray) -> np.ndarray:
    """Squared distances summed over the dimensions in order (scikit-learn's KD-tree rdist)."""
    n, d = points.shape
    s = np.zeros((n, n))
    for k in range(d):
        diff = points[:, None, k] - points[None, :, k]
        s += diff * diff
    return s


def brute_core(dist: np.ndarray, k: int) -> np.ndarray:
    return np.sort(dist, axis=1)[:, k - 1]


def assert_rel(name, case, a, b, tol=TOLERANCE):
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    if a.shape != b.shape:
        raise SystemExit(f"[{case}] {name}: shapes differ {a.shape} vs {b.shape}")
    if a.size and not np.all(np.abs(a - b) <= tol * np.maximum(1.0, np.abs(b))):
        raise SystemExit(f"[{case}] {name}: max abs difference {float(np.max(np.abs(a - b)))!r}")


def sklearn_spanning(points: np.ndarray, k: int):
    """Core distances and the MST edges (a, b, weight) of scikit-learn's own pipeline:
    what `_hdbscan_prims` does before building the single-linkage tree."""
    from sklearn.cluster._hdbscan._linkage import mst_from_data_matrix
    from sklearn.metrics import DistanceMetric
    from sklearn.neighbors import NearestNeighbors

    x = np.ascontiguousarray(points, dtype=np.float64)
    nbrs = NearestNeighbors(n_neighbors=k, algorithm="kd_tree", leaf_size=40).fit(x)
    dists, _ = nbrs.kneighbors(x, k, return_distance=True)
    core = np.ascontiguousarray(dists[:, -1])
    mst = mst_from_data_matrix(x, core, DistanceMetric.get_metric("euclidean"), 1.0)
    return core, mst["current_node"].astype(np.int64), mst["next_node"].astype(np.int64), mst["distance"].copy()


def tie_points(n, a, b, w, min_cluster_size):
    """Where the order of tied merges can change scikit-learn's result: the tied MST weights that
    can decide something, and the rows whose label may depend on that order (module docstring).

    Edges are taken in blocks of equal weight. In a block, the components below the weight
    that its edges join form groups; a group of three or more components, with `big` those of
    min_cluster_size points or more and `small` the others' total size, is
      * harmless when big <= 1 and small < min_cluster_size: the small ones leave the big one
        (or stay below min_cluster_size) at this same lambda whatever the order;
      * decisive for the small components' rows when big >= 2: they may join any big one or
        drop out, while the big ones are clusters born at this lambda in any order;
      * decisive for every row of the cluster it lies in when big <= 1 and small >=
        min_cluster_size: small parts may add up to a new (zero-stability) cluster that ends or
        splits that cluster, which can change its selection. That cluster is the component the
        group belongs to just before it first meets another component of min_cluster_size
        points or more (every row, when it never does).
    """
    parent = list(range(n))
    members = [[i] for i in range(n)]

    def find(x):
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    order = np.argsort(w, kind="stable")
    decisive, affected = [], set()
    pending = []  # roots of groups whose enclosing cluster is still to be found
    i = 0
    while i < len(order):
        j = i
        while j < len(order) and w[order[j]] == w[order[i]]:
            j += 1
        block = order[i:j]
        # Groups of the components (below this weight) that the block's edges join.
        gp = {}

        def gfind(x):
            while gp.setdefault(x, x) != x:
                x = gp[x]
            return x

        for e in block:
            gp[gfind(find(int(a[e])))] = gfind(find(int(b[e])))
        groups = {}
        for r in list(gp):
            groups.setdefault(gfind(r), []).append(r)
        # Pending groups whose component now meets a big component: their cluster is found.
        still = []
        for root in pending:
            r = find(root)
            if r not in gp:
                still.append(root)
                continue
            others = [q for q in groups[gfind(r)] if q != r]
            if any(len(members[q]) >= min_cluster_size for q in others):
                affected.update(members[r])
            else:
                still.append(root)
        pending = still
        new_pending = []
        is_decisive = False
        for comps in groups.values():
            if len(comps) < 3:
                continue
            big = [q for q in comps if len(members[q]) >= min_cluster_size]
            small = [q for q in comps if len(members[q]) < min_cluster_size]
            small_total = sum(len(members[q]) for q in small)
            if len(big) >= 2:
                is_decisive |= bool(small)
                for q in small:
                    affected.update(members[q])
            elif small_total >= min_cluster_size:
                is_decisive = True
                new_pending.append(comps[0])
        if is_decisive:
            decisive.append(float(w[order[i]]))
        for e in block:
            r, s = find(int(a[e])), find(int(b[e]))
            if r != s:
                if len(members[r]) > len(members[s]):
                    r, s = s, r
                parent[r] = s
                members[s].extend(members[r])
                members[r] = []
        pending += new_pending
        i = j
    if pending:
        affected = set(range(n))
    return decisive, sorted(affected)


def all_at_once(n, a, b, w, min_cluster_size, method):
    """HDBSCAN* with every MST edge of one weight removed at once (geocluster's
    `TieRule.allAtOnce`), from the MST edges: labels and probabilities, independent of the
    edges' order and of which of several equal edges the MST holds.

    The components below each weight that its edges join are one node with all of them as
    children. Walking from the root: at a node, two or more parts of >= min_cluster_size points
    become child clusters born at lambda = 1/weight, one carries the cluster on, and the points
    of every smaller part fall out at lambda. Stability sums (lambda - birth) over points
    leaving (child clusters count their size) in walk order; excess of mass keeps a cluster
    unless its children's total (summed in ascending order) is strictly greater, the root only
    counting through its children; leaf takes the clusters without child clusters. A point's
    label is its cluster's nearest selected ancestor-or-self; its probability
    min(lambda, death) / death, death being the largest lambda of that selected cluster's own
    events (1 for lambda = inf or death = 0). This mirrors scikit-learn's condensing,
    selection and labelling except for the ties (checked against it on the rows no tie
    touches).
    """
    parent = list(range(n))
    node_of = list(range(n))  # union-find root -> its node (points are nodes 0..n-1)
    children, dist, size, min_row = {}, {}, {}, {}

    def find(x):
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    def node_size(v):
        return 1 if v < n else size[v]

    order = np.argsort(w, kind="stable")
    next_id = n
    i = 0
    while i < len(order):
        j = i
        while j < len(order) and w[order[j]] == w[order[i]]:
            j += 1
        gp = {}

        def gfind(x):
            while gp.setdefault(x, x) != x:
                x = gp[x]
            return x

        for e in order[i:j]:
            gp[gfind(find(int(a[e])))] = gfind(find(int(b[e])))
        groups = {}
        for r in sorted(gp):
            groups.setdefault(gfind(r), []).append(r)
        for comps in groups.values():
            children[next_id] = [node_of[r] for r in comps]
            dist[next_id] = float(w[order[i]])
            size[next_id] = sum(node_size(node_of[r]) for r in comps)
            min_row[next_id] = min(node_of[r] if node_of[r] < n else min_row[node_of[r]] for r in comps)
            for r in comps[1:]:
                parent[r] = comps[0]
            node_of[comps[0]] = next_id
            next_id += 1
        i = j
    labels = np.full(n, -1, dtype=np.int64)
    probs = np.zeros(n)
    if n < 2:
        return labels, probs

    def points_under(v):
        out, stack = [], [v]
        while stack:
            u = stack.pop()
            if u < n:
                out.append(u)
            else:
                stack.extend(children[u])
        return out

    c_parent, c_birth, c_stab, c_death, c_kids = [-1], [0.0], [0.0], [0.0], [[]]
    fall_cluster = np.zeros(n, dtype=np.int64)
    fall_lambda = np.zeros(n)
    queue = [(next_id - 1, 0)]
    head = 0
    while head < len(queue):
        v, c = queue[head]
        head += 1
        lam = 1.0 / dist[v] if dist[v] > 0 else math.inf
        parts = sorted(children[v], key=lambda u: u if u < n else min_row[u])
        big = [u for u in parts if node_size(u) >= min_cluster_size]
        leaving = 0
        if len(big) >= 2:
            for u in big:
                c_parent.append(c); c_birth.append(lam); c_stab.append(0.0); c_death.append(0.0); c_kids.append([])
                c_kids[c].append(len(c_parent) - 1)
                leaving += node_size(u)
                queue.append((u, len(c_parent) - 1))
        elif len(big) == 1:
            queue.append((big[0], c))
        for u in parts:
            if node_size(u) >= min_cluster_size:
                continue
            for p in points_under(u):
                fall_cluster[p] = c
                fall_lambda[p] = lam
            leaving += node_size(u)
        if leaving:
            c_stab[c] += (lam - c_birth[c]) * leaving
            c_death[c] = max(c_death[c], lam)
    count = len(c_parent)
    selected = [False] * count
    if method == "eom":
        stab = list(c_stab)
        for k in range(1, count):
            selected[k] = True
        for k in range(count - 1, 0, -1):
            subtree = sum(sorted(stab[q] for q in c_kids[k]))
            if subtree > stab[k]:
                selected[k] = False
                stab[k] = subtree
            else:
                stack = list(c_kids[k])
                while stack:
                    q = stack.pop()
                    selected[q] = False
                    stack.extend(c_kids[q])
    else:
        for k in range(1, count):
            selected[k] = not c_kids[k]
    label_of = {k: i for i, k in enumerate(q for q in range(count) if selected[q])}
    inherited = [-1] * count
    for k in range(count):  # parents come first
        inherited[k] = k if selected[k] else (inherited[c_parent[k]] if k > 0 else -1)
    for p in range(n):
        top = inherited[fall_cluster[p]]
        if top < 0:
            continue
        labels[p] = label_of[top]
        death, lam = c_death[top], fall_lambda[p]
        probs[p] = 1.0 if death == 0 or math.isinf(lam) else min(lam, death) / death
    return labels, probs


def brute_dbscan(sq: np.ndarray, eps: float, min_samples: int, weight=None):
    """DBSCAN written out: exact neighbourhoods, then scikit-learn's dbscan_inner."""
    near = sq <= eps * eps
    hoods = [np.nonzero(row)[0] for row in near]
    if weight is None:
        core = np.array([len(h) >= min_samples for h in hoods])
    else:
        core = np.array([weight[h].sum() >= min_samples for h in hoods])
    labels = np.full(len(sq), -1, dtype=np.int64)
    label = 0
    for i in range(len(sq)):
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
    return labels, core, hoods


def dbscan_weights(n, seed):
    """scikit-learn's sample_weight: mostly 1, some 0.5, 2 and 3, a few 0 and -1 (all sums exact)."""
    rng = np.random.default_rng(seed)
    return rng.choice(np.array([1.0, 0.5, 2.0, 3.0, 0.0, -1.0]), n, p=[0.6, 0.12, 0.12, 0.08, 0.05, 0.03])


# --- reference runs --------------------------------------------------------------------------

def fit_sklearn_hdbscan(points, mcs, ms, method):
    from sklearn.cluster import HDBSCAN
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        est = HDBSCAN(min_cluster_size=mcs, min_samples=ms, cluster_selection_method=method, copy=True).fit(points)
    return est, sorted({f"{w.category.__name__}: {w.message}" for w in caught})


def fit_hdbscan_lib(points, mcs, ms_lib, method, algorithm="generic"):
    import hdbscan
    extra = dict(metric="minkowski", p=2) if algorithm == "generic" else {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return hdbscan.HDBSCAN(min_cluster_size=mcs, min_samples=ms_lib, cluster_selection_method=method,
                               algorithm=algorithm, gen_min_span_tree=True, **extra).fit(points)


def permutations(case: Case):
    rng = np.random.default_rng(case.seed + 500_000)
    n = len(case.points)
    return [np.arange(n)[::-1].copy()] + [rng.permutation(n) for _ in range(N_SHUFFLES - 1)]


def build(case: Case) -> tuple[dict, list[str]]:
    from sklearn.cluster import DBSCAN
    from sklearn.metrics import adjusted_rand_score
    from sklearn.neighbors import NearestNeighbors

    pts = case.points
    n, d = pts.shape
    sq = squared_distances(pts)
    dist = np.sqrt(sq)
    summary = []
    notes = []

    # Spanning trees, one per min_samples.
    spanning, edges = [], {}
    for k in sorted({ms if ms is not None else mcs for mcs, ms, _ in HDBSCAN_RUNS}):
        core, a, b, w = sklearn_spanning(pts, k)
        assert_rel(f"core distances k={k} vs brute force", case.name, core, brute_core(dist, k))
        w_sorted = np.sort(w)
        assert_rel(f"MST k={k} vs brute-force Prim", case.name, w_sorted, brute_prim_weights(dist, brute_core(dist, k)))
        lib = fit_hdbscan_lib(pts, 5, k - 1, "eom")
        lib_w = np.sort(lib.minimum_spanning_tree_._mst[:, 2])
        assert_rel(f"MST k={k}: hdbscan library vs scikit-learn", case.name, lib_w, w_sorted)
        # The library's default (boruvka_kdtree, approx_min_span_tree=True) for the record.
        default = fit_hdbscan_lib(pts, 5, k - 1, "eom", algorithm="best")
        dflt_w = np.sort(default.minimum_spanning_tree_._mst[:, 2])
        excess = float(dflt_w.sum() / w_sorted.sum() - 1) if w_sorted.sum() > 0 else 0.0
        _, counts = np.unique(w_sorted, return_counts=True)
        edges[k] = (a, b, w)
        spanning.append({
            "min_samples": k,
            "core_distances": _short(core),
            "mst_weights_sorted": _short(w_sorted),
            "mst_weight_total": float(w_sorted.sum()),
            "mst_tied_weights": int(counts[counts > 1].sum()),
            "mst_zero_weights": int((w_sorted == 0).sum()),
            "hdbscan_lib_default_mst_excess": excess,
        })

    # HDBSCAN runs.
    perms = permutations(case)
    hdb = []
    for mcs, ms, method in HDBSCAN_RUNS:
        k = ms if ms is not None else mcs
        est, msgs = fit_sklearn_hdbscan(pts, mcs, ms, method)
        notes += [f"sklearn (mcs {mcs}, ms {ms}, {method}): {m}" for m in msgs]
        labels = est.labels_.astype(np.int64)
        probs = est.probabilities_.astype(np.float64)
        slt = np.sort(est._single_linkage_tree_["value"])
        if not np.array_equal(slt, np.sort(edges[k][2])):
            raise SystemExit(f"[{case.name}] single-linkage tree weights differ from mst_from_data_matrix")
        base = canonical_partition(labels)
        stable, prob_stable, min_ari, unstable = True, True, 1.0, set()
        for perm in perms:
            sh, _ = fit_sklearn_hdbscan(pts[perm], mcs, ms, method)
            lab = unshuffle(sh.labels_.astype(np.int64), perm)
            stable &= canonical_partition(lab) == base
            unstable |= moved_points(labels, lab) | moved_points(lab, labels)
            prob_stable &= same_scores(unshuffle(sh.probabilities_.astype(np.float64), perm), probs)
            min_ari = min(min_ari, float(adjusted_rand_score(labels, lab)))
        decisive, tied_rows = tie_points(n, *edges[k], mcs)
        if not unstable <= set(tied_rows):
            raise SystemExit(f"[{case.name}] mcs {mcs} ms {ms} {method}: rows {sorted(unstable - set(tied_rows))} "
                             "move under shuffles although no tie touches them")
        aao_labels, aao_probs = all_at_once(n, *edges[k], mcs, method)
        free = np.setdiff1d(np.arange(n), np.array(tied_rows, dtype=np.int64))
        if canonical_partition(aao_labels[free]) != canonical_partition(labels[free]):
            raise SystemExit(f"[{case.name}] mcs {mcs} ms {ms} {method}: all-at-once differs from scikit-learn "
                             "on rows no tie touches")
        if not np.allclose(aao_probs[free], probs[free], rtol=0, atol=1e-12):
            raise SystemExit(f"[{case.name}] mcs {mcs} ms {ms} {method}: all-at-once probabilities differ from "
                             "scikit-learn's on rows no tie touches")
        aao_same = canonical_partition(aao_labels) == base
        if stable and not aao_same:  # the tests rely on it, as the planar ones do
            raise SystemExit(f"[{case.name}] mcs {mcs} ms {ms} {method}: scikit-learn is shuffle-stable but its "
                             "partition is not the all-at-once one")
        lib = fit_hdbscan_lib(pts, mcs, k - 1, method)
        lib_labels = lib.labels_.astype(np.int64)
        n_clusters = len(set(labels.tolist()) - {-1})
        hdb.append({
            "params": {"min_cluster_size": mcs, "min_samples": ms, "cluster_selection_method": method},
            "labels": [int(v) for v in labels],
            "probabilities": _short(probs),
            "n_clusters": n_clusters,
            "n_noise": int((labels == -1).sum()),
            "ties_decide": bool(decisive),
            "decisive_tie_weights": decisive,
            "tie_points": tied_rows,
            "shuffle_stable": bool(stable),
            "probabilities_shuffle_stable": bool(prob_stable),
            "min_shuffle_ari": min_ari,
            "unstable_points": sorted(unstable),
            "all_at_once": {
                "labels": [int(v) for v in aao_labels],
                "probabilities": _short(aao_probs),
                "n_clusters": len(set(aao_labels.tolist()) - {-1}),
                "n_noise": int((aao_labels == -1).sum()),
                "same_partition_as_sklearn": aao_same,
                "ari_vs_sklearn": float(adjusted_rand_score(labels, aao_labels)),
            },
            "hdbscan_lib_ari": float(adjusted_rand_score(labels, lib_labels)),
            "hdbscan_lib_same_partition": canonical_partition(lib_labels) == base,
        })
        summary.append(f"  hdbscan mcs {mcs:2d} ms {str(ms):4s} {method:4s}: {n_clusters:2d} clusters, "
                       f"{int((labels == -1).sum()):4d} noise, ties_decide {str(bool(decisive)):5s} "
                       f"({len(decisive)} weights, {len(tied_rows)} rows), shuffle_stable {str(bool(stable)):5s} "
                       f"({len(unstable)} unstable, min ARI {min_ari:.4f}), all-at-once ARI "
                       f"{adjusted_rand_score(labels, aao_labels):.4f}{' (same)' if aao_same else ''}, lib ARI "
                       f"{adjusted_rand_score(labels, lib_labels):.4f}")

    # DBSCAN runs.
    db = []
    for eps, ms, weighted in case.dbscan:
        if not case.integer:
            band = np.abs(sq - eps * eps) <= EPS_BAND * eps * eps
            np.fill_diagonal(band, False)
            if band.any():
                raise SystemExit(f"[{case.name}] eps {eps}: {int(band.sum()) // 2} pair(s) within {EPS_BAND} of eps")
        elif not (np.all(pts == np.round(pts)) and float(eps * eps).is_integer()):
            raise SystemExit(f"[{case.name}] integer case with non-integer data or eps^2")
        weight = dbscan_weights(n, case.seed + 7) if weighted else None
        est = DBSCAN(eps=eps, min_samples=ms).fit(pts, sample_weight=weight)
        core = np.zeros(n, dtype=bool)
        core[est.core_sample_indices_] = True
        labels = est.labels_.astype(np.int64)
        b_labels, b_core, hoods = brute_dbscan(sq, eps, ms, weight)
        if not (np.array_equal(b_core, core) and np.array_equal(b_labels, labels)):
            raise SystemExit(f"[{case.name}] DBSCAN eps {eps} ms {ms}: scikit-learn differs from the O(n^2) DBSCAN")
        contested = [int(i) for i in np.nonzero(~core & (labels >= 0))[0]
                     if len({int(labels[j]) for j in hoods[i] if core[j]}) > 1]
        for i in np.nonzero(~core & (labels >= 0))[0]:  # border: lowest label among core neighbours
            if labels[i] != min(int(labels[j]) for j in hoods[i] if core[j]):
                raise SystemExit(f"[{case.name}] border point {i} does not take the lowest label")
        method = NearestNeighbors(radius=eps).fit(pts)._fit_method
        n_clusters = int(labels.max() + 1) if n else 0
        db.append({
            "eps": float(eps), "min_samples": int(ms),
            "sample_weight": None if weight is None else [float(v) for v in weight],
            "labels": [int(v) for v in labels], "core": [int(v) for v in core],
            "n_clusters": n_clusters, "n_core": int(core.sum()), "n_noise": int((labels == -1).sum()),
            "contested_border": contested, "neighbors_fit_method": method,
        })
        summary.append(f"  dbscan eps {eps:<7} ms {ms:2d}{' weighted' if weighted else '         '}: "
                       f"{n_clusters:3d} clusters, {int(core.sum()):4d} core, {int((labels == -1).sum()):4d} noise, "
                       f"{len(contested)} contested border, {method}")

    record = {
        "name": case.name, "description": case.description, "seed": case.seed, "n": n, "dimensions": d,
        "integer_coordinates": case.integer,
        "points": [[float(v) for v in row] for row in pts],
        "spanning": spanning, "hdbscan": hdb, "dbscan": db, "notes": sorted(set(notes)),
    }
    return record, summary


def check_versions(allow):
    from importlib.metadata import version
    wrong = {p: version(p) for p, v in PINNED_VERSIONS.items() if version(p) != v}
    if wrong and not allow:
        raise SystemExit(f"pinned versions {PINNED_VERSIONS} required, found {wrong} (--allow-version-mismatch to experiment)")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", help="comma-separated case names (default: all)")
    ap.add_argument("--out-dir", type=Path, default=DEFAULT_OUT_DIR)
    ap.add_argument("--allow-version-mismatch", action="store_true")
    args = ap.parse_args(argv)
    check_versions(args.allow_version_mismatch)
    wanted = set(args.only.split(",")) if args.only else None
    args.out_dir.mkdir(parents=True, exist_ok=True)
    total = 0
    for name, make in all_cases():
        if wanted and name not in wanted:
            continue
        case = make()
        assert case.name == name
        record, summary = build(case)
        text = to_json(record) + "\n"
        json.loads(text)  # strict JSON
        path = args.out_dir / f"{case.name}.json"
        path.write_text(text, encoding="utf-8")
        total += len(text.encode())
        sp = {s["min_samples"]: s for s in record["spanning"]}
        print(f"{case.name:16s} n={record['n']:5d} d={record['dimensions']:2d}  {len(text.encode()):8d} B  "
              f"{hashlib.sha256(text.encode()).hexdigest()[:12]}  tied MST weights "
              + ", ".join(f"ms {k}: {v['mst_tied_weights']} ({v['mst_zero_weights']} zero)" for k, v in sp.items())
              + "  default-lib MST excess "
              + ", ".join(f"{v['hdbscan_lib_default_mst_excess']:.2e}" for v in sp.values()))
        for line in summary:
            print(line)
        sys.stdout.flush()
    print(f"{total} bytes in total")
    return 0


if __name__ == "__main__":
    sys.exit(main())
