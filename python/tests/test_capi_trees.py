"""The library's functions for trees assembled elsewhere (the engines' global HDBSCAN):
gc_hdbscan_fit_tree gives the fit's labels over the fit's tree in any order and refuses what is
not a spanning tree; GC_OUTPUT_CORE_DISTANCES and gc_distances are the bits the fit's MST
weights are made of (each weight is the larger core distance or the distance, exactly), on the
plane and the sphere; gc_mutual_reachability_mst is the fit's tree and core distances without
the clusters; gc_bottleneck_forest keeps every bottleneck distance between kept rows (brute
force)."""

import numpy as np
import pytest

from geocluster_hdbscan import _native


def blobs(seed, n=400, sphere=False):
    rng = np.random.default_rng(seed)
    X = np.concatenate([rng.normal(0, 1, (n // 2, 2)), rng.normal(5, 1, (n // 4, 2)), rng.uniform(-5, 10, (n // 4, 2))])
    X = np.round(X, 1)  # ties and duplicates
    return np.radians(X * 0.3 + [40, 170]) if sphere else X


def fit(X, sphere, min_samples=5):
    return _native.hdbscan_fit(X, 15, min_samples, 0.0, None, False, False, 1, keep_mst=True, haversine=sphere,
                               core_distances=True)


@pytest.mark.parametrize("sphere", [False, True])
def test_fit_tree_over_the_fits_tree_in_any_order(sphere):
    X = blobs(1, sphere=sphere)
    fitted = fit(X, sphere)
    mst = fitted.mst()
    order = np.random.default_rng(2).permutation(len(mst["a"]))
    given = _native.hdbscan_fit_tree(len(X), mst["b"][order], mst["a"][order], mst["weight"][order], 15, 0.0, None,
                                     False, False, 1)
    (labels, probabilities), (fitted_labels, fitted_probabilities) = given.labels(), fitted.labels()
    assert np.array_equal(labels, fitted_labels)
    # On the sphere the fit measured in metres and the tree is in radians: probabilities and
    # scores, ratios of lambdas, to rounding.
    tolerance = 1e-12 if sphere else 0
    assert np.allclose(probabilities, fitted_probabilities, rtol=0, atol=tolerance)
    assert np.allclose(given.outlier_scores(), fitted.outlier_scores(), rtol=0, atol=tolerance)


@pytest.mark.parametrize("sphere", [False, True])
@pytest.mark.parametrize("threads", [1, 2])
def test_mutual_reachability_mst_is_the_fits_tree(sphere, threads):
    X = blobs(4, n=2000, sphere=sphere)
    fitted = fit(X, sphere, min_samples=7)
    mst, core = _native.mutual_reachability_mst(X, 7, threads, haversine=sphere)
    expected = fitted.mst()
    for key in ("a", "b", "weight"):
        assert np.array_equal(mst[key], expected[key]), key
    assert np.array_equal(core, fitted.core_distances())
    assert len(mst["a"]) == len(X) - 1 and np.all(np.diff(mst["weight"]) >= 0)


def test_mutual_reachability_mst_refusals_and_small_inputs():
    with pytest.raises(_native.NativeError, match="minSamples = 0"):
        _native.mutual_reachability_mst(np.zeros((5, 2)), 0, 1)
    with pytest.raises(_native.NativeError, match="at least 10 needed"):
        _native.mutual_reachability_mst(np.zeros((5, 2)), 10, 1)
    with pytest.raises(_native.NativeError, match="threads = 0"):
        _native.mutual_reachability_mst(np.zeros((5, 2)), 2, 0)
    mst, core = _native.mutual_reachability_mst(np.array([[1.0, 2.0]]), 1, 1)
    assert len(mst["a"]) == 0 and core.tolist() == [0.0]


def test_fit_tree_refuses_what_is_no_spanning_tree():
    with pytest.raises(_native.NativeError, match="edge 1 joins 1 and 0, already joined"):
        _native.hdbscan_fit_tree(3, np.array([0, 1]), np.array([1, 0]), np.array([1.0, 1.0]), 2, 0.0, None, False,
                                 False, 1)
    with pytest.raises(_native.NativeError, match="edge 0 has end 7"):
        _native.hdbscan_fit_tree(3, np.array([7, 1]), np.array([1, 2]), np.array([1.0, 1.0]), 2, 0.0, None, False,
                                 False, 1)
    with pytest.raises(_native.NativeError, match="edge 1 weighs nan"):
        _native.hdbscan_fit_tree(3, np.array([0, 1]), np.array([1, 2]), np.array([1.0, np.nan]), 2, 0.0, None, False,
                                 False, 1)


@pytest.mark.parametrize("sphere", [False, True])
def test_core_distances_and_weights_are_made_of_the_librarys_distances(sphere):
    X = blobs(3, n=200, sphere=sphere)
    fitted = fit(X, sphere, min_samples=6)
    core = fitted.core_distances()
    n = len(X)
    i, j = np.meshgrid(np.arange(n), np.arange(n), indexing="ij")
    d = _native.distances(X[i.ravel()], X[j.ravel()], haversine=sphere).reshape(n, n)
    assert np.array_equal(np.sort(d, axis=1)[:, 5], core)  # the 6th nearest, the point itself included
    mst = fitted.mst()
    expected = np.maximum(np.maximum(core[mst["a"]], core[mst["b"]]), d[mst["a"], mst["b"]])
    assert np.array_equal(mst["weight"], expected)


def bottleneck(n, a, b, w, limit):
    """All-pairs bottleneck distance in a forest, over its edges <= limit (inf: not joined)."""
    out = np.full((n, n), np.inf)
    adjacent = [[] for _ in range(n)]
    for x, y, weight in zip(a, b, w):
        if weight <= limit:
            adjacent[x].append((y, weight))
            adjacent[y].append((x, weight))
    for s in range(n):
        out[s, s] = 0
        stack = [s]
        while stack:
            u = stack.pop()
            for v, weight in adjacent[u]:
                if out[s, v] == np.inf and v != s:
                    out[s, v] = max(out[s, u], weight)
                    stack.append(v)
    return out


@pytest.mark.parametrize("seed", range(5))
def test_bottleneck_forest_keeps_every_bottleneck_between_kept_rows(seed):
    rng = np.random.default_rng(seed)
    n = 80
    parent = np.array([rng.integers(0, i) for i in range(1, n)])
    a, b = np.arange(1, n), parent
    w = rng.integers(0, 6, n - 1).astype(float)  # many ties
    kept = rng.random(n) < 0.4
    limit = 4.0
    va, vb, vw = _native.bottleneck_forest(n, a, b, w, limit, kept)
    assert kept[va].all() and kept[vb].all() and (vw <= limit).all()
    assert len(va) < kept.sum()
    rows = np.flatnonzero(kept)
    full = bottleneck(n, a, b, w, limit)[np.ix_(rows, rows)]
    seen = bottleneck(n, va, vb, vw, limit)[np.ix_(rows, rows)]
    assert np.array_equal(full, seen)


def kruskal(n, a, b, w):
    """A brute-force minimum spanning forest: its edges, by ascending weight."""
    parent = list(range(n))

    def find(x):
        while parent[x] != x:
            x = parent[x]
        return x

    out = []
    for i in sorted(range(len(w)), key=lambda i: w[i]):
        x, y = find(a[i]), find(b[i])
        if x != y:
            parent[x] = y
            out.append((a[i], b[i], w[i]))
    return tuple(np.array(column) for column in zip(*out))


@pytest.mark.parametrize("seed", range(4))
def test_bottleneck_forest_over_a_graph_is_a_minimum_forest_whatever_the_edge_order(seed):
    # What the driver gives it: many runs' edges, repeated, closing cycles, tied, -0 among them.
    rng = np.random.default_rng(seed)
    n, m = 60, 400
    a, b = rng.integers(0, n, m), rng.integers(0, n, m)
    w = rng.integers(0, 5, m).astype(float)
    w[w == 0] = -0.0
    a, b, w = np.concatenate([a, b[:50]]), np.concatenate([b, a[:50]]), np.concatenate([w, w[:50]])
    everyone = np.ones(n, dtype=np.uint8)
    va, vb, vw = _native.bottleneck_forest(n, a, b, w, np.inf, everyone)
    ka, kb, kw = kruskal(n, a, b, w)
    assert np.array_equal(vw, kw)
    assert np.array_equal(bottleneck(n, va, vb, vw, np.inf), bottleneck(n, ka, kb, kw, np.inf))
    # The same edges in another order, ends swapped: the same answer, edge for edge.
    order = rng.permutation(len(w))
    again = _native.bottleneck_forest(n, b[order], a[order], w[order], np.inf, everyone)
    for x, y in zip((va, vb, vw), again):
        assert np.array_equal(x, y)


def test_bottleneck_forest_refuses_a_negative_weight():
    with pytest.raises(_native.NativeError, match="edge 1 weighs -1.0, below 0"):
        _native.bottleneck_forest(3, np.array([0, 1]), np.array([1, 2]), np.array([1.0, -1.0]), np.inf,
                                  np.ones(3, dtype=np.uint8))


def located(X, mst, core):
    """The locations of X (rows with equal coordinates), each one's core distance, and the
    locations' tree: the fit's tree with each edge's ends replaced by their locations, reduced
    by Kruskal (gc_bottleneck_forest, every location kept)."""
    _, first, location_of = np.unique(X, axis=0, return_index=True, return_inverse=True)
    location_of = location_of.ravel()
    inner = core[first]
    a, b = location_of[mst["a"]], location_of[mst["b"]]
    fa, fb, fw = _native.bottleneck_forest(len(first), a, b, mst["weight"], np.inf, np.ones(len(first), np.uint8))
    return location_of, inner, (fa, fb, fw)


@pytest.mark.parametrize("sphere", [False, True])
@pytest.mark.parametrize("threads", [1, 2])
def test_fit_located_tree_is_the_fit_over_its_points(sphere, threads):
    X = blobs(6, n=3000, sphere=sphere)
    X = X[np.random.default_rng(7).integers(0, len(X), 6000)]  # every location several times
    fitted = fit(X, sphere, min_samples=8)
    location_of, inner, (a, b, w) = located(X, fitted.mst(), fitted.core_distances())
    assert len(inner) < len(X) // 2 and len(a) == len(inner) - 1
    # Singletons' inner is not used: any value gives the same result.
    inner = np.where(np.bincount(location_of) > 1, inner, np.nan)
    order = np.random.default_rng(8).permutation(len(a))
    given = _native.hdbscan_fit_located_tree(location_of, inner, b[order], a[order], w[order], 15, 0.0, None,
                                             False, False, threads)
    (labels, probabilities), (fitted_labels, fitted_probabilities) = given.labels(), fitted.labels()
    assert len(np.unique(fitted_labels)) > 2
    assert np.array_equal(labels, fitted_labels)
    tolerance = 1e-12 if sphere else 0
    assert np.allclose(probabilities, fitted_probabilities, rtol=0, atol=tolerance)


def test_fit_located_tree_of_one_location_and_refusals():
    one = _native.hdbscan_fit_located_tree(np.zeros(30, np.int64), [2.0], [], [], [], 15, 0.0, None, False, True, 1)
    assert np.array_equal(one.labels()[0], np.zeros(30))
    loc = np.array([0, 0, 1, 2, 2])
    inner = np.array([1.0, np.inf, 2.0])
    fit_located = _native.hdbscan_fit_located_tree
    with pytest.raises(_native.NativeError, match=r"location_of\[1\] = 3, outside 0 ..< 3"):
        fit_located([0, 3, 1, 2, 2], inner, [0, 1], [1, 2], [3.0, 3.0], 2, 0.0, None, False, False, 1)
    with pytest.raises(_native.NativeError, match="location 1 holds no point"):
        fit_located([0, 0, 2, 2, 2], inner, [0, 1], [1, 2], [3.0, 3.0], 2, 0.0, None, False, False, 1)
    with pytest.raises(_native.NativeError, match="location 2: nan"):
        fit_located(loc, [1.0, 0.0, np.nan], [0, 1], [1, 2], [3.0, 3.0], 2, 0.0, None, False, False, 1)
    with pytest.raises(_native.NativeError, match="edge 1 weighs 1.5"):
        fit_located(loc, inner, [0, 1], [1, 2], [3.0, 1.5], 2, 0.0, None, False, False, 1)
    with pytest.raises(_native.NativeError, match="edge 1 joins 1 and 0, already joined"):
        fit_located(loc, inner, [0, 1], [1, 0], [3.0, 3.0], 2, 0.0, None, False, False, 1)
    with pytest.raises(ValueError, match="one edge fewer than the locations"):
        fit_located(loc, inner, [0], [1], [3.0], 2, 0.0, None, False, False, 1)
