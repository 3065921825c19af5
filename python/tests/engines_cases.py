"""The data sets and checks test_engines_dask.py and test_engines_spark.py share. Each engine's
test file passes its own `run(frame, **kwargs)`, which runs the engine's `cluster` or
`cluster_groups` on a pandas frame and returns the result as a pandas frame; the checks
compare it with the single-process estimators on the rows sorted by id."""

import math

import numpy as np
import pandas as pd

from geocluster_hdbscan import DBSCAN, HDBSCAN


def blobs(seed=1, n=3000):
    """Five Gaussian blobs and uniform noise in a 1 km square, ids a permutation: with eps 12
    the blobs cross tile borders at every tile size the tests use."""
    rng = np.random.default_rng(seed)
    centres = [(0, 0), (100, 80), (300, -50), (-200, 200), (50, -300)]
    per = n // 6
    X = np.concatenate([rng.normal(c, 30, (per, 2)) for c in centres] + [rng.uniform(-500, 500, (n - 5 * per, 2))])
    ids = rng.permutation(len(X))
    return pd.DataFrame({"id": ids, "x": X[:, 0], "y": X[:, 1], "g": ids % 3, "h": np.where(ids % 2, "a", "b")})


def contested_border():
    """Two chains of points (spacing 0.4, eps 1, min_samples 4) reaching x = ±0.95 and one
    point at x = 0, within eps of both chains' ends and core in neither: a border point of
    two clusters in two tiles (they meet at x = 0). The left chain holds the smallest core
    id, 0, at its far end beyond the halo of x = 0's tile, so that tile alone sees the right
    chain as the lower one; the single-process rule gives the point to the left chain."""
    left = -0.95 - 0.4 * np.arange(8)
    right = 0.95 + 0.4 * np.arange(8)
    x = np.concatenate([left, right, [0.0]])
    ids = np.concatenate([[100, 101, 102, 103, 104, 0, 105, 106], 50 + np.arange(8), [7]])
    return pd.DataFrame({"id": ids, "x": x, "y": np.zeros(len(x))})


def duplicates():
    """Stacks of identical points on tile corners and edges (tile size 5), a line of doubled
    points along a tile edge, and a few lone duplicates below min_samples."""
    rng = np.random.default_rng(7)
    points = [(5.0, 5.0)] * 40 + [(0.0, 0.0)] * 3 + [(10.0, -5.0)] * 6
    points += [(10.0, y) for y in np.arange(-20, 20, 0.7) for _ in range(2)]
    points += [tuple(p) for p in rng.uniform(-20, 20, (300, 2))]
    X = np.array(points)
    ids = rng.permutation(len(X))
    return pd.DataFrame({"id": ids, "x": X[:, 0], "y": X[:, 1]})


def check_duplicates(frame, labels):
    """The stack on the tile corner (5, 5) is one cluster, the 3 copies of (0, 0) are noise,
    and the doubled line along x = 10 is clustered."""
    ordered = frame.sort_values("id", kind="stable")
    x, y = ordered["x"].to_numpy(), ordered["y"].to_numpy()
    corner = labels[(x == 5) & (y == 5)]
    assert len(set(corner)) == 1 and corner[0] >= 0
    assert (labels[(x == 0) & (y == 0)] == -1).all()
    assert (labels[(x == 10) & (np.abs(y) < 15)] >= 0).all()


def world(seed=3):
    """[latitude, longitude] in radians: clusters on the antimeridian (one straddling it, one
    just west of it), one at the north pole, one at the equator's other side, and noise over
    the sphere."""
    rng = np.random.default_rng(seed)
    parts = []
    for lat, lon, n in [(0.0, math.pi, 400), (0.3, -math.pi + 0.002, 300), (-0.7, 3.1, 300), (0.1, 0.0, 300)]:
        parts.append(np.column_stack([rng.normal(lat, 0.004, n), rng.normal(lon, 0.004, n)]))
    pole = np.column_stack([math.pi / 2 - np.abs(rng.normal(0, 0.004, 300)), rng.uniform(-math.pi, math.pi, 300)])
    noise = np.column_stack([np.arcsin(rng.uniform(-1, 1, 800)), rng.uniform(-math.pi, math.pi, 800)])
    X = np.concatenate(parts + [pole, noise])
    X[:, 1] = np.mod(X[:, 1] + math.pi, 2 * math.pi) - math.pi
    ids = rng.permutation(len(X))
    return pd.DataFrame({"id": ids, "lat": X[:, 0], "lon": X[:, 1]})


def antimeridian_band(seed=4, n=1500):
    """[latitude, longitude] in radians, uniform in a 0.4 x 0.4 rad square centred on the
    antimeridian: with eps 0.01 and min_samples 4 about four points share a neighbourhood, so
    clusters are small, ragged and full of border points (about 110 clusters, 300 border
    points), crossing the antimeridian and tile borders."""
    rng = np.random.default_rng(seed)
    lat = rng.uniform(-0.2, 0.2, n)
    lon = np.mod(rng.uniform(math.pi - 0.2, math.pi + 0.2, n) + math.pi, 2 * math.pi) - math.pi
    return pd.DataFrame({"id": rng.permutation(n), "lat": lat, "lon": lon})


def single_process(frame, columns=("x", "y"), **params):
    """The single-process DBSCAN on the rows sorted by id: (sorted frame, labels, core flags)."""
    frame = frame.sort_values("id", kind="stable").reset_index(drop=True)
    model = DBSCAN(**params).fit(frame[list(columns)].to_numpy())
    core = np.zeros(len(frame), dtype=bool)
    core[model.core_sample_indices_] = True
    return frame, model.labels_, core


def check_cluster(result, frame, columns=("x", "y"), **params):
    """The engine's global DBSCAN equals the single-process one exactly: every input row once,
    with its other columns, the same core flags, the same labels (same numbers). Returns the
    single-process labels for further checks."""
    ordered, labels, core = single_process(frame, columns, **params)
    result = result.sort_values("id", kind="stable").reset_index(drop=True)
    assert len(result) == len(frame)
    assert np.array_equal(result["id"].to_numpy(), ordered["id"].to_numpy())
    for column in frame.columns:
        assert np.array_equal(result[column].to_numpy(), ordered[column].to_numpy()), column
    assert np.array_equal(result["is_core"].to_numpy(), core)
    assert np.array_equal(result["label"].to_numpy(), labels)
    return labels


def brute_force(frame, eps, min_samples):
    """DBSCAN from its definition on a small planar frame, rows in id order: every pair
    measured (dx² + dy² <= eps², geocluster's test), components of core points numbered by
    their smallest id, a border point in the lowest-numbered cluster among its core
    neighbours'. Returns (labels, core) in id order."""
    frame = frame.sort_values("id", kind="stable")
    X = frame[["x", "y"]].to_numpy()
    dx = X[:, None, 0] - X[None, :, 0]
    dy = X[:, None, 1] - X[None, :, 1]
    near = dx * dx + dy * dy <= eps * eps
    core = near.sum(axis=1) >= min_samples
    labels = np.full(len(X), -1)
    next_label = 0
    for start in range(len(X)):
        if not core[start] or labels[start] >= 0:
            continue
        labels[start] = next_label
        stack = [start]
        while stack:
            p = stack.pop()
            for q in np.flatnonzero(near[p] & core & (labels < 0)):
                labels[q] = next_label
                stack.append(q)
        next_label += 1
    for p in np.flatnonzero(~core):
        reached = labels[near[p] & core]
        labels[p] = reached.min() if reached.size else -1
    return labels, core


def contested(frame, eps, labels):
    """How many non-core points have core neighbours in two or more clusters (brute force)."""
    X = frame.sort_values("id", kind="stable")[["x", "y"]].to_numpy()
    dx = X[:, None, 0] - X[None, :, 0]
    dy = X[:, None, 1] - X[None, :, 1]
    near = dx * dx + dy * dy <= eps * eps
    return sum(len(set(labels[near[p]]) - {-1}) > 1 for p in range(len(X)))


def check_groups(result, frame, by, algorithm, columns=("x", "y"), **params):
    """cluster_groups equals the single-process estimator on each group's rows sorted by id."""
    assert len(result) == len(frame)
    groups = 0
    for key, part in frame.groupby(by, sort=True):
        key = key if isinstance(key, tuple) else (key,)
        mask = np.logical_and.reduce([result[b].to_numpy() == k for b, k in zip(by, key)])
        got = result[mask].sort_values("id", kind="stable")
        part = part.sort_values("id", kind="stable")
        assert np.array_equal(got["id"].to_numpy(), part["id"].to_numpy())
        X = part[list(columns)].to_numpy()
        if algorithm == "dbscan":
            model = DBSCAN(**params).fit(X)
            core = np.zeros(len(part), dtype=bool)
            core[model.core_sample_indices_] = True
            assert np.array_equal(got["is_core"].to_numpy(), core)
        else:
            model = HDBSCAN(**params).fit(X)
            assert np.array_equal(got["probability"].to_numpy(), model.probabilities_)
        assert np.array_equal(got["label"].to_numpy(), model.labels_)
        assert model.labels_.max() >= 1, "each group should hold several clusters"
        groups += 1
    return groups


def far_apart(seed=8):
    """Three dense blobs hundreds of tiles apart (tile size 20), lone points between them and a
    pair of points alone in their tiles: the components left after the tiles' light edges
    must find each other across many empty tiles, and core distances of the lone points reach
    far beyond any halo."""
    rng = np.random.default_rng(seed)
    parts = [rng.normal(c, 3, (250, 2)) for c in [(0, 0), (4000, 0), (1000, 7000)]]
    lone = rng.uniform(-2000, 9000, (12, 2))
    pair = np.array([[-6000.0, -6000.0], [-6000.0, -5999.0]])
    X = np.concatenate(parts + [lone, pair])
    return pd.DataFrame({"id": rng.permutation(len(X)) * 7 + 3, "x": X[:, 0], "y": X[:, 1]})


def check_hdbscan(result, frame, columns=("x", "y"), **params):
    """The engine's global HDBSCAN equals the single-process HDBSCAN on the rows sorted by id:
    every input row once with its other columns, the same labels (same numbers) and the same
    probabilities (on the sphere to rounding: the single process takes lambda = 1/distance in
    metres, the engine in radians). Returns the single-process labels."""
    ordered = frame.sort_values("id", kind="stable").reset_index(drop=True)
    model = HDBSCAN(**params).fit(ordered[list(columns)].to_numpy())
    result = result.sort_values("id", kind="stable").reset_index(drop=True)
    assert len(result) == len(frame)
    for column in frame.columns:
        assert np.array_equal(result[column].to_numpy(), ordered[column].to_numpy()), column
    assert np.array_equal(result["label"].to_numpy(), model.labels_)
    tolerance = 1e-12 if params.get("metric") == "haversine" else 0
    assert np.allclose(result["probability"].to_numpy(), model.probabilities_, rtol=0, atol=tolerance)
    return model.labels_
