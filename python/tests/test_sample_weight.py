"""fit(X, sample_weight=…): HDBSCAN counts a sample of weight w as w identical samples (so a
weighted fit equals the fit of the rows repeated, and its core distances a brute-force
oracle's); DBSCAN makes a point core when the weights within eps add up to min_samples, as
scikit-learn's DBSCAN does (compared with scikit-learn itself when it is installed)."""

import numpy as np
import pytest

import geocluster_hdbscan


def blobs(seed, n=300):
    rng = np.random.default_rng(seed)
    centres = np.array([[0, 0], [40, 0], [0, 40]], dtype=float)
    return centres[np.arange(n) % 3] + rng.normal(scale=4, size=(n, 2))


@pytest.mark.parametrize("seed", [0, 1])
@pytest.mark.parametrize("method", ["eom", "leaf"])
def test_hdbscan_weights_equal_repeated_rows(seed, method):
    X = blobs(seed)
    rng = np.random.default_rng(seed + 10)
    w = rng.integers(1, 5, size=len(X)).astype(float)
    w[rng.choice(len(X), 5, replace=False)] = 60  # heavier than min_cluster_size
    params = dict(min_cluster_size=50, min_samples=10, cluster_selection_method=method)
    weighted = geocluster_hdbscan.HDBSCAN(**params).fit(X, sample_weight=w)
    repeated = geocluster_hdbscan.HDBSCAN(**params).fit(np.repeat(X, w.astype(int), axis=0))
    inverse = np.repeat(np.arange(len(X)), w.astype(int))
    np.testing.assert_array_equal(weighted.labels_[inverse], repeated.labels_)
    np.testing.assert_array_equal(weighted.probabilities_[inverse], repeated.probabilities_)
    np.testing.assert_array_equal(weighted.outlier_scores_[inverse], repeated.outlier_scores_)
    # The condensed tree's point rows carry their weights.
    tree = weighted.condensed_tree_
    points = tree["child"] < len(X)
    np.testing.assert_array_equal(tree["child_size"][points], w[tree["child"][points]])


def test_hdbscan_weighted_mst_is_the_brute_force_one():
    X = blobs(3, n=150)
    w = np.random.default_rng(4).integers(1, 4, size=len(X)).astype(float)
    fit = geocluster_hdbscan.HDBSCAN(min_cluster_size=10, min_samples=6, gen_min_span_tree=True).fit(X, sample_weight=w)
    d = np.sqrt(((X[:, None, :] - X[None, :, :]) ** 2).sum(axis=2))
    order = np.argsort(d, axis=1, kind="stable")
    reached = np.argmax(np.cumsum(w[order], axis=1) >= 6, axis=1)
    core = d[np.arange(len(X)), order[np.arange(len(X)), reached]]
    reach = np.maximum(np.maximum(d, core[:, None]), core[None, :])
    # Prim's algorithm on the dense mutual-reachability graph.
    inside = np.zeros(len(X), dtype=bool)
    best = np.full(len(X), np.inf)
    best[0] = 0.0
    total = 0.0
    for _ in range(len(X)):
        i = int(np.argmin(np.where(inside, np.inf, best)))
        total += best[i]
        inside[i] = True
        best = np.minimum(best, reach[i])
    assert fit.minimum_spanning_tree_["distance"].sum() == pytest.approx(total, rel=1e-12)


def test_hdbscan_weights_of_one_change_nothing_and_bad_weights_are_refused():
    X = blobs(5)
    plain = geocluster_hdbscan.HDBSCAN(min_cluster_size=20).fit(X)
    ones = geocluster_hdbscan.HDBSCAN(min_cluster_size=20).fit(X, sample_weight=np.ones(len(X)))
    np.testing.assert_array_equal(plain.labels_, ones.labels_)
    np.testing.assert_array_equal(plain.labels_, geocluster_hdbscan.HDBSCAN(min_cluster_size=20).fit_predict(X, sample_weight=1))
    for bad in (0.5, -1, np.nan):
        w = np.ones(len(X))
        w[7] = bad
        with pytest.raises(ValueError, match=r"sample_weight\[7\]|finite"):
            geocluster_hdbscan.HDBSCAN(min_cluster_size=20).fit(X, sample_weight=w)
    with pytest.raises(ValueError, match="shape"):
        geocluster_hdbscan.HDBSCAN(min_cluster_size=20).fit(X, sample_weight=np.ones(3))
    with pytest.raises(ValueError, match="non-zero"):
        geocluster_hdbscan.HDBSCAN(min_cluster_size=20).fit(X, sample_weight=np.zeros(len(X)))
    with pytest.raises(ValueError, match="prediction_data"):
        geocluster_hdbscan.HDBSCAN(min_cluster_size=20, prediction_data=True).fit(X, sample_weight=np.ones(len(X)))
    # Weights that alone reach min_samples.
    two = geocluster_hdbscan.HDBSCAN(min_cluster_size=2, min_samples=5).fit(np.array([[0.0, 0], [1, 0]]),
                                                                             sample_weight=[4, 3])
    assert len(two.labels_) == 2


def test_hdbscan_haversine_weights_equal_repeated_rows():
    rng = np.random.default_rng(8)
    X = np.radians(np.array([[37.56, 126.97], [37.50, 127.05]])[np.arange(200) % 2] + rng.normal(scale=0.005, size=(200, 2)))
    w = rng.integers(1, 4, size=len(X)).astype(float)
    params = dict(min_cluster_size=30, min_samples=8, metric="haversine")
    weighted = geocluster_hdbscan.HDBSCAN(**params).fit(X, sample_weight=w)
    repeated = geocluster_hdbscan.HDBSCAN(**params).fit(np.repeat(X, w.astype(int), axis=0))
    np.testing.assert_array_equal(weighted.labels_[np.repeat(np.arange(len(X)), w.astype(int))], repeated.labels_)


def brute_weighted_dbscan(X, eps, min_samples, w):
    """scikit-learn's DBSCAN written out: neighbourhoods by brute force, core when their weights
    reach min_samples, the stack expansion in row order."""
    d2 = ((X[:, None, :] - X[None, :, :]) ** 2).sum(axis=2)
    hoods = [np.flatnonzero(row <= eps * eps) for row in d2]
    core = np.array([w[h].sum() >= min_samples for h in hoods])
    labels = np.full(len(X), -1)
    label = 0
    for i in range(len(X)):
        if labels[i] != -1 or not core[i]:
            continue
        stack = [i]
        while stack:
            v = stack.pop()
            if labels[v] != -1:
                continue
            labels[v] = label
            if core[v]:
                stack.extend(q for q in hoods[v] if labels[q] == -1)
        label += 1
    return labels, core


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_dbscan_weights_match_the_reference(seed):
    X = blobs(seed)
    rng = np.random.default_rng(seed + 20)
    w = rng.choice([1, 1, 2, 0.5, 0, 3, -1, 1.25], size=len(X))
    fit = geocluster_hdbscan.DBSCAN(eps=3.0, min_samples=6).fit(X, sample_weight=w)
    labels, core = brute_weighted_dbscan(X, 3.0, 6, w)
    np.testing.assert_array_equal(fit.labels_, labels)
    np.testing.assert_array_equal(fit.core_sample_indices_, np.flatnonzero(core))
    sklearn_cluster = pytest.importorskip("sklearn.cluster")
    theirs = sklearn_cluster.DBSCAN(eps=3.0, min_samples=6).fit(X, sample_weight=w)
    np.testing.assert_array_equal(fit.labels_, theirs.labels_)
    np.testing.assert_array_equal(fit.core_sample_indices_, theirs.core_sample_indices_)


def test_dbscan_weight_errors():
    X = blobs(9, n=30)
    with pytest.raises(ValueError, match="shape"):
        geocluster_hdbscan.DBSCAN(eps=3.0).fit(X, sample_weight=np.ones(4))
    with pytest.raises(ValueError, match="finite"):
        geocluster_hdbscan.DBSCAN(eps=3.0).fit(X, sample_weight=np.full(len(X), np.inf))


def test_dbscan_haversine_weights_equal_scikit_learn():
    rng = np.random.default_rng(12)
    X = np.radians(np.vstack([rng.normal([37.5, 127.0], 0.05, (120, 2)), rng.normal([-17.0, 179.95], 0.05, (120, 2)),
                              rng.uniform([-80, -180], [80, 180], (60, 2))]))
    X[:, 1] = (X[:, 1] + np.pi) % (2 * np.pi) - np.pi
    w = rng.choice([1, 1, 2, 0.5, 0, 3, -1, 1.25], size=len(X))
    fit = geocluster_hdbscan.DBSCAN(eps=0.002, min_samples=6, metric="haversine").fit(X, sample_weight=w)
    sklearn_cluster = pytest.importorskip("sklearn.cluster")
    theirs = sklearn_cluster.DBSCAN(eps=0.002, min_samples=6, metric="haversine").fit(X, sample_weight=w)
    np.testing.assert_array_equal(fit.labels_, theirs.labels_)
    np.testing.assert_array_equal(fit.core_sample_indices_, theirs.core_sample_indices_)


def test_hdbscan_weight_zero_is_the_row_removed_and_labelled_noise():
    X = blobs(6)
    rng = np.random.default_rng(7)
    w = rng.integers(0, 4, size=len(X)).astype(float)
    X[3] = [np.inf, 0]  # and an infinite row keeps scikit-learn's label whatever its weight
    params = dict(min_cluster_size=25, min_samples=8)
    fit = geocluster_hdbscan.HDBSCAN(**params).fit(X, sample_weight=w)
    kept = np.flatnonzero((w > 0) & np.isfinite(X).all(axis=1))
    alone = geocluster_hdbscan.HDBSCAN(**params).fit(X[kept], sample_weight=w[kept])
    np.testing.assert_array_equal(fit.labels_[kept], alone.labels_)
    np.testing.assert_array_equal(fit.probabilities_[kept], alone.probabilities_)
    zero = np.flatnonzero((w == 0) & np.isfinite(X).all(axis=1))
    assert zero.size > 0 and (fit.labels_[zero] == -1).all() and (fit.probabilities_[zero] == 0).all()
    assert np.isnan(fit.outlier_scores_[zero]).all()
    assert fit.labels_[3] == -2
    # The trees name input rows.
    assert set(fit.condensed_tree_["child"][fit.condensed_tree_["child"] < len(X)]) == set(kept)
